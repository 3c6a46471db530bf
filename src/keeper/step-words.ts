/**
 * A next step (`{op, args}`) written as the `binder` command line reads it, from the catalog's
 * argument specs: positional words in the order given, then flags (`binder take --next batches`,
 * `binder show batches --state "In review" --offset 50`). The one writer of steps for the command
 * line; MCP writes them as tool calls (src/mcp). It never reads a step back out of text.
 */
import { isPlaceholder, type Step } from '../store/light.js';
import { operation } from './operations.js';
import { terminalSafe } from './terminal-safe.js';

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A value as one word: quoted when it holds a space or is empty (`"In review"`). */
function quotedWord(value: string): string {
  const text = terminalSafe(value, { multiline: true }).replace(/[\n\u2028\u2029]/g, '⏎');
  if (text !== '' && !/[\s"'\u00a0]/.test(text)) return text;
  return text.includes('"') ? `'${text.replace(/'/g, '’')}'` : `"${text}"`;
}

export function commandStep(of: Step): string {
  const spec = operation(of.op);
  const words = ['binder', of.op];
  for (const [name, value] of Object.entries(of.args)) {
    const arg = spec?.args[name];
    const shown = isPlaceholder(value) ? value.placeholder : String(value);
    if (arg?.positional) words.push(arg.kind === 'words' || isPlaceholder(value) ? shown : quotedWord(shown));
    else if (value === true) words.push(`--${arg?.flag ?? kebab(name)}`);
    else words.push(`--${arg?.flag ?? kebab(name)}`, isPlaceholder(value) ? shown : quotedWord(shown));
  }
  return words.join(' ');
}
