/**
 * What the screen reads from the store, and only the rows it shows: a board fetches one page
 * per state around its cursors, a table only the slices of states its window crosses. Reads go
 * through the store's read methods as the person; nothing here changes the binder.
 */
import { Refused } from '../store/light.js';
import type { List, ListPage, ListSummary, RecordPage, RecordSummary, RecordView, SearchHit, State, StoreRules, Who } from '../store/index.js';
import type { Filters } from './screen-state.js';
import { settle, tableSlices, START, type Cursor } from './window.js';

export interface Column {
  state: State;
  count: number;
  /** The column's cursor, made valid for its count and the page. */
  cursor: Cursor;
  /** The records from `cursor.scroll`, at most a page of them. */
  records: RecordSummary[];
}

export interface BoardWindow {
  kind: 'board';
  list: List;
  columns: Column[];
  total: number;
  /** Filtered by words: only the first matches could be looked at. */
  capped?: boolean;
}

export interface TableWindow {
  kind: 'table';
  list: List;
  /** Per state shown, in order, with its count. */
  counts: { state: State; count: number }[];
  total: number;
  cursor: Cursor;
  /** The rows from `cursor.scroll`. */
  records: RecordSummary[];
  capped?: boolean;
}

export type ListWindow = BoardWindow | TableWindow;

/** Either a value or the sentence that says why it could not be read. */
export type Read<T> = { ok: true; value: T } | { ok: false; text: string };

async function attempt<T>(read: () => Promise<T>): Promise<Read<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, text: error.message };
    throw error;
  }
}

/**
 * Pages already read for the current version of the binder and the current list and filters:
 * scrolling one column reads that column's page only, and coming back reads nothing.
 */
export class PageCache {
  private generation = '';
  private readonly pages = new Map<string, ListPage>();

  /** The page for `key`, read by `load` unless already read since `generation` last changed. */
  async page(generation: string, key: string, load: () => Promise<ListPage>): Promise<ListPage> {
    if (generation !== this.generation) {
      this.generation = generation;
      this.pages.clear();
    }
    let page = this.pages.get(key);
    if (!page) {
      if (this.pages.size > 200) this.pages.clear();
      page = await load();
      this.pages.set(key, page);
    }
    return page;
  }
}

export function readLists(store: StoreRules, who: Who, archived: boolean): Promise<ListSummary[]> {
  return store.lists(who, { archived });
}

const showOptions = (filters: Filters) => ({ mine: filters.mine, archived: filters.archived });

/** The states a view shows: all, or the one filtered on (if it still exists). */
export function shownStates(list: List, filters: Filters): State[] {
  if (filters.state) {
    const one = list.states.find((s) => s.id === filters.state);
    if (one) return [one];
  }
  return list.states;
}

/** A board's columns, each with the page of records its cursor's window shows. */
export function readBoard(store: StoreRules, who: Who, listId: string, filters: Filters, cards: Record<string, Cursor>, page: number, cache: PageCache, version: number): Promise<Read<BoardWindow>> {
  return attempt(async () => {
    const generation = `${version}|${listId}|${filters.mine}|${filters.archived}|${page}`;
    const base = await cache.page(generation, 'base', () => store.show(listId, who, { ...showOptions(filters), limit: page, offset: 0 }));
    const states = shownStates(base.list, filters);
    const columns: Column[] = [];
    for (const state of states) {
      const count = base.counts[state.id] ?? 0;
      const cursor = settle(cards[state.id] ?? START, count, page);
      // Pages of a fixed size and alignment (the first is the base's), so one step reads at most one page.
      const records: RecordSummary[] = [];
      for (let at = Math.floor(cursor.scroll / page) * page; at < cursor.scroll + page && at < count; at += page) {
        const chunk = at === 0
          ? base.records.filter((r) => r.state === state.id)
          : (await cache.page(generation, `${state.id}@${at}`, () => store.show(listId, who, { ...showOptions(filters), state: state.id, limit: page, offset: at }))).records;
        records.push(...chunk.slice(Math.max(0, cursor.scroll - at), Math.max(0, cursor.scroll + page - at)));
      }
      columns.push({ state, count, cursor, records });
    }
    return { kind: 'board', list: base.list, columns, total: columns.reduce((n, c) => n + c.count, 0) };
  });
}

/** A table's window: every record state by state, of which only the visible rows are fetched. */
export function readTable(store: StoreRules, who: Who, listId: string, filters: Filters, cursor: Cursor, page: number, cache: PageCache, version: number): Promise<Read<TableWindow>> {
  return attempt(async () => {
    const generation = `${version}|${listId}|${filters.mine}|${filters.archived}|table`;
    const base = await cache.page(generation, 'counts', () => store.show(listId, who, { ...showOptions(filters), limit: 1, offset: 0 }));
    const counts = shownStates(base.list, filters).map((state) => ({ state, count: base.counts[state.id] ?? 0 }));
    const total = counts.reduce((n, c) => n + c.count, 0);
    const settled = settle(cursor, total, page);
    const records: RecordSummary[] = [];
    for (const slice of tableSlices(counts.map((c) => ({ state: c.state.id, count: c.count })), settled.scroll, page)) {
      // Pages of a fixed size and alignment, so that moving one row reads at most one new page.
      const first = Math.floor(slice.offset / page) * page;
      for (let at = first; at < slice.offset + slice.limit; at += page) {
        const chunk = (await cache.page(generation, `${slice.state}@${at}`, () => store.show(listId, who, { ...showOptions(filters), state: slice.state, offset: at, limit: page }))).records;
        const from = Math.max(0, slice.offset - at);
        const to = Math.min(chunk.length, slice.offset + slice.limit - at);
        records.push(...chunk.slice(from, to));
      }
    }
    return { kind: 'table', list: base.list, counts, total, cursor: settled, records };
  });
}

