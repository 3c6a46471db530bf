/**
 * The screen's state machine: every key that only moves about (cursors, panes, screens,
 * dialogs' own fields) is a pure transition here, tested without Ink. It never touches the
 * store or the keeper: what the current view holds comes in as `Facts`, changes go out through
 * the commands.
 */
import type { Hit } from './hit.js';
import { editLine, type LineEdit } from './line-edit.js';
import { oneLine } from './input-events.js';
import {
  contextOf, NO_FILTERS, takesLines, top, UNDO_DEPTH, type Zoom, type Browse, type Dialog, type DueNotice, type Filters, type Message,
  type Screen, type ScreenState, type Slid,
} from '../person/screen-state.js';
import type { Undoing } from '../person/undo.js';
import { follow, scrollBy, settle, START, step, type Cursor } from '../person/window.js';

/** What the screen shows now, as far as moving a cursor needs to know. */
export interface Facts {
  /** The binder has no list at all. */
  empty: boolean;
  /** Ids of the lists at the left, in order. */
  lists: readonly string[];
  /** The list shown at the right. */
  list: string | null;
  view: 'board' | 'table' | null;
  /** Board: the columns shown (one per state, or the one filtered on) and how many records each holds. */
  columns: readonly { state: string; count: number }[];
  /** Rows of whatever the cursor moves over now (table rows, record lines, results…). */
  rows: number;
  /** How many of them fit on the screen (cards per column on a board). */
  page: number;
  /** Lists that fit at the left. */
  listsPage: number;
}

export type MoveCommand = 'up' | 'down' | 'left' | 'right' | 'pageUp' | 'pageDown' | 'halfUp' | 'halfDown' | 'top' | 'bottom';

/** The limits of the text fields that are not a form's. */
export const SEARCH_MAX = 2000;
export const TYPED_MAX = 300;

export type Action =
  | { type: 'move'; command: MoveCommand; facts: Facts }
  | { type: 'pane'; pane?: 'lists' | 'records' }
  | { type: 'show-list'; list: string | null }
  | { type: 'push'; screen: Screen }
  | { type: 'pop' }
  | { type: 'dialog'; dialog: Dialog | null }
  | { type: 'form-value'; name: string; value: string }
  | { type: 'form-focus'; delta: number }
  | { type: 'form-choice'; delta: number }
  | { type: 'pick-step'; delta: number }
  /** An edit of the text field that has the keys; `cut` is said if text inserted did not fit. */
  | { type: 'edit'; edit: LineEdit; cut: (max: number) => Message }
  | { type: 'message'; message: Message | null }
  /** A change the person made, which `u` can take back: it remembers what the message line says of it. */
  | { type: 'undo-push'; undo: Undoing }
  /** The latest change taken back (or given up). */
  | { type: 'undo-pop' }
  /** `z`: zoomed in where the person is (`place`), or back. */
  | { type: 'zoom'; place: Zoom }
  | { type: 'notices'; add: readonly DueNotice[] }
  | { type: 'dismiss-notices' }
  | { type: 'filters'; patch: Partial<Filters> }
  | { type: 'archived-lists' }
  | { type: 'search-focus'; focus: 'input' | 'results' }
  /** A record moved to `state` of the open list, now `at` its place there: the cursor goes with it. */
  | { type: 'follow'; view: 'board' | 'table'; states: readonly { state: string; count: number }[]; state: string; at: number; page: number }
  /** Board columns whose window starts later than kept, so that the cursor's card shows. */
  | { type: 'board-scroll'; scrolled: readonly { state: string; scroll: number }[] }
  /** A click: the cursor to what it is on. */
  | { type: 'select'; hit: Hit; facts: Facts }
  /** The cursor on whatever the frame shows under it: the person moved it there. */
  | { type: 'hold'; id: number | null }
  /** A read found the record held (`id`) elsewhere: the cursors go there, unless the person moved since. */
  | { type: 'held-moved'; id: number; placed: { cards: Browse['cards']; table: Cursor; column: number } }
  /** The record held left the view: the cursor stays on its neighbour (`id`), which came under it `at`. */
  | { type: 'held-left'; id: number | null; at: number; message: Message }
  /** The person was told of the record that slid under the cursor: keys act on it now. */
  | { type: 'slid-seen' }
  /** In a record opened: the cursor on the part it holds (`held`), where the lines put it now; `slid` when another part took its place. */
  | { type: 'record-place'; cursor: Cursor; held: string | undefined; slid?: Slid }
  /** The person is moving this record to another state. */
  | { type: 'moving'; id: number }
  | { type: 'quit' };

