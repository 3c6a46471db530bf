/**
 * The one keymap: named commands, the keys bound to them, and where (in which pane or screen)
 * they are heard. Input handlers ask `commandFor`; the help screen is generated from `helpFor`.
 * No component compares a key by itself: a new key is one line here. Every command that changes
 * the binder names its catalog operation, so its title comes from the catalog.
 */
import type { OpName } from '../keeper/operations.js';
import type { Lang } from './words.js';
import type { KeyName, KeyPress } from './keys.js';

export type { KeyName } from './keys.js';

/** Where keys are heard: the focused pane or the screen in front. */
export type Context =
  | 'lists' | 'records' | 'record' | 'search' | 'results' | 'help'
  | 'welcome' | 'grant' | 'sides' | 'list-editor' | 'brief'
  /* the web page's alone: the people of a signed-in binder */
  | 'people'
  /* dialogs, in front of everything: a form on a choice, a form on a text field, … */
  | 'form' | 'field' | 'pick' | 'confirm' | 'typed';

/**
 * A key as a binding names it: a character (no Ctrl, no Alt; `twice`: pressed twice, as `gg`),
 * a named key (with one modifier at most), or Ctrl or Alt with a character.
 */
export type KeyStroke =
  | { char: string; twice?: true }
  | { name: KeyName; mod?: 'ctrl' | 'meta' | 'shift' }
  | { ctrl: string }
  | { meta: string };

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
  needs: 'needs',
  detach: 'detach',
  archive: 'archive',
  delete: 'delete',
  release: 'release',
  brief: 'brief',
  briefSeen: 'brief',
  newList: 'create-list',
  archiveList: 'archive-list',
  deleteList: 'delete-list',
  accessLess: 'grant',
  accessMore: 'grant',
  sideAdd: 'side-add',
  sideRemove: 'side-remove',
  personRole: 'set-role',
  personRemove: 'remove-person',
  listTitle: 'edit-list',
  listView: 'edit-list',
  stateAdd: 'edit-list',
  fieldAdd: 'edit-list',
  rowRename: 'edit-list',
  rowEarlier: 'edit-list',
  rowLater: 'edit-list',
  rowRemove: 'edit-list',
  gateToggle: 'edit-list',
  childrenToggle: 'edit-list',
} as const satisfies Record<string, OpName>;

export type OpCommand = keyof typeof OP_COMMANDS;

/** Commands that only move about the screen. */
export const PLAIN_COMMANDS = [
  'up', 'down', 'left', 'right', 'pageUp', 'pageDown', 'halfUp', 'halfDown', 'top', 'bottom',
  'open', 'back', 'switchPane', 'help', 'quit', 'suspend', 'search', 'undo', 'goTo', 'zoom', 'briefLatest',
  'filterText', 'filterState', 'filterMine', 'filterArchived', 'archivedLists', 'loginLink',
  'grant', 'sides', 'editList',
  'submit', 'cancel', 'nextField', 'prevField', 'choicePrev', 'choiceNext', 'yes',
] as const;

/** Line editing in a text field (a form's, the search words, a typed confirmation). */
export const EDIT_COMMANDS = [
  'editLeft', 'editRight', 'editWordLeft', 'editWordRight', 'editHome', 'editEnd',
  'editBackspace', 'editDelete', 'editWordBack', 'editKillStart', 'editKillEnd', 'editNewLine',
] as const;

export type PlainCommand = (typeof PLAIN_COMMANDS)[number];
export type EditCommand = (typeof EDIT_COMMANDS)[number];
export type Command = OpCommand | PlainCommand | EditCommand;

export interface Binding {
  command: Command;
  keys: readonly KeyStroke[];
  where: readonly Context[];
  /** Heard only in this language (a French yes is `o`, for oui). */
  lang?: Lang;
}

