/**
 * What the screen is showing and where the cursors are, as plain data. The store holds the
 * binder; this holds only the person's place in it (ids and cursors, never copies of records),
 * so a change by an agent is seen at the next read without anything here going stale.
 */
import type { BriefCounts, BriefItem } from '../store/index.js';
import type { Context } from './keymap.js';
import type { Undoing } from './undo.js';
import { START, type Cursor } from './window.js';

export interface Filters {
  /** A state id, or null for every state. */
  state: string | null;
  mine: boolean;
  archived: boolean;
  /** Words the records must hold (`f`), or '' for all. */
  text: string;
}

export const NO_FILTERS: Filters = { state: null, mine: false, archived: false, text: '' };

export interface Browse {
  pane: 'lists' | 'records';
  /** The list shown (its id); null: the first one. */
  list: string | null;
  listsScroll: number;
  archivedLists: boolean;
  /** Board: the state column the cursor is in. */
  column: number;
  /** Board: a cursor per state id. */
  cards: Record<string, Cursor>;
  /** Table: one cursor over every row, state by state. */
  table: Cursor;
  /**
   * The record the cursor is on (the table's, or the board's column's), by id: records arriving or
   * leaving above move the rows, and the read puts the cursor back on it. Null just after the
   * person moved: whatever the next frame shows under the cursor is then held.
   */
  held: number | null;
  filters: Filters;
  /** First run: the template the cursor is on. */
  welcome: Cursor;
}

export type Screen =
  /** `held`: the note, attachment or other part the cursor is on (`partKey`), kept when lines come and go. */
  | { kind: 'record'; id: number; cursor: Cursor; held?: string }
  | { kind: 'search'; text: string; caret: number; focus: 'input' | 'results'; cursor: Cursor; filters: Filters }
  | { kind: 'help'; context: Context; scroll: number }
  | { kind: 'grant'; list: string; cursor: Cursor }
  | { kind: 'sides'; cursor: Cursor }
  | { kind: 'list-editor'; list: string; cursor: Cursor }
  /** What changed since the person last looked: shown once, so kept here as the store gave it (made safe when drawn). */
  /** What changed, newest first: `through` the last history row read (what `s` marks seen), `counts` of all that wait. */
  | { kind: 'brief'; items: BriefItem[]; more: boolean; cursor: Cursor; through: number; counts: BriefCounts | null; marked?: true };

export interface Choice {
  value: string;
  label: string;
}

export interface FormField {
  /** The catalog argument it fills, or `field:<id>` for a list's field value. */
  name: string;
  label: string;
  hint: string;
  kind: 'text' | 'choice';
  choices?: Choice[];
  /** A text field's limit, in characters as the store counts them. */
  max?: number;
  /** A text field that keeps line breaks (a note): Alt-Enter or Ctrl-J adds one, a paste keeps its own. */
  lines?: true;
}

/** What a dialog does once the person says yes: turned into one `keeper.act` by the commands. */
export type Intent =
  | { do: 'add'; list: string }
  | { do: 'edit'; id: number }
  | { do: 'note'; id: number }
  | { do: 'edit-note'; id: number; note: number }
  | { do: 'attach'; id: number }
  | { do: 'needs'; id: number }
  | { do: 'delete'; id: number }
  /** A record with records under it deleted, the choice picked saying what becomes of them. */
  | { do: 'delete-parent'; id: number }
  | { do: 'move'; id: number }
  | { do: 'filter-state' }
  | { do: 'filter-text' }
  | { do: 'go-to' }
  | { do: 'release'; id: number; holder: string }
  | { do: 'state-remove'; list: string; state: string }
  | { do: 'template' }
  | { do: 'create-list'; template: string }
  | { do: 'delete-list'; list: string }
  | { do: 'side-add' }
  | { do: 'list-title'; list: string }
  | { do: 'state-add'; list: string }
  | { do: 'state-rename'; list: string; state: string }
  | { do: 'field-add'; list: string }
  | { do: 'field-remove'; list: string; field: string }
  /** An approval withdrawn with `a`, once the person says yes. */
  | { do: 'withdraw'; id: number }
  /** The person's latest change taken back, once they say yes (it withdraws an approval). */
  | { do: 'undo' };

export type Dialog =
  /** `caret`: where the cursor stands in the focused text field. */
  | { kind: 'form'; title: string; describe: string; fields: FormField[]; values: Record<string, string>; initial: Record<string, string>; focus: number; caret: number; intent: Intent }
  | { kind: 'confirm'; text: string; typed: { expect: string; value: string; caret: number } | null; intent: Intent }
  | { kind: 'pick'; title: string; choices: Choice[]; at: number; intent: Intent };

