/**
 * The one keymap: named commands, the keys bound to them, and where (in which pane or screen)
 * they are heard. Input handlers ask `commandFor`; the help screen is generated from `helpFor`.
 * No component compares a key by itself: a new key is one line here. Every command that changes
 * the binder names its catalog operation, so its title comes from the catalog.
 */
import type { Key } from 'ink';
import type { OpName } from '../keeper/operations.js';

/** Where keys are heard: the focused pane or the screen in front. */
export type Context =
  | 'lists' | 'records' | 'record' | 'search' | 'results' | 'help'
  | 'welcome' | 'grant' | 'sides' | 'list-editor' | 'brief'
  /* dialogs, in front of everything */
  | 'form' | 'pick' | 'confirm' | 'typed';

export type KeyName = 'up' | 'down' | 'left' | 'right' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'return' | 'escape' | 'tab';

export type KeyStroke = { char: string } | { name: KeyName };

/** Commands that change the binder (or, for brief, the person's place in its history), and the catalog operation each goes through. */
export const OP_COMMANDS = {
  approve: 'approve',
  moveBack: 'move',
  moveOn: 'move',
  movePick: 'move',
  add: 'add',
  edit: 'edit',
  note: 'note',
  editNote: 'edit-note',
  attach: 'attach',
  detach: 'detach',
  archive: 'archive',
  delete: 'delete',
  release: 'release',
  brief: 'brief',
  newList: 'create-list',
  archiveList: 'archive-list',
  deleteList: 'delete-list',
  accessLess: 'grant',
  accessMore: 'grant',
  sideAdd: 'side-add',
  sideRemove: 'side-remove',
  listTitle: 'edit-list',
  listView: 'edit-list',
  stateAdd: 'edit-list',
  fieldAdd: 'edit-list',
  rowRename: 'edit-list',
  rowEarlier: 'edit-list',
  rowLater: 'edit-list',
  rowRemove: 'edit-list',
  gateToggle: 'edit-list',
} as const satisfies Record<string, OpName>;

export type OpCommand = keyof typeof OP_COMMANDS;

/** Commands that only move about the screen. */
export const PLAIN_COMMANDS = [
  'up', 'down', 'left', 'right', 'pageUp', 'pageDown', 'top', 'bottom',
  'open', 'back', 'switchPane', 'help', 'quit', 'search',
  'filterState', 'filterMine', 'filterArchived', 'archivedLists',
  'grant', 'sides', 'editList',
  'submit', 'cancel', 'nextField', 'prevField', 'choicePrev', 'choiceNext', 'yes',
] as const;

export type PlainCommand = (typeof PLAIN_COMMANDS)[number];
export type Command = OpCommand | PlainCommand;

export interface Binding {
  command: Command;
  keys: readonly KeyStroke[];
  where: readonly Context[];
}

const c = (char: string): KeyStroke => ({ char });
const k = (name: KeyName): KeyStroke => ({ name });

const MOVING: readonly Context[] = ['lists', 'records', 'record', 'results', 'help', 'welcome', 'grant', 'sides', 'list-editor', 'brief'];
const BROWSE: readonly Context[] = ['lists', 'records'];
const RECORD: readonly Context[] = ['records', 'record'];
const ANYWHERE_BUT_TYPING: readonly Context[] = ['lists', 'records', 'record', 'results', 'help', 'welcome', 'grant', 'sides', 'list-editor', 'brief'];
const PAGED: readonly Context[] = ['records', 'record', 'results', 'help', 'lists', 'brief'];