/** How far a move command goes, for a page of `page` rows and `count` in all. */
function delta(command: MoveCommand, at: number, count: number, page: number): number {
  switch (command) {
    case 'up': return -1;
    case 'down': return 1;
    case 'pageUp': return -Math.max(1, page);
    case 'pageDown': return Math.max(1, page);
    case 'halfUp': return -Math.max(1, Math.floor(page / 2));
    case 'halfDown': return Math.max(1, Math.floor(page / 2));
    case 'top': return -at;
    case 'bottom': return count - 1 - at;
    case 'left': case 'right': return 0;
    default: {
      const never: never = command;
      throw new Error(`unknown move ${String(never)}`);
    }
  }
}

const moveCursor = (cursor: Cursor, command: MoveCommand, facts: Facts): Cursor =>
  step(cursor, delta(command, cursor.at, facts.rows, facts.page), facts.rows, facts.page);

/** The place in a list, back at its start: another list was opened. */
function freshList(browse: Browse, list: string | null): Browse {
  if (browse.list === list) return browse;
  return { ...browse, list, column: 0, cards: {}, table: START, held: null, filters: NO_FILTERS };
}

/** The cursor moved by the person: what comes under it is held next. */
function moveBrowse(browse: Browse, command: MoveCommand, facts: Facts): Browse {
  const moved = stepBrowse(browse, command, facts);
  return moved === browse || browse.pane === 'lists' ? moved : { ...moved, held: null };
}

function stepBrowse(browse: Browse, command: MoveCommand, facts: Facts): Browse {
  if (browse.pane === 'lists') {
    const count = facts.lists.length;
    if (count === 0) return browse;
    const at = Math.max(0, facts.list ? facts.lists.indexOf(facts.list) : 0);
    const next = Math.max(0, Math.min(count - 1, at + delta(command, at, count, facts.listsPage)));
    const moved = freshList(browse, facts.lists[next] ?? null);
    return { ...moved, listsScroll: follow(next, browse.listsScroll, count, facts.listsPage) };
  }
  if (facts.view === 'table') return { ...browse, table: moveCursor(browse.table, command, facts) };
  if (facts.view !== 'board' || facts.columns.length === 0) return browse;
  const column = Math.min(browse.column, facts.columns.length - 1);
  if (command === 'left' || command === 'right') {
    const next = Math.max(0, Math.min(facts.columns.length - 1, column + (command === 'left' ? -1 : 1)));
    return { ...browse, column: next };
  }
  const col = facts.columns[column]!;
  const cursor = settle(browse.cards[col.state] ?? START, col.count, facts.page);
  const moved = step(cursor, delta(command, cursor.at, col.count, facts.page), col.count, facts.page);
  return { ...browse, column, cards: { ...browse.cards, [col.state]: moved } };
}

function moveScreen(screen: Screen, command: MoveCommand, facts: Facts): Screen {
  switch (screen.kind) {
    case 'help':
      return { ...screen, scroll: scrollBy(screen.scroll, delta(command, screen.scroll, facts.rows, facts.page), facts.rows, facts.page) };
    case 'record':
      return { ...screen, cursor: moveCursor(settle(screen.cursor, facts.rows, facts.page), command, facts), held: undefined };
    case 'search': case 'grant': case 'sides': case 'list-editor': case 'brief':
      return { ...screen, cursor: moveCursor(settle(screen.cursor, facts.rows, facts.page), command, facts) };
    default: {
      const never: never = screen;
      throw new Error(`unknown screen ${JSON.stringify(never)}`);
    }
  }
}

/** The cursor put on a record that moved: its state's column (board), or its row (table). */
function followRecord(browse: Browse, action: Extract<Action, { type: 'follow' }>): Browse {
  const index = action.states.findIndex((s) => s.state === action.state);
  if (index < 0) return browse;
  if (action.view === 'board') {
    const count = action.states[index]!.count;
    const old = browse.cards[action.state] ?? START;
    return { ...browse, column: index, cards: { ...browse.cards, [action.state]: { at: action.at, scroll: follow(action.at, old.scroll, count, action.page) } } };
  }
  const at = action.states.slice(0, index).reduce((n, s) => n + s.count, 0) + action.at;
  const total = action.states.reduce((n, s) => n + s.count, 0);
  return { ...browse, table: { at, scroll: follow(at, browse.table.scroll, total, action.page) } };
}

const replaceTop = (state: ScreenState, screen: Screen): ScreenState => ({ ...state, stack: [...state.stack.slice(0, -1), screen] });

function withDialog(state: ScreenState, change: (d: Dialog) => Dialog | null): ScreenState {
  return state.dialog ? { ...state, dialog: change(state.dialog) } : state;
}

