/**
 * The page's state as a reducer in plain TypeScript: which list is open, where the cursor is,
 * which panel and which dialog are in front, the last message. Pure, tested without a browser.
 * What a key means is the screen's keymap (`commandFor` in src/tui/keymap.ts): this file only says
 * where the page is, so that the same key does the same thing here as on the screen.
 */
import type { Context } from '../tui/keymap.js';

export type Panel =
  | { kind: 'record'; id: number }
  | { kind: 'search' }
  | { kind: 'brief' }
  | { kind: 'agents' }
  | { kind: 'folders' }
  | { kind: 'list-editor' }
  | { kind: 'new-list' }
  | { kind: 'help' };

/** A form of the catalog's operation `op` (derived from its arguments), a pick, a confirmation. */
export type Dialog =
  | { kind: 'form'; op: 'add' | 'edit' | 'note' | 'attach' | 'token-add' | 'side-add'; id?: number }
  | { kind: 'move'; id: number }
  | { kind: 'confirm'; op: 'delete' | 'release'; id: number; text: string }
  | { kind: 'typed'; op: 'delete-list'; list: string; title: string; text: string };

export interface PageState {
  list: string | null;
  focus: 'lists' | 'records';
  /** The row of the lists. */
  listAt: number;
  /** The board's column (the table has one), and the row in it. */
  column: number;
  row: number;
  archivedRecords: boolean;
  panel: Panel | null;
  dialog: Dialog | null;
  message: { text: string; tone: 'good' | 'warn' } | null;
}

export const START: PageState = {
  list: null, focus: 'lists', listAt: 0, column: 0, row: 0, archivedRecords: false, panel: null, dialog: null, message: null,
};

export type Step = 'up' | 'down' | 'left' | 'right' | 'top' | 'bottom' | 'pageUp' | 'pageDown';

export type PageAction =
  | { type: 'open-list'; list: string; at?: number }
  | { type: 'focus'; focus: PageState['focus'] }
  | { type: 'step-lists'; step: Step; count: number }
  | { type: 'step-records'; step: Step; sizes: readonly number[] }
  | { type: 'select'; column: number; row: number }
  | { type: 'panel'; panel: Panel | null }
  | { type: 'dialog'; dialog: Dialog | null }
  | { type: 'say'; text: string; tone?: 'good' | 'warn' }
  | { type: 'archived-records' }
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

export function pageReducer(state: PageState, action: PageAction): PageState {
  switch (action.type) {
    case 'open-list':
      return {
        ...state, list: action.list, focus: 'records', column: 0, row: 0,
        ...(action.at !== undefined ? { listAt: action.at } : {}),
        panel: state.panel?.kind === 'record' || state.panel?.kind === 'list-editor' || state.panel?.kind === 'agents' ? null : state.panel,
      };
    case 'focus': return { ...state, focus: action.focus };
    case 'step-lists': return { ...state, listAt: stepped(state.listAt, action.step, action.count) };
    case 'step-records': {
      const { sizes, step } = action;
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
        return { ...state, column, row: clamp(state.row, (sizes[column] ?? 0) - 1) };
      }
      return { ...state, column, row: stepped(state.row, step, sizes[column] ?? 0) };
    }
    case 'select': return { ...state, focus: 'records', column: action.column, row: action.row };
    case 'panel': return { ...state, panel: action.panel };
    case 'dialog': return { ...state, dialog: action.dialog };
    case 'say': return { ...state, message: { text: action.text, tone: action.tone ?? 'good' } };
    case 'archived-records': return { ...state, archivedRecords: !state.archivedRecords, column: 0, row: 0 };
    case 'list-gone': return { ...state, list: null, focus: 'lists', panel: null, column: 0, row: 0 };
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
      case 'form': return 'form';
      case 'move': return 'pick';
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
      case 'help': return 'help';
      default: {
        const never: never = state.panel;
        throw new Error(`unknown panel ${String(never)}`);
      }
    }
  }
  return state.focus;
}