/** Order matters twice: the first binding that matches wins, and help lists them in this order. */
export const KEYMAP: readonly Binding[] = [
  { command: 'up', keys: [k('up'), c('k')], where: MOVING },
  { command: 'down', keys: [k('down'), c('j')], where: MOVING },
  { command: 'down', keys: [k('down')], where: ['search'] },
  { command: 'left', keys: [k('left'), c('h')], where: ['records'] },
  { command: 'right', keys: [k('right'), c('l')], where: ['records'] },
  { command: 'pageUp', keys: [k('pageUp')], where: PAGED },
  { command: 'pageDown', keys: [k('pageDown')], where: PAGED },
  { command: 'top', keys: [k('home')], where: PAGED },
  { command: 'bottom', keys: [k('end')], where: PAGED },
  { command: 'open', keys: [k('return')], where: ['lists', 'records', 'results', 'welcome', 'search', 'brief'] },
  { command: 'open', keys: [k('right'), c('l')], where: ['lists'] },
  { command: 'back', keys: [k('escape')], where: [...ANYWHERE_BUT_TYPING, 'search'] },
  { command: 'switchPane', keys: [k('tab')], where: ['lists', 'records', 'search', 'results'] },
  { command: 'search', keys: [c('/')], where: ['lists', 'records', 'results'] },

  { command: 'approve', keys: [c('a')], where: RECORD },
  { command: 'moveBack', keys: [c('<')], where: RECORD },
  { command: 'moveOn', keys: [c('>')], where: RECORD },
  { command: 'movePick', keys: [c('m')], where: RECORD },
  { command: 'add', keys: [c('n')], where: ['records'] },
  { command: 'edit', keys: [c('e')], where: RECORD },
  { command: 'note', keys: [c('N')], where: RECORD },
  { command: 'editNote', keys: [c('E')], where: ['record'] },
  { command: 'attach', keys: [c('t')], where: RECORD },
  { command: 'detach', keys: [c('T')], where: ['record'] },
  { command: 'archive', keys: [c('x')], where: RECORD },
  { command: 'delete', keys: [c('D')], where: RECORD },
  { command: 'release', keys: [c('r')], where: RECORD },
  { command: 'brief', keys: [c('b')], where: ['lists', 'records', 'record', 'brief'] },

  { command: 'filterState', keys: [c('s')], where: ['records', 'results'] },
  { command: 'filterMine', keys: [c('M')], where: ['records', 'results'] },
  { command: 'filterArchived', keys: [c('A')], where: ['records', 'results'] },
  { command: 'archivedLists', keys: [c('A')], where: ['lists'] },

  { command: 'grant', keys: [c('g')], where: BROWSE },
  { command: 'newList', keys: [c('L')], where: BROWSE },
  { command: 'editList', keys: [c('E')], where: BROWSE },
  { command: 'archiveList', keys: [c('X')], where: ['lists'] },
  { command: 'deleteList', keys: [c('D')], where: ['lists'] },
  { command: 'sides', keys: [c('S')], where: ['lists', 'records', 'welcome'] },

  { command: 'accessLess', keys: [k('left'), c('h')], where: ['grant'] },
  { command: 'accessMore', keys: [k('right'), c('l')], where: ['grant'] },
  { command: 'sideAdd', keys: [c('n')], where: ['sides'] },
  { command: 'sideRemove', keys: [c('D')], where: ['sides'] },

  { command: 'rowRename', keys: [k('return')], where: ['list-editor'] },
  { command: 'listTitle', keys: [c('e')], where: ['list-editor'] },
  { command: 'listView', keys: [c('v')], where: ['list-editor'] },
  { command: 'stateAdd', keys: [c('n')], where: ['list-editor'] },
  { command: 'fieldAdd', keys: [c('f')], where: ['list-editor'] },
  { command: 'gateToggle', keys: [c('g')], where: ['list-editor'] },
  { command: 'rowEarlier', keys: [c('<')], where: ['list-editor'] },
  { command: 'rowLater', keys: [c('>')], where: ['list-editor'] },
  { command: 'rowRemove', keys: [c('D')], where: ['list-editor'] },

  { command: 'submit', keys: [k('return')], where: ['form', 'pick', 'typed'] },
  { command: 'yes', keys: [c('y'), c('Y')], where: ['confirm'] },
  { command: 'cancel', keys: [k('escape')], where: ['form', 'pick', 'confirm', 'typed'] },
  { command: 'cancel', keys: [c('n'), c('N')], where: ['confirm'] },
  { command: 'nextField', keys: [k('tab'), k('down')], where: ['form'] },
  { command: 'prevField', keys: [k('up')], where: ['form'] },
  { command: 'choicePrev', keys: [k('left')], where: ['form'] },
  { command: 'choiceNext', keys: [k('right')], where: ['form'] },
  { command: 'up', keys: [k('up'), c('k')], where: ['pick'] },
  { command: 'down', keys: [k('down'), c('j')], where: ['pick'] },

  { command: 'help', keys: [c('?')], where: ANYWHERE_BUT_TYPING },
  { command: 'quit', keys: [c('q')], where: ANYWHERE_BUT_TYPING },
];

function strokeMatches(stroke: KeyStroke, input: string, key: Key): boolean {
  if ('char' in stroke) return input === stroke.char && !key.ctrl && !key.meta;
  switch (stroke.name) {
    case 'up': return key.upArrow;
    case 'down': return key.downArrow;
    case 'left': return key.leftArrow;
    case 'right': return key.rightArrow;
    case 'pageUp': return key.pageUp;
    case 'pageDown': return key.pageDown;
    case 'home': return key.home;
    case 'end': return key.end;
    case 'return': return key.return;
    case 'escape': return key.escape;
    case 'tab': return key.tab && !key.shift;
    default: {
      const never: never = stroke.name;
      throw new Error(`unknown key ${String(never)}`);
    }
  }
}

/** The command a key means here, if any. */
export function commandFor(context: Context, input: string, key: Key): Command | undefined {
  for (const binding of KEYMAP) {
    if (!binding.where.includes(context)) continue;
    if (binding.keys.some((stroke) => strokeMatches(stroke, input, key))) return binding.command;
  }
  return undefined;
}

/** The keys that do `command` here (for hints in the status line). */
export function keysFor(command: Command, context: Context): KeyStroke[] {
  return KEYMAP.filter((b) => b.command === command && b.where.includes(context)).flatMap((b) => [...b.keys]);
}

/** The commands heard here, each once, in keymap order, with all their keys. */
export function bindingsIn(context: Context): { command: Command; keys: KeyStroke[] }[] {
  const out = new Map<Command, KeyStroke[]>();
  for (const b of KEYMAP) {
    if (!b.where.includes(context)) continue;
    out.set(b.command, [...(out.get(b.command) ?? []), ...b.keys]);
  }
  return [...out].map(([command, keys]) => ({ command, keys }));
}

export function isOpCommand(command: Command): command is OpCommand {
  return Object.hasOwn(OP_COMMANDS, command);
}
