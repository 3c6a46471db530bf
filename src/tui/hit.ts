/**
 * What a mouse click is on: a list, a card, a row of a table or of a screen in front, a choice of
 * a pick, a template on the first run. The same arithmetic as the drawing (layout.ts,
 * board-layout.ts, the screens' title rows), from the frame's column and row. Pure.
 */
import type { ViewData } from './hooks/use-view-data.js';
import { boardPlaces, COLUMN_HEAD } from './board-layout.js';
import { wrap } from '../person/format.js';
import { columnWindow, pageOf, type Layout } from './layout.js';
import { top, type ScreenState } from '../person/screen-state.js';
import { settle } from '../person/window.js';
import type { Words } from '../person/words.js';

export type Hit =
  | { on: 'list'; index: number }
  | { on: 'card'; column: number; index: number }
  /** A row of the table, or of the screen in front (a record's line, a match, an agent, a folder…). */
  | { on: 'row'; index: number }
  | { on: 'choice'; index: number }
  | { on: 'template'; index: number };

/** Rows a screen in front shows above its rows (its title, a hint). */
const HEAD_ROWS = { record: 0, search: 2, help: 1, grant: 2, sides: 2, 'list-editor': 2, brief: 2 } as const;

export function hitAt(x: number, y: number, state: ScreenState, data: ViewData, layout: Layout, words: Words): Hit | null {
  const row = y - layout.bodyTop;
  if (row < 0 || row >= layout.body) return null;
  const dialog = state.dialog;
  if (dialog) {
    if (dialog.kind !== 'pick' || row < 1) return null;
    const { from, to } = columnWindow(dialog.choices.length, Math.max(1, layout.body - 1), dialog.at);
    const index = from + row - 1;
    return index < to ? { on: 'choice', index } : null;
  }
  const screen = top(state);
  if (screen) {
    if (screen.kind === 'help') return null;
    const page = pageOf(screen.kind, layout);
    const count = data.facts.rows;
    const index = settle(screen.cursor, count, page).scroll + row - HEAD_ROWS[screen.kind];
    return row >= HEAD_ROWS[screen.kind] && index < count ? { on: 'row', index } : null;
  }
  if (data.empty && !state.browse.archivedLists) {
    const first = 4 + wrap(words.welcome.intro, layout.columns).length;
    const index = row - first;
    return index >= 0 && index < data.templates.length ? { on: 'template', index } : null;
  }
  if (x < layout.listsWidth) {
    const index = Math.min(state.browse.listsScroll, Math.max(0, data.lists.length - 1)) + row - 1;
    return row >= 1 && index < data.lists.length ? { on: 'list', index } : null;
  }
  const w = data.window?.ok ? data.window.value : null;
  const mainX = x - layout.mainX;
  if (!w || mainX < 0) return null;
  if (w.kind === 'table') {
    const index = w.cursor.scroll + row - 1;
    return row >= 1 && index < w.total ? { on: 'row', index } : null;
  }
  const { columns } = boardPlaces(w, data.column, layout.mainWidth, layout.boardColumns, layout.cardPage);
  const column = columns.find((c) => mainX >= c.x && mainX < c.x + c.width);
  if (!column || row < COLUMN_HEAD) return null;
  const card = column.cards.find((c) => row >= c.row && row < c.row + c.rows);
  return card ? { on: 'card', column: column.index, index: card.at } : null;
}