const wrap = (n: number, size: number) => (size <= 0 ? 0 : ((n % size) + size) % size);

/** A form with another field in focus: the cursor at the end of its text. */
function focusField(d: Extract<Dialog, { kind: 'form' }>, focus: number): Dialog {
  const field = d.fields[focus];
  return { ...d, focus, caret: field ? (d.values[field.name] ?? '').length : 0 };
}

/** Text put in a field: its line breaks kept where the field takes several lines, else spaces. */
const flat = (edit: LineEdit, lines: boolean): LineEdit => (edit.do === 'insert' && !lines ? { do: 'insert', text: oneLine(edit.text) } : edit);

/** The text field that has the keys, edited; the state as it was when none has. */
function editField(state: ScreenState, given: LineEdit, cutAt: (max: number) => Message): ScreenState {
  const dialog = state.dialog;
  const lines = takesLines(state);
  if (given.do === 'insert' && given.text === '\n' && !lines) return state;
  const edit = flat(given, lines);
  if (dialog?.kind === 'form') {
    const field = dialog.fields[dialog.focus];
    if (!field || field.kind !== 'text') return state;
    const max = field.max ?? SEARCH_MAX;
    const done = editLine({ value: dialog.values[field.name] ?? '', cursor: dialog.caret }, edit, max);
    return {
      ...state,
      dialog: { ...dialog, values: { ...dialog.values, [field.name]: done.line.value }, caret: done.line.cursor },
      message: done.cut ? cutAt(max) : state.message,
    };
  }
  if (dialog?.kind === 'confirm') {
    if (!dialog.typed) return state;
    const done = editLine({ value: dialog.typed.value, cursor: dialog.typed.caret }, edit, TYPED_MAX);
    return { ...state, dialog: { ...dialog, typed: { ...dialog.typed, value: done.line.value, caret: done.line.cursor } }, message: done.cut ? cutAt(TYPED_MAX) : state.message };
  }
  if (dialog) return state;
  const screen = top(state);
  if (screen?.kind !== 'search' || screen.focus !== 'input') return state;
  const done = editLine({ value: screen.text, cursor: screen.caret }, edit, SEARCH_MAX);
  const changed = done.line.value !== screen.text;
  const next = replaceTop(state, { ...screen, text: done.line.value, caret: done.line.cursor, cursor: changed ? START : screen.cursor });
  return done.cut ? { ...next, message: cutAt(SEARCH_MAX) } : next;
}

/** The cursor put on what a click is on (and the pane it is in given the keys). */
function select(state: ScreenState, hit: Hit, facts: Facts): ScreenState {
  const at = (cursor: Cursor, index: number, count: number): Cursor => step(cursor, index - cursor.at, count, facts.page);
  switch (hit.on) {
    case 'choice':
      return withDialog(state, (d) => (d.kind === 'pick' ? { ...d, at: Math.max(0, Math.min(d.choices.length - 1, hit.index)) } : d));
    case 'template':
      return { ...state, browse: { ...state.browse, welcome: at(state.browse.welcome, hit.index, facts.rows) } };
    case 'list': {
      const list = facts.lists[hit.index];
      return list ? { ...state, browse: { ...freshList(state.browse, list), pane: 'lists' } } : state;
    }
    case 'card': {
      const column = facts.columns[hit.column];
      if (!column) return state;
      const cursor = at(state.browse.cards[column.state] ?? START, hit.index, column.count);
      return { ...state, browse: { ...state.browse, pane: 'records', column: hit.column, cards: { ...state.browse.cards, [column.state]: cursor } } };
    }
    case 'row': {
      const screen = top(state);
      if (!screen) return { ...state, browse: { ...state.browse, pane: 'records', table: at(state.browse.table, hit.index, facts.rows) } };
      if (screen.kind === 'help') return state;
      const moved = { ...screen, cursor: at(settle(screen.cursor, facts.rows, facts.page), hit.index, facts.rows) };
      return replaceTop(state, moved.kind === 'search' ? { ...moved, focus: 'results' } : moved);
    }
    default: {
      const never: never = hit;
      throw new Error(`unknown click ${JSON.stringify(never)}`);
    }
  }
}

