/**
 * Where a board's cards stand: which columns are shown, how wide, and each card's rows (one for
 * `#id title`, a second only when there is something to say under it: a claim, records it
 * waits on, approval, owners, due, things attached). The same arithmetic draws the board and finds what a mouse
 * click is on. Pure.
 */
import type { RecordSummary } from '../store/index.js';
import { columnWindow } from './layout.js';
import type { BoardWindow } from '../person/reading.js';

/** Rows of a column above its cards (its name, and the "more above" line) and below them ("more below"). */
export const COLUMN_HEAD = 2;
export const COLUMN_FOOT = 1;

/** Whether a card has a second row. */
export function hasMeta(record: RecordSummary): boolean {
  return Boolean(record.lease || record.blocked || record.approved || record.owners.length || record.due || record.attached);
}

export const cardRows = (record: RecordSummary): number => (hasMeta(record) ? 2 : 1);

/**
 * The first card to show so that the cursor's card is in view within `rows` rows, from `scroll`
 * on: `records` are the column's records from `scroll`. Cards take the rows they need, so the
 * window may have to start later than a count of cards would say.
 */
export function fitScroll(records: readonly RecordSummary[], scroll: number, at: number, rows: number): number {
  let start = scroll;
  const used = (from: number) => records.slice(from - scroll, at - scroll + 1).reduce((n, r) => n + cardRows(r), 0);
  while (start < at && used(start) > rows) start++;
  return start;
}

/** How many of `records` (from the window's first) fit in `rows` rows. */
export function cardsThatFit(records: readonly RecordSummary[], rows: number): number {
  let used = 0;
  let n = 0;
  for (const r of records) {
    used += cardRows(r);
    if (used > rows) break;
    n++;
  }
  return n;
}

export interface ColumnPlace {
  /** Index of the column among all the list's columns. */
  index: number;
  x: number;
  width: number;
  /** Each card shown, with its index in the column and its first row (from the column's top). */
  cards: { record: RecordSummary; at: number; row: number; rows: number }[];
}

/** The columns a board of `width` columns shows (as many as `fit`, around the cursor's), and where each card stands. */
export function boardPlaces(board: BoardWindow, column: number, width: number, fit: number, rows: number): { from: number; to: number; columns: ColumnPlace[] } {
  const at = Math.min(column, board.columns.length - 1);
  const { from, to } = columnWindow(board.columns.length, fit, at);
  const shown = board.columns.slice(from, to);
  const colWidth = Math.max(8, Math.floor(width / Math.max(1, shown.length)));
  const columns = shown.map((col, i): ColumnPlace => {
    const cards: ColumnPlace['cards'] = [];
    let row = COLUMN_HEAD;
    for (const [n, record] of col.records.slice(0, cardsThatFit(col.records, rows)).entries()) {
      cards.push({ record, at: col.cursor.scroll + n, row, rows: cardRows(record) });
      row += cardRows(record);
    }
    return { index: from + i, x: i * colWidth, width: colWidth, cards };
  });
  return { from, to, columns };
}