const c = (char: string): KeyStroke => ({ char });
const k = (name: KeyName, mod?: 'ctrl' | 'meta' | 'shift'): KeyStroke => (mod ? { name, mod } : { name });
const ctrl = (letter: string): KeyStroke => ({ ctrl: letter });
const alt = (char: string): KeyStroke => ({ meta: char });

const MOVING: readonly Context[] = ['lists', 'records', 'record', 'results', 'help', 'welcome', 'grant', 'sides', 'list-editor', 'brief', 'people'];
const BROWSE: readonly Context[] = ['lists', 'records'];
const RECORD: readonly Context[] = ['records', 'record'];
const ANYWHERE_BUT_TYPING: readonly Context[] = ['lists', 'records', 'record', 'results', 'help', 'welcome', 'grant', 'sides', 'list-editor', 'brief', 'people'];
const PAGED: readonly Context[] = ['records', 'record', 'results', 'help', 'lists', 'brief', 'grant', 'sides', 'list-editor', 'people'];
/** Where `g` means nothing alone, so `gg` can go to the first row (in the list editor, `g` is the gate). */
const GG: readonly Context[] = PAGED.filter((x) => x !== 'list-editor');
const DIALOGS: readonly Context[] = ['form', 'field', 'pick', 'confirm', 'typed'];
const FORM: readonly Context[] = ['form', 'field'];
const TYPING: readonly Context[] = ['field', 'typed', 'search'];
const EVERYWHERE: readonly Context[] = [...ANYWHERE_BUT_TYPING, 'search', ...DIALOGS];

