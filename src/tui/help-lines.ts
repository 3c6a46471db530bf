/**
 * The help screen, generated from the keymap: for the place it was opened from first, then every
 * other, each command with its keys and what it does (the catalog's title and line for those
 * that change the binder). Nothing here is written by hand but the words.
 */
import { bindingsIn, isOpCommand, keysFor, OP_COMMANDS, type Command, type Context, type KeyStroke } from './keymap.js';
import type { Line } from './record-lines.js';
import type { Words } from './words.js';

const ORDER: Context[] = ['welcome', 'lists', 'records', 'record', 'brief', 'search', 'results', 'grant', 'sides', 'list-editor', 'form', 'pick', 'confirm', 'typed', 'help'];

export function keyLabel(stroke: KeyStroke, words: Words): string {
  return 'char' in stroke ? stroke.char : words.keyNames[stroke.name];
}

export function helpLines(from: Context, words: Words): Line[] {
  const lines: Line[] = [];
  for (const context of [from, ...ORDER.filter((c) => c !== from)]) {
    lines.push({ text: words.contexts[context], tone: 'head' });
    for (const { command, keys } of bindingsIn(context)) {
      const label = keys.map((k) => keyLabel(k, words)).join(' ').padEnd(14);
      const op = isOpCommand(command) ? words.op(OP_COMMANDS[command]) : null;
      lines.push({ text: `  ${label} ${words.commands[command]}${op ? ` — ${op.describe}` : ''}`, tone: 'plain' });
    }
    lines.push({ text: '', tone: 'plain' });
  }
  return lines;
}

/** The keys shown in the status line: what can be done here, moving about left out. */
export function keyHints(context: Context, words: Words): string {
  const moving = new Set(['up', 'down', 'left', 'right', 'pageUp', 'pageDown', 'top', 'bottom']);
  return bindingsIn(context)
    .filter((b) => !moving.has(b.command))
    .map((b) => `${keyLabel(b.keys[0]!, words)} ${words.commands[b.command]}`)
    .join('  ');
}

/** Some commands with their keys, as a short hint: `e rename the list · v board / table`. */
export function hintFor(commands: readonly Command[], context: Context, words: Words): string {
  return commands
    .map((command) => {
      const keys = keysFor(command, context);
      return keys.length ? `${keys.map((k) => keyLabel(k, words)).join('/')} ${words.commands[command]}` : '';
    })
    .filter(Boolean)
    .join(' · ');
}
