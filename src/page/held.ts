/**
 * The page's selection holds a record, not a place: after each read of the open list, where the
 * record held stands now (the rows above it may have come or gone), or that it left and which
 * record is now in its place. Pure: the page says what it means to the person and asks the
 * server why a record left. It never changes the binder.
 */
import type { HeldWhy } from '../person/words.js';
import type { RecordSummary, List } from '../store/index.js';
import type { PageAction, PageState, Shown } from './page-state.js';

/** The records the page shows, column by column (one column for the table), as the selection sees them. */
export type ShownColumns = readonly (readonly Shown[])[];

export type Placed =
  /** The record held (or, when none was, the one at the selection's place) is under the selection at `column`, `row`. */
  | { kind: 'here'; column: number; row: number; record: Shown; went: string | null }
  /** The record held is no longer shown: `record`, its neighbour at the same place, is held now. */
  | { kind: 'left'; id: number; column: number; row: number; record: Shown | null };

/** Where the selection goes after a read; null when it stays as it is. */
export function placeHeld(state: Pick<PageState, 'held' | 'column' | 'row'>, columns: ShownColumns): Placed | null {
  if (columns.length === 0) return null;
  const held = state.held;
  const column = Math.max(0, Math.min(state.column, columns.length - 1));
  const at = (c: number) => Math.max(0, Math.min(state.row, (columns[c]?.length ?? 0) - 1));
  if (held === null) {
    const record = columns[column]?.[at(column)];
    return record ? { kind: 'here', column, row: at(column), record, went: null } : null;
  }
  for (let c = 0; c < columns.length; c++) {
    const row = columns[c]!.findIndex((r) => r.id === held.id);
    if (row < 0) continue;
    const record = columns[c]![row]!;
    const went = record.state !== held.state ? record.state : null;
    if (c === state.column && row === state.row && went === null) return null;
    return { kind: 'here', column: c, row, record, went };
  }
  return { kind: 'left', id: held.id, column, row: at(column), record: columns[column]?.[at(column)] ?? null };
}

/** The action that puts the selection where `placed` says. */
export const holdAction = (placed: Placed): PageAction =>
  ({ type: 'hold', column: placed.column, row: placed.row, record: placed.record && { id: placed.record.id, state: placed.record.state } });

/** Why a record left the open list's view, from what the server says of it now (null: it is gone, or out of reach). */
export function whyLeft(now: Pick<RecordSummary, 'list' | 'archived' | 'state'> | null, list: List, archived: boolean, shownStates: readonly string[]): HeldWhy {
  if (!now) return { kind: 'gone' };
  if (now.list !== list.id) return { kind: 'list' };
  if (now.archived !== archived) return { kind: now.archived ? 'archived' : 'restored' };
  if (!shownStates.includes(now.state)) return { kind: 'state', name: list.states.find((s) => s.id === now.state)?.name ?? now.state };
  return { kind: 'filtered' };
}