/** Order matters twice: the first binding that matches wins, and help lists them in this order. */
export const KEYMAP: readonly Binding[] = [
  { command: 'up', keys: [k('up'), c('k')], where: MOVING },
  { command: 'down', keys: [k('down'), c('j')], where: MOVING },
  { command: 'down', keys: [k('down')], where: ['search'] },
  { command: 'left', keys: [k('left'), c('h')], where: ['records'] },
  { command: 'right', keys: [k('right'), c('l')], where: ['records'] },
  { command: 'pageUp', keys: [k('pageUp')], where: PAGED },
  { command: 'pageDown', keys: [k('pageDown')], where: PAGED },
  { command: 'halfUp', keys: [ctrl('u')], where: PAGED },
  { command: 'halfDown', keys: [ctrl('d')], where: PAGED },
  { command: 'top', keys: [k('home'), { char: 'g', twice: true }], where: GG },
  { command: 'top', keys: [k('home')], where: ['list-editor'] },
  { command: 'bottom', keys: [k('end'), c('G')], where: PAGED },
  { command: 'open', keys: [k('return')], where: ['lists', 'records', 'record', 'results', 'welcome', 'search', 'brief'] },
  { command: 'open', keys: [k('right'), c('l')], where: ['lists'] },
  { command: 'back', keys: [k('escape')], where: [...ANYWHERE_BUT_TYPING, 'search'] },
  { command: 'switchPane', keys: [k('tab')], where: ['lists', 'records', 'search', 'results'] },
  { command: 'search', keys: [c('/')], where: ['lists', 'records', 'results'] },
  { command: 'filterText', keys: [c('f')], where: BROWSE },
  { command: 'goTo', keys: [c('#'), c(':')], where: ANYWHERE_BUT_TYPING },

  { command: 'approve', keys: [c('a')], where: RECORD },
  { command: 'moveBack', keys: [c('<')], where: RECORD },
  { command: 'moveOn', keys: [c('>')], where: RECORD },
  { command: 'movePick', keys: [c('m')], where: RECORD },
  { command: 'add', keys: [c('n')], where: ['records'] },
  { command: 'edit', keys: [c('e')], where: RECORD },
  { command: 'note', keys: [c('N')], where: RECORD },
  { command: 'editNote', keys: [c('E')], where: ['record'] },
  { command: 'attach', keys: [c('t')], where: RECORD },
  { command: 'needs', keys: [c('n')], where: ['record'] },
  { command: 'detach', keys: [c('T')], where: ['record'] },
  { command: 'archive', keys: [c('x')], where: RECORD },
  { command: 'delete', keys: [c('D')], where: RECORD },
  { command: 'release', keys: [c('r')], where: RECORD },
  { command: 'brief', keys: [c('b')], where: ['lists', 'records', 'record', 'brief'] },
  { command: 'briefLatest', keys: [c('L')], where: ['brief'] },
  { command: 'briefSeen', keys: [c('s')], where: ['brief'] },
  { command: 'undo', keys: [c('u')], where: ANYWHERE_BUT_TYPING },
  { command: 'zoom', keys: [c('z')], where: RECORD },

  { command: 'filterState', keys: [c('s')], where: ['records', 'results'] },
  { command: 'filterMine', keys: [c('M')], where: ['records', 'results'] },
  { command: 'filterArchived', keys: [c('A')], where: ['records', 'results'] },
  { command: 'archivedLists', keys: [c('A')], where: ['lists'] },

  { command: 'grant', keys: [c('p')], where: BROWSE },
  { command: 'newList', keys: [c('L')], where: BROWSE },
  { command: 'editList', keys: [c('E')], where: BROWSE },
  { command: 'archiveList', keys: [c('X')], where: ['lists'] },
  { command: 'deleteList', keys: [c('D')], where: ['lists'] },
  { command: 'sides', keys: [c('S')], where: ['lists', 'records', 'welcome'] },
  { command: 'loginLink', keys: [c('W')], where: BROWSE },

  { command: 'accessLess', keys: [k('left'), c('h')], where: ['grant'] },
  { command: 'accessMore', keys: [k('right'), c('l')], where: ['grant'] },
  { command: 'sideAdd', keys: [c('n')], where: ['sides'] },
  { command: 'sideRemove', keys: [c('D')], where: ['sides'] },
  { command: 'personRole', keys: [c('R')], where: ['people'] },
  { command: 'personRemove', keys: [c('D')], where: ['people'] },

  { command: 'rowRename', keys: [k('return')], where: ['list-editor'] },
  { command: 'listTitle', keys: [c('e')], where: ['list-editor'] },
  { command: 'listView', keys: [c('v')], where: ['list-editor'] },
  { command: 'stateAdd', keys: [c('n')], where: ['list-editor'] },
  { command: 'fieldAdd', keys: [c('f')], where: ['list-editor'] },
  { command: 'gateToggle', keys: [c('g')], where: ['list-editor'] },
  { command: 'childrenToggle', keys: [c('c')], where: ['list-editor'] },
  { command: 'rowEarlier', keys: [c('<')], where: ['list-editor'] },
  { command: 'rowLater', keys: [c('>')], where: ['list-editor'] },
  { command: 'rowRemove', keys: [c('D')], where: ['list-editor'] },

  // Alt-Enter (and Ctrl-J, which terminals send as a line feed) adds a line where a field takes several: Enter sends.
  { command: 'editNewLine', keys: [k('return', 'meta'), ctrl('j')], where: ['field'] },
  { command: 'submit', keys: [k('return')], where: [...FORM, 'pick', 'typed'] },
  { command: 'yes', keys: [c('y'), c('Y')], where: ['confirm'] },
  { command: 'yes', keys: [c('o'), c('O')], where: ['confirm'], lang: 'fr' },
  { command: 'cancel', keys: [k('escape'), ctrl('c')], where: DIALOGS },
  { command: 'cancel', keys: [c('n'), c('N')], where: ['confirm'] },
  { command: 'nextField', keys: [k('tab'), k('down')], where: FORM },
  { command: 'prevField', keys: [k('up'), k('tab', 'shift')], where: FORM },
  { command: 'choicePrev', keys: [k('left')], where: ['form'] },
  { command: 'choiceNext', keys: [k('right')], where: ['form'] },
  { command: 'up', keys: [k('up'), c('k')], where: ['pick'] },
  { command: 'down', keys: [k('down'), c('j')], where: ['pick'] },

  { command: 'editLeft', keys: [k('left'), ctrl('b')], where: TYPING },
  { command: 'editRight', keys: [k('right'), ctrl('f')], where: TYPING },
  { command: 'editWordLeft', keys: [k('left', 'meta'), k('left', 'ctrl'), alt('b')], where: TYPING },
  { command: 'editWordRight', keys: [k('right', 'meta'), k('right', 'ctrl'), alt('f')], where: TYPING },
  { command: 'editHome', keys: [k('home'), ctrl('a')], where: TYPING },
  { command: 'editEnd', keys: [k('end'), ctrl('e')], where: TYPING },
  { command: 'editBackspace', keys: [k('backspace')], where: TYPING },
  { command: 'editDelete', keys: [k('delete'), ctrl('d')], where: TYPING },
  { command: 'editWordBack', keys: [ctrl('w'), k('backspace', 'meta')], where: TYPING },
  { command: 'editKillStart', keys: [ctrl('u')], where: TYPING },
  { command: 'editKillEnd', keys: [ctrl('k')], where: TYPING },

  { command: 'help', keys: [c('?')], where: ANYWHERE_BUT_TYPING },
  { command: 'quit', keys: [c('q')], where: ANYWHERE_BUT_TYPING },
  { command: 'quit', keys: [ctrl('c')], where: [...ANYWHERE_BUT_TYPING, 'search'] },
  { command: 'suspend', keys: [ctrl('z')], where: EVERYWHERE },
];

