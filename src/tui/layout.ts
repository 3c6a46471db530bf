/**
 * Where things go for a terminal of a given size: pure arithmetic, so a resize is one new
 * layout and the windows fetch what now fits. The screen keeps one row free at the bottom so
 * the terminal never scrolls and a frame is redrawn in place, without a flash. A board shows as
 * many columns as can be read side by side, never every column squeezed; zoomed (`z`), one column
 * fills the width, or the record opened fills the screen.
 */
import type { Size } from './hooks/use-screen-size.js';

export interface Layout {
  columns: number;
  rows: number;
  /** The terminal is smaller than the screen can work in (MIN_COLUMNS × MIN_ROWS): it says so instead. */
  tooSmall: boolean;
  /** The frame's first row of the body (under the header, and the notice line when there is one). */
  bodyTop: number;
  /** The lists pane at the left (none when the board is zoomed). */
  listsWidth: number;
  /** Everything right of it. */
  mainWidth: number;
  /** The first column of the open list, right of the lists pane. */
  mainX: number;
  /** The header and the status lines are drawn (not when the record opened is zoomed). */
  frame: boolean;
  /** Rows between the header and the message line. */
  body: number;
  /** Lists that fit in the lists pane. */
  listsPage: number;
  /** Rows for cards in a board column; as many cards as that may be read for it (a card takes one row or two). */
  cardPage: number;
  /** Rows that fit in a table. */
  tablePage: number;
  /** Board columns that fit side by side. */
  boardColumns: number;
}

/** A board column narrower than this cuts titles too short to read: fewer columns are shown, scrolled sideways. */
export const READABLE_COLUMN = 22;
export const MIN_COLUMNS = 40;
export const MIN_ROWS = 12;

/** `messageRows`: rows the message line takes (a long sentence takes two); `zoom`: what fills the screen. */
export function layoutFor(size: Size, notices: boolean, messageRows = 1, zoom: 'board' | 'record' | null = null): Layout {
  const tooSmall = size.columns < MIN_COLUMNS || size.rows < MIN_ROWS;
  const columns = Math.max(MIN_COLUMNS, size.columns);
  const rows = Math.max(MIN_ROWS, size.rows);
  const listsWidth = zoom === 'board' ? 0 : Math.max(14, Math.min(28, Math.floor(columns * 0.22)));
  const mainX = listsWidth ? listsWidth + 1 : 0;
  const mainWidth = columns - mainX;
  const frame = zoom !== 'record';
  // header, message, status, keys, and the row kept free
  const body = Math.max(4, rows - 1 - (frame ? 3 : 0) - Math.max(1, messageRows) - (notices ? 1 : 0));
  return {
    columns,
    rows,
    tooSmall,
    bodyTop: (notices ? 1 : 0) + (frame ? 1 : 0),
    listsWidth,
    mainWidth,
    mainX,
    frame,
    body,
    listsPage: Math.max(1, body - 1),
    cardPage: Math.max(1, body - 3),
    tablePage: Math.max(1, body - 1),
    boardColumns: zoom === 'board' ? 1 : Math.max(1, Math.floor(mainWidth / READABLE_COLUMN)),
  };
}

/** Which of `count` board columns are shown when only `fit` fit: a window around the cursor's. */
export function columnWindow(count: number, fit: number, at: number): { from: number; to: number } {
  if (count <= fit) return { from: 0, to: count };
  const from = Math.max(0, Math.min(at - Math.floor(fit / 2), count - fit));
  return { from, to: from + fit };
}

/** Rows a screen in front shows under its own title lines. */
export function pageOf(kind: 'record' | 'search' | 'help' | 'grant' | 'sides' | 'list-editor' | 'brief', layout: Layout): number {
  switch (kind) {
    case 'record': return layout.body;
    case 'help': return Math.max(1, layout.body - 1);
    case 'search': case 'grant': case 'list-editor': case 'brief': return Math.max(1, layout.body - 2);
    // Its title, its keys, and a line kept for what a person must be told of the folders.
    case 'sides': return Math.max(1, layout.body - 3);
    default: {
      const never: never = kind;
      throw new Error(`unknown screen ${String(never)}`);
    }
  }
}
