/**
 * Cursor and window arithmetic, pure: where a cursor lands after a step, which rows a window
 * shows so that the cursor stays in view, and which page of each state a table's window needs.
 * It never reads the store: the screen fetches exactly the rows these functions say are visible.
 */

/** A cursor in a list of `count` rows shown `page` at a time, from `scroll`. */
export interface Cursor {
  at: number;
  scroll: number;
}

export const START: Cursor = { at: 0, scroll: 0 };

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

/** `scroll` moved the least so that `at` is visible and the window is not past the end. */
export function follow(at: number, scroll: number, count: number, page: number): number {
  const size = Math.max(1, page);
  let s = scroll;
  if (at < s) s = at;
  if (at >= s + size) s = at - size + 1;
  return clamp(s, 0, Math.max(0, count - size));
}

/** The cursor after going `delta` rows (clamped), with its window following. */
export function step(cursor: Cursor, delta: number, count: number, page: number): Cursor {
  if (count <= 0) return START;
  const at = clamp(cursor.at + delta, 0, count - 1);
  return { at, scroll: follow(at, cursor.scroll, count, page) };
}

/** The same cursor made valid for a count or page that changed (a record gone, a resize). */
export function settle(cursor: Cursor, count: number, page: number): Cursor {
  if (count <= 0) return START;
  const at = clamp(cursor.at, 0, count - 1);
  return { at, scroll: follow(at, cursor.scroll, count, page) };
}

/** Scrolling text with no cursor (help): a scroll offset kept within the text. */
export function scrollBy(scroll: number, delta: number, count: number, page: number): number {
  return clamp(scroll + delta, 0, Math.max(0, count - page));
}

/** A piece of one state's records that a table window needs: `show(..., {state, offset, limit})`. */
export interface Slice {
  state: string;
  offset: number;
  limit: number;
}

/**
 * A table lists records state by state, in the list's order of states. For the rows
 * [from, from + size), which slice of which state holds them.
 */
export function tableSlices(counts: readonly { state: string; count: number }[], from: number, size: number): Slice[] {
  const out: Slice[] = [];
  let start = 0;
  const end = from + size;
  for (const { state, count } of counts) {
    const stop = start + count;
    const lo = Math.max(from, start);
    const hi = Math.min(end, stop);
    if (hi > lo) out.push({ state, offset: lo - start, limit: hi - lo });
    start = stop;
    if (start >= end) break;
  }
  return out;
}
