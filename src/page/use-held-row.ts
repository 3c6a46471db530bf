/// <reference lib="dom" />
/**
 * A cursor over rows of records kept by a dialog of its own (the panel behind it keeps its own
 * cursor, `panelAt`): it holds its record, not its place, as the panels' cursors do
 * (use-held-part.ts). Rows arriving or leaving above move it with its record; when its record
 * leaves, the row now in its place has it. -1: on no row yet. It never changes the binder.
 */
import { useEffect, useState } from 'react';

export interface HeldRow {
  /** The row of the record held, in the order shown now; -1 on none. */
  at: number;
  /** The record at row `to` is held from now on. */
  set(to: number): void;
}

export function useHeldRow(ids: readonly number[]): HeldRow {
  const [held, setHeld] = useState<{ id: number | null; at: number }>({ id: null, at: -1 });
  const found = held.id === null ? -1 : ids.indexOf(held.id);
  const at = held.at < 0 ? -1 : found >= 0 ? found : Math.min(held.at, ids.length - 1);
  const id = at >= 0 ? ids[at] ?? null : null;
  useEffect(() => {
    if (id !== held.id || at !== held.at) setHeld({ id, at });
  }, [id, at, held]);
  return { at, set: (to) => setHeld({ id: ids[to] ?? null, at: to }) };
}
