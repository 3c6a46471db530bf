/**
 * What `binder admin`'s exchange commands print, as `binder admin` prints its answers: made safe
 * wherever it goes (a terminal, a pipe, a file), a refusal's quoted lines indented, and `binder `
 * in a value as it was written. An export's own data never passes here: it is written exact.
 */
import { safeAnswer, safeSentence } from '../keeper/terminal-safe.js';
import { asWritten } from '../keeper/text-values.js';

/** An answer on stdout. */
export function printAnswer(text: string): void {
  process.stdout.write(`${asWritten(safeAnswer(text))}\n`);
}

/** A sentence on stderr: a refusal (`Not done: …`), or what stops before anything is done. */
export function printSentence(text: string): void {
  process.stderr.write(`${asWritten(safeSentence(text))}\n`);
}
