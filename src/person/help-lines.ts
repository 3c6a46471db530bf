/**
 * The help screen, generated from the keymap: for the place it was opened from first, then every
 * other, each command with its keys and what it does (the catalog's title and line for those
 * that change the binder). Nothing here is written by hand but the words.
 */
import { displayWidth } from './display-width.js';
import { bindingsIn, isEditCommand, isOpCommand, keysFor, OP_COMMANDS, type Command, type Context, type KeyStroke } from './keymap.js';
import type { Line } from './record-lines.js';
import type { Words } from './words.js';

const ORDER: Context[] = ['welcome', 'lists', 'records', 'record', 'brief', 'search', 'results', 'grant', 'sides', 'list-editor', 'form', 'field', 'pick', 'confirm', 'typed', 'help'];

export function keyLabel(stroke: KeyStroke, words: Words): string {
  if ('char' in stroke) return stroke.twice ? stroke.char + stroke.char : stroke.char;
  if ('ctrl' in stroke) return words.keyWith('ctrl', stroke.ctrl.toUpperCase());
  if ('meta' in stroke) return words.keyWith('meta', stroke.meta);
  const name = words.keyNames[stroke.name];
  return stroke.mod ? words.keyWith(stroke.mod, name) : name;
}

export function helpLines(from: Context, words: Words): Line[] {
  const lines: Line[] = [];
  for (const context of [from, ...ORDER.filter((c) => c !== from)]) {
    lines.push({ text: words.contexts[context], tone: 'head' });
    for (const { command, keys } of bindingsIn(context, words.lang)) {
      const label = keys.map((k) => keyLabel(k, words)).join(' ');
      const op = isOpCommand(command) ? OP_COMMANDS[command] : null;
      const describe = op ? words.forPerson[op] ?? words.op(op).describe : null;
      lines.push({ text: `  ${label}${' '.repeat(Math.max(1, 15 - displayWidth(label)))}${words.commands[command]}${describe ? ` — ${describe}` : ''}`, tone: 'plain' });
    }
    lines.push({ text: '', tone: 'plain' });
  }
  return lines;
}

/**
 * Commands the status line leaves out (help lists them): moving about, editing a line, Ctrl-Z,
 * and undo (offered in the message line when there is something to undo).
 */
const MOVING = new Set<Command>(['up', 'down', 'left', 'right', 'pageUp', 'pageDown', 'halfUp', 'halfDown', 'top', 'bottom', 'suspend', 'undo']);
/** Always in the status line where they are heard, whatever its width. */
const KEPT = new Set<Command>(['help', 'quit']);
/**
 * The hints worth most, first: those that go when the line is short go from the end of this
 * list (and then any command not in it, in keymap order). Help and quit are never dropped.
 */
const RANK: readonly Command[] = [
  'submit', 'yes', 'cancel', 'open', 'approve', 'add', 'edit', 'search', 'back', 'undo', 'movePick', 'moveOn', 'moveBack',
  'note', 'brief', 'release', 'delete', 'nextField', 'choiceNext', 'switchPane', 'filterText', 'newList',
  'accessMore', 'accessLess', 'sideAdd', 'sideRemove', 'rowRename', 'gateToggle', 'childrenToggle', 'stateAdd', 'fieldAdd',
];

/**
 * The keys shown in the status line, in at most `width` columns: what can be done here (moving
 * about left out), the least useful dropped first when they do not all fit, `? help` and
 * `q quit` always kept, and a last word saying how many were left out (help lists them all).
 */
export function keyHints(context: Context, words: Words, width = Number.POSITIVE_INFINITY): string {
  const shown = bindingsIn(context, words.lang).filter((b) => !MOVING.has(b.command) && !isEditCommand(b.command));
  const hint = (b: { command: Command; keys: KeyStroke[] }) => `${keyLabel(b.keys[0]!, words)} ${words.commands[b.command]}`;
  const rank = (c: Command) => (KEPT.has(c) ? -1 : RANK.includes(c) ? RANK.indexOf(c) : RANK.length + shown.findIndex((b) => b.command === c));
  const byValue = [...shown].sort((a, b) => rank(a.command) - rank(b.command));
  const kept = new Set<Command>();
  const join = (set: Set<Command>, left: number) => {
    const parts = shown.filter((b) => set.has(b.command) && !KEPT.has(b.command)).map(hint);
    if (left > 0) parts.push(words.footer.more(left));
    parts.push(...shown.filter((b) => set.has(b.command) && KEPT.has(b.command)).map(hint));
    return parts.join('  ');
  };
  for (const b of byValue) {
    kept.add(b.command);
    if (KEPT.has(b.command)) continue;
    const left = shown.length - kept.size;
    if (displayWidth(join(kept, left)) > width) {
      kept.delete(b.command);
      break;
    }
  }
  const all = join(kept, shown.length - kept.size);
  return displayWidth(all) <= width ? all : join(kept, 0);
}

/** Some commands with their keys, as a short hint: `e rename the list · v board / table`. */
export function hintFor(commands: readonly Command[], context: Context, words: Words): string {
  return commands
    .map((command) => {
      const keys = keysFor(command, context, words.lang);
      return keys.length ? `${keys.map((k) => keyLabel(k, words)).join('/')} ${words.commands[command]}` : '';
    })
    .filter(Boolean)
    .join(' · ');
}