/** Whether `stroke` is the key pressed; `again`: the key before it was the same character. */
function strokeMatches(stroke: KeyStroke, key: KeyPress, again: boolean): boolean {
  if ('char' in stroke) return key.name === null && !key.ctrl && !key.meta && key.text === stroke.char && (!stroke.twice || again);
  if ('ctrl' in stroke) return key.name === null && key.ctrl && !key.meta && key.text === stroke.ctrl;
  if ('meta' in stroke) return key.name === null && key.meta && !key.ctrl && key.text === stroke.meta;
  const mod = stroke.mod;
  return key.name === stroke.name && key.ctrl === (mod === 'ctrl') && key.meta === (mod === 'meta') && key.shift === (mod === 'shift');
}

const heard = (binding: Binding, context: Context, lang: Lang | undefined) =>
  binding.where.includes(context) && (binding.lang === undefined || binding.lang === lang);

/**
 * The command a key means here, if any. `again`: the key before this one was this same
 * character and did nothing by itself (the first `g` of `gg`).
 */
export function commandFor(context: Context, key: KeyPress, lang?: Lang, again = false): Command | undefined {
  for (const binding of KEYMAP) {
    if (!heard(binding, context, lang)) continue;
    if (binding.keys.some((stroke) => strokeMatches(stroke, key, again))) return binding.command;
  }
  return undefined;
}

/** The keys that do `command` here (for hints in the status line). */
export function keysFor(command: Command, context: Context, lang?: Lang): KeyStroke[] {
  return KEYMAP.filter((b) => b.command === command && heard(b, context, lang)).flatMap((b) => [...b.keys]);
}

/** The commands heard here, each once, in keymap order, with all their keys. */
export function bindingsIn(context: Context, lang?: Lang): { command: Command; keys: KeyStroke[] }[] {
  const out = new Map<Command, KeyStroke[]>();
  for (const b of KEYMAP) {
    if (!heard(b, context, lang)) continue;
    out.set(b.command, [...(out.get(b.command) ?? []), ...b.keys]);
  }
  return [...out].map(([command, keys]) => ({ command, keys }));
}

export function isOpCommand(command: Command): command is OpCommand {
  return Object.hasOwn(OP_COMMANDS, command);
}

export function isEditCommand(command: Command): command is EditCommand {
  return (EDIT_COMMANDS as readonly string[]).includes(command);
}
