/**
 * The page's state as a reducer in plain TypeScript: which list is open and with which filters,
 * where the cursors are (the lists, the record selected on the board, the rows of the panel in front), which panel and
 * which dialog are in front, the last message and the change it offers to take back. Pure, tested
 * without a browser. What a key means is the screen's keymap (`commandFor` in src/person/keymap.ts):
 * this file only says where the page is, so that the same key does the same thing here.
 */
import type { Context } from '../person/keymap.js';
import type { OpName } from '../keeper/operations.js';
import { NO_FILTERS, type Choice, type Filters, type Slid } from '../person/screen-state.js';
import { sortClicked, type SortKey, type TableSort } from './table-sort.js';

export type { Filters } from '../person/screen-state.js';

export type Panel =
  | { kind: 'record'; id: number }
  /** Its filters as the screen's search has them: `state` is a state's name, across lists. */
  | { kind: 'search'; filters: Filters }
  /** `asked` grows at each `b`: what changed since is read again. */
  | { kind: 'brief'; asked: number }
  | { kind: 'agents' }
  | { kind: 'folders' }
  | { kind: 'list-editor' }
  | { kind: 'new-list' }
  /** The people of a signed-in binder and their roles. */
  | { kind: 'people' }
  /** The webhooks' delivery log (an admin's). */
  | { kind: 'webhooks' }
  | { kind: 'help' };

/** A form of the catalog's operation `op` (derived from its arguments), a pick, a confirmation. */
export type Dialog =
  | { kind: 'form'; op: 'add' | 'edit' | 'note' | 'attach' | 'token-add' | 'side-add'; id?: number }
  | { kind: 'edit-note'; id: number; note: number; text: string }
  | { kind: 'filter-text'; text: string }
  /** `seen`: the mark of the record as the page showed it, sent with the move. */
  | { kind: 'move'; id: number; seen?: string }
  /** What record `id` needs (`n`): the numbers it needs now, as the panel showed them. */
  | { kind: 'needs'; id: number; was: readonly number[] }
  /** A record's number to open (`#`, `:`). */
  | { kind: 'go-to' }
  /** One state (`s`) of the open list or of the search: `value` '' is every state. */
  | { kind: 'filter-state'; where: Where; choices: Choice[]; at: string }
  /** `states`: the names of the record's list's states, for the sentence of an approval withdrawn. */
  | { kind: 'confirm'; op: 'delete' | 'release' | 'approve' | 'edit-list' | 'set-role' | 'remove-person'; args: Record<string, unknown>; text: string; states?: Readonly<Record<string, string>> }
  | { kind: 'typed'; op: 'delete-list'; list: string; title: string; text: string }
  /** A record with records under it, deleted: the person picks what becomes of them (or nothing is deleted). */
  | { kind: 'delete-parent'; id: number; text: string };

/** A change offered back (`u`) until `until`, and the message that said it. */
export interface Offer {
  /** The one act that takes it back. */
  op: OpName;
  args: Record<string, unknown>;
  until: number;
  text: string;
}

export interface PageState {
  list: string | null;
  focus: 'lists' | 'records';
  /** The row of the lists. */
  listAt: number;
  /** Archived lists shown among the lists (`A` there). */
  archivedLists: boolean;
  /**
   * The record selected, held by its id (and the state the page showed it in): records coming or
   * going above it move it on the page, never off it. `column` and `row` are where it was last shown
   * (the board's column, the table has one), so that its neighbour takes its place when it leaves.
   */
  held: Shown | null;
  column: number;
  row: number;
  /** A record (or a record's part) that came under the selection without the person's key, and when. */
  slid: Slid | null;
  /** The open list's filters (`s`, `M`, `A`, `f`): cleared when another list opens. */
  filters: Filters;
  /** The order a table's header asked (none: the list's own), kept through every read until another list opens. */
  sort: TableSort | null;
  panel: Panel | null;
  /** The row of the panel in front that keys act on; -1: none yet (a record's parts). */
  panelAt: number;
  dialog: Dialog | null;
  message: { text: string; tone: 'good' | 'warn' } | null;
  undo: Offer | null;
}

