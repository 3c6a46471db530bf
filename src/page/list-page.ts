/// <reference lib="dom" />
/**
 * The open list as the page shows it, with its filters: one `show` (50 records a state; only the
 * person's with `M`, the archived ones with `A`) and, for a state whose "more" the person asked
 * for, its next pages; with words (`f`), the store's search kept to this list, as the screen's
 * filter is; with one state (`s`), that state's column alone. Read again whenever the binder
 * changes. The board's columns and the table's rows are made from it, and the cursor's sizes.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ListPage, RecordSummary, RecordView, SearchHit, State } from '../store/index.js';
import { shownStates } from '../person/reading.js';
import type { Filters } from '../person/screen-state.js';
import type { Lang } from '../person/words.js';
import { call } from './api.js';

/** How many matches a search gives the page in one ask: more may match (the screen's filter looks at 500). */
export const SEARCH_MATCHES = 50;

export interface Column { state: State; count: number; records: RecordSummary[]; more: number }

export interface OpenList {
  page: ListPage | null;
  problem: string | null;
  columns: Column[];
  /** Filtered by words, and the search gave as many matches as it gives: more may match. */
  capped: boolean;
  /** Asks for the next page of a state. */
  more(state: string): void;
  /** The read shown is of the list and filters asked now (not one from before they changed). */
  current: boolean;
}

interface Read { of: string; page: ListPage | null; extra: Record<string, RecordSummary[]>; matched: RecordSummary[] | null; capped: boolean; problem: string | null }

const NOTHING: Read = { of: '', page: null, extra: {}, matched: null, capped: false, problem: null };

/** A record as a card shows it, from `get`: its notes counted, its attached things counted. */
export const summaryOf = (view: RecordView): RecordSummary => ({ ...view.record, notes: view.counts.notes, attached: view.record.attached.length });

/** The records of the list that hold the words, read whole: the search says only where they are. */
async function matching(list: string, filters: Filters, person: string): Promise<{ records: RecordSummary[]; capped: boolean } | { problem: string }> {
  const found = await call<SearchHit[]>('search', { text: filters.text, archived: filters.archived });
  if (!found.ok || !found.data) return { problem: found.text };
  const ids = found.data.filter((h) => h.list === list && h.archived === filters.archived).map((h) => h.id).sort((a, b) => a - b);
  const views = await Promise.all(ids.map((id) => call<RecordView>('get', { id, notes: 0, history: 0 })));
  const records = views.flatMap((v) => (v.ok && v.data ? [summaryOf(v.data)] : []))
    .filter((r) => !filters.mine || r.owners.includes(person));
  return { records, capped: found.data.length >= SEARCH_MATCHES };
}

export function useOpenList(list: string | null, filters: Filters, version: number, lang: Lang, person: string): OpenList {
  const [pages, setPages] = useState<Record<string, number>>({});
  const [read, setRead] = useState<Read>(NOTHING);
  const { mine, archived, text } = filters;
  const of = JSON.stringify([list, mine, archived, text]);
  // No page asked yet stays the same object: a new empty one would read the list a second time.
  useEffect(() => setPages((was) => (Object.keys(was).length ? {} : was)), [list, mine, archived, text]);
  // The reads of what is asked now, numbered as sent. One answered is shown unless what is asked
  // changed or a later read is shown already: when the binder changes while a read is on its way,
  // its answer is still newer than what the page shows, and the page need not wait for the next.
  const reads = useRef({ asked: '', sent: 0, shown: 0 });
  useEffect(() => {
    const now = reads.current;
    now.asked = JSON.stringify([of, lang, person]);
    if (list === null) {
      setRead(NOTHING);
      return;
    }
    const asked = now.asked;
    const seq = ++now.sent;
    const stale = (): boolean => now.asked !== asked || now.shown > seq;
    const show = (next: Read): void => {
      if (stale()) return;
      now.shown = seq;
      setRead(next);
    };
    void (async () => {
      const base = await call<ListPage>('show', { list, archived, mine });
      if (stale()) return;
      if (!base.ok || !base.data) {
        show({ ...NOTHING, of, problem: base.text });
        return;
      }
      if (text.trim()) {
        const found = await matching(list, { ...filters, text: text.trim() }, person);
        if ('problem' in found) show({ ...NOTHING, of, page: base.data, problem: found.problem });
        else show({ of, page: base.data, extra: {}, matched: found.records, capped: found.capped, problem: null });
        return;
      }
      const extra: Record<string, RecordSummary[]> = {};
      for (const [state, n] of Object.entries(pages)) {
        const rows: RecordSummary[] = [];
        for (let p = 1; p <= n && !stale(); p++) {
          const next = await call<ListPage>('show', { list, archived, mine, state, offset: p * 50 });
          if (next.ok && next.data) rows.push(...next.data.records.filter((r) => r.state === state));
        }
        extra[state] = rows;
      }
      show({ of, page: base.data, extra, matched: null, capped: false, problem: null });
    })();
    // `filters.state` is left out on purpose: one state is shown from what was read.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list, archived, mine, text, version, lang, pages, person]);
  const more = useCallback((state: string) => setPages((was) => ({ ...was, [state]: (was[state] ?? 0) + 1 })), []);
  const page = read.page;
  const columns: Column[] = page
    ? shownStates(page.list, filters).map((state) => {
      if (read.matched) {
        const records = read.matched.filter((r) => r.state === state.id);
        return { state, count: records.length, records, more: 0 };
      }
      const records = [...page.records.filter((r) => r.state === state.id), ...(read.extra[state.id] ?? [])];
      const count = page.counts[state.id] ?? 0;
      return { state, count, records, more: Math.max(0, count - records.length) };
    })
    : [];
  return { page, problem: read.problem, columns, capped: read.capped, more, current: read.of === of };
}
