/**
 * The cursor holds a record, not a place: when records arrive or leave above the one the cursor
 * is on, the rows move and the cursor goes with its record. This says, after a read, where the
 * held record stands now in the window (or that it left the view, and why), so the screen can put
 * the cursor back on it before anything is drawn. It only reads the store.
 */
import { type RecordSummary, Refused, type StoreRules, type Who } from '../store/index.js';
import { BARE, placeOf, shownStates, type ListWindow, type Matches } from '../person/reading.js';
import type { Filters } from '../person/screen-state.js';
import { follow, START, type Cursor } from '../person/window.js';

/** Why the held record is no longer in the view. */
export type Why =
  | { kind: 'gone' }
  | { kind: 'archived' }
  | { kind: 'restored' }
  | { kind: 'state'; name: string }
  | { kind: 'filtered' };

export type Held =
  /** The cursor is on the record held, or none is held, or the window is of another list than the record's. */
  | { kind: 'here' }
  /** The record held stands elsewhere now: the cursor goes there (`column`: the board's column). */
  | { kind: 'moved'; id: number; column: number; state: string; cursor: Cursor }
  /** It left the view: the cursor stays where it is, on its neighbour. */
  | { kind: 'left'; id: number; why: Why };

export const HERE: Held = { kind: 'here' };

/** The record under the cursor in a window: the board's `column`, or the table's row. */
export function underCursor(w: ListWindow, column: number): RecordSummary | null {
  if (w.kind === 'board') {
    const col = w.columns[Math.min(column, w.columns.length - 1)];
    return col ? col.records[col.cursor.at - col.cursor.scroll] ?? null : null;
  }
  return w.records[w.cursor.at - w.cursor.scroll] ?? null;
}

/**
 * Where the held record stands in the list's states: its state and its place there, with every
 * state's count; or why it left the view; or `elsewhere`: the window is of another list than its own.
 */
type Place = { state: string; at: number; counts: Record<string, number> } | { left: Why } | { elsewhere: true };

async function placeInList(store: StoreRules, who: Who, w: ListWindow, filters: Filters, id: number, matches: Matches | null): Promise<Place> {
  if (matches) {
    const counts = Object.fromEntries(Object.entries(matches.ids).map(([s, ids]) => [s, ids.length]));
    for (const [state, ids] of Object.entries(matches.ids)) {
      const at = ids.indexOf(id);
      if (at >= 0) return { state, at, counts };
    }
    return { left: { kind: 'filtered' } };
  }
  let record;
  try {
    record = (await store.get(id, who, BARE)).record;
  } catch (error) {
    if (error instanceof Refused) return { left: { kind: 'gone' } };
    throw error;
  }
  // A record never changes list: a window of another list is the person's view gone elsewhere (or
  // a read for the list shown a moment ago), and nothing is said of a record they no longer look at.
  if (record.list !== w.list.id) return { elsewhere: true };
  if (record.archived !== filters.archived) return { left: { kind: record.archived ? 'archived' : 'restored' } };
  const shown = shownStates(w.list, filters);
  if (!shown.some((s) => s.id === record.state)) {
    return { left: { kind: 'state', name: w.list.states.find((s) => s.id === record.state)?.name ?? record.state } };
  }
  const place = await placeOf(store, who, w.list.id, filters, record.state, id);
  return place ? { state: record.state, ...place } : { left: { kind: 'filtered' } };
}

/**
 * Where `held` stands after a read that gave window `w` (with the cursor in `column` on a board):
 * here, moved (where the cursor goes), or left. `page`: the rows or cards a window shows.
 */
export async function whereHeld(store: StoreRules, who: Who, w: ListWindow, filters: Filters, held: number | null, column: number, page: number, matches: Matches | null): Promise<Held> {
  if (held === null) return HERE;
  const under = underCursor(w, column);
  if (under?.id === held) return HERE;
  const place = await placeInList(store, who, w, filters, held, matches);
  if ('elsewhere' in place) return HERE;
  if ('left' in place) return { kind: 'left', id: held, why: place.left };
  const states = shownStates(w.list, filters);
  const index = states.findIndex((s) => s.id === place.state);
  if (w.kind === 'board') {
    const count = place.counts[place.state] ?? 0;
    const old = w.columns[index]?.cursor ?? START;
    // In the same column the card keeps its row on the screen; in another, the column's window follows it.
    const scroll = index === column ? old.scroll + place.at - old.at : old.scroll;
    return { kind: 'moved', id: held, column: index, state: place.state, cursor: { at: place.at, scroll: follow(place.at, scroll, count, page) } };
  }
  const at = states.slice(0, index).reduce((n, s) => n + (place.counts[s.id] ?? 0), 0) + place.at;
  const total = states.reduce((n, s) => n + (place.counts[s.id] ?? 0), 0);
  // The row keeps its place on the screen: the rows above it move, not the record looked at.
  const scroll = Math.max(0, w.cursor.scroll + at - w.cursor.at);
  return { kind: 'moved', id: held, column: 0, state: place.state, cursor: { at, scroll: follow(at, scroll, total, page) } };
}
