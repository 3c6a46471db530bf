/// <reference lib="dom" />
/**
 * The open list as the page shows it: one `show` (50 records a state) and, for a state whose
 * "more" the person asked for, its next pages; read again whenever the binder changes. The board's
 * columns and the table's rows are made from it, and the cursor's sizes with them.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ListPage, RecordSummary, State } from '../store/types.js';
import { call } from './api.js';
import type { Lang } from '../tui/words.js';

export interface Column { state: State; count: number; records: RecordSummary[]; more: number }

export interface OpenList {
  page: ListPage | null;
  problem: string | null;
  columns: Column[];
  /** Asks for the next page of a state. */
  more(state: string): void;
}

export function useOpenList(list: string | null, archived: boolean, version: number, lang: Lang): OpenList {
  const [pages, setPages] = useState<Record<string, number>>({});
  const [read, setRead] = useState<{ page: ListPage | null; extra: Record<string, RecordSummary[]>; problem: string | null }>({ page: null, extra: {}, problem: null });
  useEffect(() => setPages({}), [list, archived]);
  useEffect(() => {
    if (list === null) {
      setRead({ page: null, extra: {}, problem: null });
      return undefined;
    }
    let current = true;
    void (async () => {
      const base = await call<ListPage>('show', { list, archived });
      if (!current) return;
      if (!base.ok || !base.data) {
        setRead({ page: null, extra: {}, problem: base.text });
        return;
      }
      const extra: Record<string, RecordSummary[]> = {};
      for (const [state, n] of Object.entries(pages)) {
        const rows: RecordSummary[] = [];
        for (let p = 1; p <= n; p++) {
          const next = await call<ListPage>('show', { list, archived, state, offset: p * 50 });
          if (next.ok && next.data) rows.push(...next.data.records.filter((r) => r.state === state));
        }
        extra[state] = rows;
      }
      if (current) setRead({ page: base.data, extra, problem: null });
    })();
    return () => {
      current = false;
    };
  }, [list, archived, version, lang, pages]);
  const more = useCallback((state: string) => setPages((was) => ({ ...was, [state]: (was[state] ?? 0) + 1 })), []);
  const page = read.page;
  const columns: Column[] = page
    ? page.list.states.map((state) => {
      const records = [...page.records.filter((r) => r.state === state.id), ...(read.extra[state.id] ?? [])];
      const count = page.counts[state.id] ?? 0;
      return { state, count, records, more: Math.max(0, count - records.length) };
    })
    : [];
  return { page, problem: read.problem, columns, more };
}
