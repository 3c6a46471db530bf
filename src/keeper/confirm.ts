/**
 * A person's yes to a question that guards what cannot be undone (a deletion, an import, a
 * backup put back), asked on their terminal: the question on stderr, so that stdout keeps the
 * command's answer. It never takes a yes from a pipe.
 */
import { createInterface } from 'node:readline/promises';
import { safeSentence } from './terminal-safe.js';
import { asWritten } from './text-values.js';

/** Whether the person said yes (y or yes, any case) to `question`; without a terminal to ask on, no. */
export async function confirmed(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${asWritten(safeSentence(question))} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}
