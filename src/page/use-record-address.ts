/// <reference lib="dom" />
/**
 * The record open in the panel is in the address (`#/record/12`), however it was opened (a card,
 * a row of the table, a search's match, what changed, a record it needs, its number): back and
 * forward go from one record opened to the next (and to the page with none), and an address
 * copied opens the same record. The record a link brought the person here for opens once the
 * first list has (opening a list closes its list's panels). It only reads and writes the address.
 */
import { useEffect, useRef, useState, type Dispatch } from 'react';
import type { PageAction, PageState } from './page-state.js';

const RECORD_ADDRESS = /^#\/record\/(\d{1,12})$/;

/** The record an address's fragment names (`#/record/12`), if it names one. */
export function recordInAddress(hash: string): number | null {
  const id = RECORD_ADDRESS.exec(hash)?.[1];
  return id ? Number(id) : null;
}

export function useRecordAddress(state: PageState, dispatch: Dispatch<PageAction>, linked: number | null | undefined): void {
  const opened = useRef<number | null>(null);
  // A record named before the first list opened waits for it, as a link's does: opening that
  // list would close a panel opened before it.
  const [early, setEarly] = useState<number | null>(null);
  const wanted = linked || early;
  useEffect(() => {
    if (!wanted || state.list === null || opened.current === wanted) return;
    opened.current = wanted;
    dispatch({ type: 'panel', panel: { kind: 'record', id: wanted } });
  }, [wanted, state.list, dispatch]);

  const record = state.panel?.kind === 'record' ? state.panel.id : null;
  const current = useRef(record);
  current.current = record;
  const listOpen = useRef(state.list !== null);
  listOpen.current = state.list !== null;
  // Back, forward, or an address typed: the record it names opens, or the one open closes.
  useEffect(() => {
    const follow = () => {
      const named = recordInAddress(location.hash);
      if (named !== null && !listOpen.current) setEarly(named);
      else if (named !== null && named !== current.current) dispatch({ type: 'panel', panel: { kind: 'record', id: named } });
      else if (named === null && current.current !== null) dispatch({ type: 'panel', panel: null });
    };
    window.addEventListener('popstate', follow);
    window.addEventListener('hashchange', follow);
    return () => {
      window.removeEventListener('popstate', follow);
      window.removeEventListener('hashchange', follow);
    };
  }, [dispatch]);

  // A record opened or closed is a step in the browser's history; the page's first draw is not
  // (the address may name the record a link asked for, which opens a moment later).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (recordInAddress(location.hash) === record) return;
    history.pushState(null, '', record === null ? `${location.pathname}${location.search}` : `#/record/${record}`);
  }, [record]);
}