export const START: PageState = {
  list: null, focus: 'lists', listAt: 0, archivedLists: false, held: null, column: 0, row: 0, slid: null, filters: NO_FILTERS, sort: null,
  panel: null, panelAt: 0, dialog: null, message: null, undo: null,
};

/** A record as the selection holds it: its id, and the state it was shown in. */
export interface Shown { id: number; state: string }

/** The selection is already at `at`, on the record it names. */
const holds = (state: PageState, at: { column: number; row: number; record: Shown | null }): boolean =>
  state.column === at.column && state.row === at.row && (state.held === at.record || (state.held !== null && at.record !== null && state.held.id === at.record.id && state.held.state === at.record.state));

/** Whose filters: the open list's, or the search's. */
export type Where = 'list' | 'search';

export type Step = 'up' | 'down' | 'left' | 'right' | 'top' | 'bottom' | 'pageUp' | 'pageDown';

export type PageAction =
  /** `focus`: where the cursor goes (the list's records unless said). */
  | { type: 'open-list'; list: string; at?: number; focus?: PageState['focus'] }
  | { type: 'focus'; focus: PageState['focus'] }
  | { type: 'step-lists'; step: Step; count: number }
  /** `columns`: the records shown, column by column (one for the table). */
  | { type: 'step-records'; step: Step; columns: readonly (readonly Shown[])[] }
  | { type: 'select'; column: number; row: number; record: Shown | null }
  /** The selection put back on the record it holds after a read (or on its neighbour), the focus left where it is. */
  | { type: 'hold'; column: number; row: number; record: Shown | null }
  | { type: 'slid'; slid: Slid | null }
  | { type: 'panel'; panel: Panel | null }
  | { type: 'step-panel'; step: Step; count: number }
  | { type: 'select-row'; at: number }
  | { type: 'dialog'; dialog: Dialog | null }
  | { type: 'say'; text: string; tone?: 'good' | 'warn' }
  | { type: 'filters'; where: Where; patch: Partial<Filters> }
  /** A click on a table's header: sorted by it, or the other way when it already was. */
  | { type: 'sort'; key: SortKey }
  | { type: 'archived-lists' }
  | { type: 'undo'; undo: Offer | null }
  | { type: 'list-gone' };

const PAGE = 10;
const clamp = (n: number, most: number): number => Math.max(0, Math.min(n, Math.max(0, most)));

function stepped(at: number, step: Step, count: number): number {
  switch (step) {
    case 'up': return clamp(at - 1, count - 1);
    case 'down': return clamp(at + 1, count - 1);
    case 'top': return 0;
    case 'bottom': return clamp(count - 1, count - 1);
    case 'pageUp': return clamp(at - PAGE, count - 1);
    case 'pageDown': return clamp(at + PAGE, count - 1);
    case 'left':
    case 'right': return clamp(at, count - 1);
    default: {
      const never: never = step;
      throw new Error(`unknown step ${String(never)}`);
    }
  }
}

const samePanel = (a: Panel | null, b: Panel | null): boolean => {
  if (a === null || b === null) return a === b;
  if (a.kind === 'record' && b.kind === 'record') return a.id === b.id;
  if (a.kind === 'brief' && b.kind === 'brief') return a.asked === b.asked;
  return a.kind === b.kind;
};

/** The panels that speak of the open list: they close when another list opens. */
const ofTheList = (panel: Panel | null): boolean => panel?.kind === 'record' || panel?.kind === 'list-editor' || panel?.kind === 'agents';

