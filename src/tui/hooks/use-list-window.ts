/**
 * The open list's window as the screen shows it: read for the cursors (only the rows in view),
 * with the cursor put back on the record it holds when records came or went above it (see
 * holding.ts), and what that read found of the record held, for the screen to keep or to say.
 */
import { useMemo, useRef } from 'react';
import type { RecordSummary } from '../../store/index.js';
import { useBinder } from '../context.js';
import { fitScroll } from '../board-layout.js';
import { HERE, underCursor, whereHeld, type Held } from '../holding.js';
import type { Layout } from '../layout.js';
import { matchWindow, PageCache, readBoard, readMatches, readTable, type ListWindow, type Read } from '../../person/reading.js';
import type { Browse } from '../../person/screen-state.js';
import { settle, START } from '../../person/window.js';
import { useLoaded } from './use-loaded.js';

/** A read of the open list's window, and where it found the record held, made from the cursors in `basis`. */
export interface Fetched {
  window: Read<ListWindow>;
  held: Held;
  /** The record held when the read began. */
  heldId: number | null;
  /** The cursors the window was read for: the person's, or moved to the record held. */
  placed: Placed;
}

/** Where the cursors of the open list are. */
export interface Placed {
  cards: Browse['cards'];
  table: Browse['table'];
  column: number;
}

export interface ListWindowData {
  window: Read<ListWindow> | null;
  column: number;
  selected: RecordSummary | null;
  scrolled: { state: string; scroll: number }[];
  heldNews: Fetched | null;
  toKeep: Fetched | null;
}

export function useListWindow(browse: Browse, listId: string | null, view: 'board' | 'table' | null, version: number, layout: Layout): ListWindowData {
  const { keeper, person } = useBinder();
  const store = keeper.store;
  const scrolls = view === 'board'
    ? Object.entries(browse.cards).map(([s, c]) => `${s}:${c.scroll}`).sort().join(',')
    : String(browse.table.scroll);
  const cache = useRef(new PageCache());
  const matchesRead = useLoaded(
    () => (listId && browse.filters.text.trim() ? readMatches(store, person, listId, browse.filters) : null),
    [store, person, version, listId, browse.filters],
    null,
  );
  const matches = matchesRead.value;
  // The record held is read through a ref: holding the one under the cursor after a move reads nothing.
  const heldRef = useRef(browse.held);
  heldRef.current = browse.held;
  const fetchedRead = useLoaded(async (): Promise<Fetched | null> => {
    if (!listId || !view) return null;
    const page = view === 'board' ? layout.cardPage : layout.tablePage;
    const basis: Placed = { cards: browse.cards, table: browse.table, column: browse.column };
    const heldId = heldRef.current;
    // `pages`: the pages kept for this version, or none (read afresh, as the record held was just looked for).
    const read = async (cards: Browse['cards'], table: Browse['table'], pages = cache.current): Promise<Read<ListWindow>> => {
      if (matches) return matches.ok ? { ok: true as const, value: await matchWindow(store, person, matches.value, view, browse.filters, cards, table, page) } : matches;
      return view === 'board'
        ? readBoard(store, person, listId, browse.filters, cards, page, pages, version)
        : readTable(store, person, listId, browse.filters, table, page, pages, version);
    };
    let placed = basis;
    let window = await read(basis.cards, basis.table);
    let held: Held = HERE;
    // Read again where the record held stands now, so that no frame shows another under the cursor (twice
    // more at most: pages read at one version of the binder may hold changes made while they were read).
    for (let tries = 0; tries < 3 && window.ok; tries++) {
      const found = await whereHeld(store, person, window.value, browse.filters, heldId, placed.column, page, matches?.ok ? matches.value : null);
      if (found.kind !== 'moved') {
        held = tries === 0 || found.kind === 'left' ? found : held;
        break;
      }
      held = found;
      placed = view === 'board'
        ? { ...placed, column: found.column, cards: { ...placed.cards, [found.state]: found.cursor } }
        : { ...placed, table: found.cursor };
      window = await read(placed.cards, placed.table, new PageCache());
    }
    return { window, held, heldId, placed };
    // The cursors' rows are left out on purpose: moving within the window reads nothing.
  }, [store, person, version, listId, view, browse.filters, scrolls, layout.cardPage, layout.tablePage, matches], null);
  // A window read for another list is not shown for this one.
  const fetchedOk = fetchedRead.value && (!fetchedRead.value.window.ok || fetchedRead.value.window.value.list.id === listId) ? fetchedRead.value : null;
  const fetched = fetchedOk?.window ?? null;
  // While the person has not moved the cursor since the read, the read says where it is: on the record held.
  const holding = fetchedOk && fetchedOk.heldId !== null && fetchedOk.heldId === browse.held && fetchedOk.held.kind !== 'left' ? fetchedOk : null;
  const placed: Placed = holding ? holding.placed : { cards: browse.cards, table: browse.table, column: browse.column };
  const { column, cards, table: tableCursor } = placed;
  const cardsKey = JSON.stringify(cards);

  const window = useMemo((): Read<ListWindow> | null => {
    if (!fetched || !fetched.ok) return fetched;
    const w = fetched.value;
    if (w.kind === 'board') {
      return {
        ok: true,
        value: {
          ...w,
          columns: w.columns.map((c) => {
            const cursor = settle(cards[c.state.id] ?? START, c.count, layout.cardPage);
            // The records read start at the window's first; cards that need two rows may push the cursor's out of view.
            const first = fitScroll(c.records, c.cursor.scroll, cursor.at, layout.cardPage);
            const records = c.records.slice(Math.max(0, first - c.cursor.scroll));
            return { ...c, cursor: { at: cursor.at, scroll: first }, records };
          }),
        },
      };
    }
    // Until the rows of a new scroll are read, the rows read are shown from where they start: the cursor is on its row if read, on none if not.
    const want = settle(tableCursor, w.total, layout.tablePage);
    return { ok: true, value: { ...w, cursor: { at: want.at, scroll: w.cursor.scroll } } };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetched, cardsKey, tableCursor, layout.cardPage, layout.tablePage]);
  const scrolled = window?.ok && window.value.kind === 'board'
    ? window.value.columns.filter((c) => c.cursor.scroll !== (cards[c.state.id]?.scroll ?? 0) && c.count > 0).map((c) => ({ state: c.state.id, scroll: c.cursor.scroll }))
    : [];

  const selected = window?.ok ? underCursor(window.value, column) : null;
  // What the read found of the record held, once per read: the screen keeps the place, or says it left.
  const heldNews = fetchedOk && (fetchedOk.held.kind === 'left' || holding) ? fetchedOk : null;
  /** The place shown differs from the reducer's: to keep, so that the next move goes on from it. */
  const toKeep = holding && (placed.cards !== browse.cards || placed.table !== browse.table || placed.column !== browse.column) ? holding : null;

  return { window, column, selected, scrolled, heldNews, toKeep };
}