export function reduce(state: ScreenState, action: Action): ScreenState {
  switch (action.type) {
    case 'move': {
      const screen = top(state);
      if (screen) return replaceTop(state, moveScreen(screen, action.command, action.facts));
      if (contextOf(state, action.facts.empty) === 'welcome') {
        return { ...state, browse: { ...state.browse, welcome: moveCursor(state.browse.welcome, action.command, action.facts) } };
      }
      return { ...state, browse: moveBrowse(state.browse, action.command, action.facts) };
    }
    case 'pane': {
      const pane = action.pane ?? (state.browse.pane === 'lists' ? 'records' : 'lists');
      return { ...state, browse: { ...state.browse, pane } };
    }
    case 'show-list':
      return { ...state, browse: freshList(state.browse, action.list) };
    case 'push':
      return { ...state, stack: [...state.stack, action.screen], message: null };
    case 'pop':
      return state.stack.length ? { ...state, stack: state.stack.slice(0, -1), message: null } : state;
    case 'dialog':
      return { ...state, dialog: action.dialog };
    case 'form-value':
      return withDialog(state, (d) => (d.kind === 'form' ? { ...d, values: { ...d.values, [action.name]: action.value } } : d));
    case 'form-focus':
      return withDialog(state, (d) => (d.kind === 'form' ? focusField(d, wrap(d.focus + action.delta, d.fields.length)) : d));
    case 'edit':
      return editField(state, action.edit, action.cut);
    case 'form-choice':
      return withDialog(state, (d) => {
        if (d.kind !== 'form') return d;
        const field = d.fields[d.focus];
        if (!field || field.kind !== 'choice' || !field.choices?.length) return d;
        const at = field.choices.findIndex((c) => c.value === d.values[field.name]);
        const next = field.choices[wrap(at + action.delta, field.choices.length)]!;
        return { ...d, values: { ...d.values, [field.name]: next.value } };
      });
    case 'pick-step':
      return withDialog(state, (d) => (d.kind === 'pick' ? { ...d, at: Math.max(0, Math.min(d.choices.length - 1, d.at + action.delta)) } : d));
    case 'message':
      return { ...state, message: action.message };
    case 'undo-push':
      return { ...state, undos: [...state.undos, { ...action.undo, said: state.message?.text ?? '' }].slice(-UNDO_DEPTH) };
    case 'undo-pop':
      return { ...state, undos: state.undos.slice(0, -1) };
    case 'zoom':
      return { ...state, zoom: state.zoom.includes(action.place) ? state.zoom.filter((z) => z !== action.place) : [...state.zoom, action.place] };
    case 'notices': {
      const known = new Set(state.notices.map((n) => n.id));
      return { ...state, notices: [...state.notices, ...action.add.filter((n) => !known.has(n.id))] };
    }
    case 'dismiss-notices':
      return { ...state, notices: [], message: null };
    case 'filters': {
      const screen = top(state);
      if (screen?.kind === 'search') return replaceTop(state, { ...screen, filters: { ...screen.filters, ...action.patch }, cursor: START });
      return { ...state, browse: { ...state.browse, filters: { ...state.browse.filters, ...action.patch }, column: 0, cards: {}, table: START, held: null } };
    }
    case 'archived-lists':
      return { ...state, browse: { ...state.browse, archivedLists: !state.browse.archivedLists, list: null, listsScroll: 0, column: 0, cards: {}, table: START, held: null } };
    case 'search-focus': {
      const screen = top(state);
      return screen?.kind === 'search' ? replaceTop(state, { ...screen, focus: action.focus }) : state;
    }
    case 'follow': {
      const browse = followRecord(state.browse, action);
      return browse === state.browse ? state : { ...state, browse };
    }
    case 'board-scroll': {
      const cards = { ...state.browse.cards };
      for (const { state: id, scroll } of action.scrolled) cards[id] = { at: cards[id]?.at ?? 0, scroll };
      return { ...state, browse: { ...state.browse, cards } };
    }
    case 'select': {
      const chosen = select(state, action.hit, action.facts);
      return chosen.browse === state.browse ? chosen : { ...chosen, browse: { ...chosen.browse, held: null } };
    }
    case 'hold':
      return state.browse.held === action.id ? state : { ...state, browse: { ...state.browse, held: action.id } };
    case 'held-moved':
      return state.browse.held === action.id ? { ...state, browse: { ...state.browse, ...action.placed } } : state;
    case 'held-left':
      return { ...state, browse: { ...state.browse, held: action.id }, slid: action.id === null ? null : { id: action.id, at: action.at }, message: action.message };
    case 'record-place': {
      const screen = top(state);
      if (screen?.kind !== 'record') return state;
      const placed = replaceTop(state, { ...screen, cursor: action.cursor, held: action.held });
      return action.slid ? { ...placed, slid: action.slid } : placed;
    }
    case 'moving':
      return { ...state, moving: action.id };
    case 'slid-seen':
      return state.slid ? { ...state, slid: null } : state;
    case 'quit':
      return { ...state, quitting: true };
    default: {
      const never: never = action;
      throw new Error(`unknown action ${JSON.stringify(never)}`);
    }
  }
}