export function pageReducer(state: PageState, action: PageAction): PageState {
  switch (action.type) {
    case 'open-list':
      return {
        ...state, list: action.list, focus: action.focus ?? 'records', held: null, column: 0, row: 0,
        ...(action.at !== undefined ? { listAt: action.at } : {}),
        ...(action.list !== state.list ? { filters: NO_FILTERS, sort: null } : {}),
        panel: ofTheList(state.panel) ? null : state.panel,
      };
    case 'focus': return { ...state, focus: action.focus };
    case 'step-lists': return { ...state, listAt: stepped(state.listAt, action.step, action.count) };
    case 'step-records': {
      const { columns, step } = action;
      const sizes = columns.map((c) => c.length);
      if (sizes.length === 0) return state;
      let column = clamp(state.column, sizes.length - 1);
      if (step === 'left' || step === 'right') {
        // Over empty columns to the next one with records, as the screen's board does; stays put when none.
        const way = step === 'left' ? -1 : 1;
        for (let c = column + way; c >= 0 && c < sizes.length; c += way) {
          if ((sizes[c] ?? 0) > 0) {
            column = c;
            break;
          }
        }
        const row = clamp(state.row, (sizes[column] ?? 0) - 1);
        return { ...state, column, row, held: columns[column]?.[row] ?? state.held };
      }
      const row = stepped(state.row, step, sizes[column] ?? 0);
      return { ...state, column, row, held: columns[column]?.[row] ?? state.held };
    }
    // The selection where it already is leaves the page as it is: nothing is drawn again (a card
    // given the focus says it is selected, which it mostly already was).
    case 'select':
      if (state.focus === 'records' && holds(state, action)) return state;
      return { ...state, focus: 'records', column: action.column, row: action.row, held: action.record };
    case 'hold': return holds(state, action) ? state : { ...state, column: action.column, row: action.row, held: action.record };
    case 'slid': return { ...state, slid: action.slid };
    case 'panel':
      if (samePanel(state.panel, action.panel)) return { ...state, panel: action.panel };
      // A record's cursor starts on none of its parts, as the screen's starts on its title.
      return { ...state, panel: action.panel, panelAt: action.panel?.kind === 'record' ? -1 : 0 };
    case 'step-panel':
      return action.count > 0 ? { ...state, panelAt: stepped(Math.max(state.panelAt, action.step === 'down' ? -1 : 0), action.step, action.count) } : state;
    case 'select-row': return { ...state, panelAt: action.at };
    case 'dialog': return { ...state, dialog: action.dialog };
    case 'say': return { ...state, message: { text: action.text, tone: action.tone ?? 'good' } };
    case 'filters': {
      const panel = state.panel;
      if (action.where === 'search') return panel?.kind === 'search' ? { ...state, panel: { ...panel, filters: { ...panel.filters, ...action.patch } }, panelAt: 0 } : state;
      return { ...state, filters: { ...state.filters, ...action.patch }, held: null, column: 0, row: 0 };
    }
    case 'sort': return { ...state, sort: sortClicked(state.sort, action.key) };
    case 'archived-lists':
      return {
        ...state, archivedLists: !state.archivedLists, list: null, focus: 'lists', listAt: 0, held: null, column: 0, row: 0, filters: NO_FILTERS, sort: null,
        panel: ofTheList(state.panel) ? null : state.panel,
      };
    case 'undo': return { ...state, undo: action.undo };
    case 'list-gone': return { ...state, list: null, focus: 'lists', panel: null, held: null, column: 0, row: 0, filters: NO_FILTERS, sort: null };
    default: {
      const never: never = action;
      throw new Error(`unknown action ${String((never as { type: string }).type)}`);
    }
  }
}

/** Where keys are heard, in the screen's terms: the dialog in front, else the panel, else the focused pane. */
export function contextOf(state: PageState): Context {
  if (state.dialog) {
    switch (state.dialog.kind) {
      case 'form': case 'edit-note': case 'filter-text': return 'form';
      case 'move': case 'filter-state': case 'delete-parent': return 'pick';
      case 'needs': case 'go-to': return 'form';
      case 'confirm': return 'confirm';
      case 'typed': return 'typed';
      default: {
        const never: never = state.dialog;
        throw new Error(`unknown dialog ${String(never)}`);
      }
    }
  }
  if (state.panel) {
    switch (state.panel.kind) {
      case 'record': return 'record';
      case 'search': return 'results';
      case 'brief': return 'brief';
      case 'agents': return 'grant';
      case 'folders': return 'sides';
      case 'list-editor': return 'list-editor';
      case 'new-list': return 'welcome';
      case 'help': case 'webhooks': return 'help';
      case 'people': return 'people';
      default: {
        const never: never = state.panel;
        throw new Error(`unknown panel ${String(never)}`);
      }
    }
  }
  return state.focus;
}