/**
 * Where record `id` stands in its state's column of the list (records are in id order there):
 * its place, and every state's count, or null if it is not shown there. A binary search of
 * one-record pages, so a column of a hundred thousand is asked about twenty times, never read.
 */
export async function placeOf(store: StoreRules, who: Who, listId: string, filters: Filters, state: string, id: number): Promise<{ at: number; counts: Record<string, number> } | null> {
  try {
    const { counts } = await store.show(listId, who, { ...showOptions(filters), limit: 0 });
    const options = { ...showOptions(filters), state, limit: 1 };
    let lo = 0;
    let hi = (counts[state] ?? 0) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = (await store.show(listId, who, { ...options, offset: mid })).records[0];
      if (!at) return null;
      if (at.id === id) return { at: mid, counts };
      if (at.id < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  } catch (error) {
    if (error instanceof Refused) return null;
    throw error;
  }
}

/** `get`'s page for the record view: every note (the store's default) and every history row. */
const WHOLE: RecordPage = { history: Number.MAX_SAFE_INTEGER };
/** `get`'s page where only the record's own parts are wanted: no note, no history row. */
export const BARE: RecordPage = { notes: 0, history: 0 };

/**
 * The record view's one read: the record whole, with every note and its whole history (see
 * `recordLines`). Its needs are these and nothing more: `get` is bounded for agents' answers, so
 * the page is asked for whole.
 */
export function readRecord(store: StoreRules, who: Who, id: number): Promise<Read<RecordView>> {
  return attempt(() => store.get(id, who, WHOLE));
}

/** How many matches a filter by words looks at: the store's search gives no more in one ask. */
export const FILTER_MATCHES = 500;

/** The records of one list that hold some words (`f`): their ids, state by state, in id order. */
export interface Matches {
  list: List;
  ids: Record<string, number[]>;
  /** More may match than were looked at. */
  capped: boolean;
}

/** The store's search, kept to the open list (and its archived records, or its live ones). */
export function readMatches(store: StoreRules, who: Who, listId: string, filters: Filters): Promise<Read<Matches>> {
  return attempt(async () => {
    const list = await store.list(listId, who);
    const found = await store.search(filters.text, who, { archived: filters.archived, limit: FILTER_MATCHES });
    const ids: Record<string, number[]> = {};
    for (const hit of [...found].sort((a, b) => a.id - b.id)) {
      if (hit.list !== list.id || hit.archived !== filters.archived) continue;
      if (filters.mine && !(await store.get(hit.id, who, BARE)).record.owners.includes(who.id)) continue;
      (ids[hit.state] ??= []).push(hit.id);
    }
    return { list, ids, capped: found.length >= FILTER_MATCHES };
  });
}

/** A record as a card or a row shows it: its notes counted, not read. */
async function summaryOf(store: StoreRules, who: Who, id: number): Promise<RecordSummary | null> {
  try {
    const { record, counts } = await store.get(id, who, BARE);
    return { ...record, notes: counts.notes, attached: record.attached.length };
  } catch (error) {
    if (error instanceof Refused) return null;
    throw error;
  }
}

/** The window of a list filtered by words: only the records in view are read. */
export async function matchWindow(store: StoreRules, who: Who, matches: Matches, view: 'board' | 'table', filters: Filters, cards: Record<string, Cursor>, table: Cursor, page: number): Promise<ListWindow> {
  const states = shownStates(matches.list, filters);
  const read = async (ids: readonly number[]): Promise<RecordSummary[]> => {
    const out: RecordSummary[] = [];
    for (const id of ids) {
      const r = await summaryOf(store, who, id);
      if (r) out.push(r);
    }
    return out;
  };
  if (view === 'board') {
    const columns: Column[] = [];
    for (const state of states) {
      const ids = matches.ids[state.id] ?? [];
      const cursor = settle(cards[state.id] ?? START, ids.length, page);
      columns.push({ state, count: ids.length, cursor, records: await read(ids.slice(cursor.scroll, cursor.scroll + page)) });
    }
    return { kind: 'board', list: matches.list, columns, total: columns.reduce((n, c) => n + c.count, 0), capped: matches.capped };
  }
  const counts = states.map((state) => ({ state, count: matches.ids[state.id]?.length ?? 0 }));
  const all = states.flatMap((state) => matches.ids[state.id] ?? []);
  const cursor = settle(table, all.length, page);
  return { kind: 'table', list: matches.list, counts, total: all.length, cursor, records: await read(all.slice(cursor.scroll, cursor.scroll + page)), capped: matches.capped };
}

/** How many matches a search shows: past them, it says it cut them and how to narrow them. */
export const SEARCH_SHOWN = 200;

/** Search across lists; state and `mine` filters are applied to the hits. */
export async function readSearch(store: StoreRules, who: Who, text: string, filters: Filters, limit = SEARCH_SHOWN): Promise<Read<SearchHit[]>> {
  if (!text.trim()) return { ok: true, value: [] };
  return attempt(async () => {
    let hits = await store.search(text, who, { archived: filters.archived, limit });
    if (filters.state) hits = hits.filter((h) => h.stateName === filters.state);
    if (filters.mine) {
      const mine: SearchHit[] = [];
      for (const h of hits) if ((await store.get(h.id, who, BARE)).record.owners.includes(who.id)) mine.push(h);
      hits = mine;
    }
    return hits;
  });
}