export interface Message {
  text: string;
  tone: 'done' | 'refused' | 'info';
  /** The record it speaks of: once that record is gone, the message is too. */
  record?: number;
}

/** What `z` makes fill the screen: the open list's column under the cursor, or a record opened. */
export type Zoom = 'board' | 'record';

/** One of the person's changes in this session, and how to take it back (`u`, the latest first). */
export interface Undo extends Undoing {
  /** What the screen said when the change was done ("Moved #3 to Doing"). */
  said: string;
}

/** How many of the person's last changes `u` can take back, the oldest forgotten first. */
export const UNDO_DEPTH = 50;

export interface DueNotice {
  id: number;
  title: string;
  due: string;
}

/** A record that came under the cursor without the person's key (the one held left), and when. */
export interface Slid {
  id: number;
  at: number;
  /** In a record opened: the part (`partKey`) that came under the cursor. */
  part?: string;
}

export interface ScreenState {
  browse: Browse;
  /** Keys that change a record are not done on it for a moment after it slid under the cursor. */
  slid: Slid | null;
  /** The record the person last moved to another state: the cursor going with it is no surprise. */
  moving: number | null;
  /** Screens in front of the lists, the last one on top. Esc takes the top one away. */
  stack: Screen[];
  dialog: Dialog | null;
  message: Message | null;
  /** The person's changes this session that can be taken back, the latest last. */
  undos: Undo[];
  /** `z`: the board's column under the cursor fills the width, or a record opened fills the screen (each apart). */
  zoom: readonly Zoom[];
  notices: DueNotice[];
  quitting: boolean;
}

export const INITIAL: ScreenState = {
  browse: {
    pane: 'lists', list: null, listsScroll: 0, archivedLists: false,
    column: 0, cards: {}, table: START, held: null, filters: NO_FILTERS, welcome: START,
  },
  slid: null,
  moving: null,
  stack: [],
  dialog: null,
  message: null,
  undos: [],
  zoom: [],
  notices: [],
  quitting: false,
};

/** What `z` makes fill the screen now: the open list (its column under the cursor), the record opened, or nothing. */
export function zoomed(state: ScreenState): Zoom | null {
  if (state.dialog) return null;
  const screen = top(state);
  const here: Zoom | null = !screen ? (state.browse.pane === 'records' ? 'board' : null) : screen.kind === 'record' ? 'record' : null;
  return here && state.zoom.includes(here) ? here : null;
}

/** The screen on top, or null for the lists. */
export function top(state: ScreenState): Screen | null {
  return state.stack[state.stack.length - 1] ?? null;
}

/** Where keys are heard now. `empty`: the binder has no list at all (first run). */
export function contextOf(state: ScreenState, empty: boolean): Context {
  const dialog = state.dialog;
  if (dialog) {
    switch (dialog.kind) {
      case 'confirm': return dialog.typed ? 'typed' : 'confirm';
      case 'form': return dialog.fields[dialog.focus]?.kind === 'text' ? 'field' : 'form';
      case 'pick': return 'pick';
      default: {
        const never: never = dialog;
        throw new Error(`unknown dialog ${JSON.stringify(never)}`);
      }
    }
  }
  const screen = top(state);
  if (!screen) {
    if (empty && !state.browse.archivedLists) return 'welcome';
    return state.browse.pane;
  }
  switch (screen.kind) {
    case 'record': return 'record';
    case 'search': return screen.focus === 'input' ? 'search' : 'results';
    case 'help': return 'help';
    case 'grant': return 'grant';
    case 'sides': return 'sides';
    case 'list-editor': return 'list-editor';
    case 'brief': return 'brief';
    default: {
      const never: never = screen;
      throw new Error(`unknown screen ${JSON.stringify(never)}`);
    }
  }
}

/** Whether a text field has the keys now: a form's text field, a typed confirmation, the search words. */
export function typingIn(state: ScreenState): boolean {
  const context = contextOf(state, false);
  return context === 'field' || context === 'typed' || context === 'search';
}

/**
 * The question on the screen that only a key pressed after it was drawn may answer (a
 * confirmation), as a token that changes when another question is asked; null when there is none.
 */
export function questionOf(state: ScreenState): string | null {
  const dialog = state.dialog;
  return dialog?.kind === 'confirm' ? `${dialog.text}\u0000${JSON.stringify(dialog.intent)}` : null;
}

/** Whether the field that has the keys keeps line breaks (a note's). */
export function takesLines(state: ScreenState): boolean {
  const d = state.dialog;
  return d?.kind === 'form' && d.fields[d.focus]?.kind === 'text' && d.fields[d.focus]?.lines === true;
}
