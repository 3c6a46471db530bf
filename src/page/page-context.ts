/// <reference lib="dom" />
/**
 * What every part of the page shares: the words (the screen's and the page's own), the person,
 * the page's state and its dispatch, the version of the binder the page last heard of, names
 * of people and agents, and `act` — a person's operation through the API, with the sentence that
 * says what happened. Reads are hooks that read again when the binder changes. The panel in front
 * hears its own keys (its rows, and what they do) through `usePanelKeys`.
 */
import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState, type Dispatch, type MutableRefObject } from 'react';
import type { Command } from '../person/keymap.js';
import type { List, RecordSummary } from '../store/index.js';
import type { NameOf } from '../person/names.js';
import type { Lang, Words } from '../person/words.js';
import { call, type Answer } from './api.js';
import type { PageWords } from './page-words.js';
import type { PageAction, PageState } from './page-state.js';

export interface PageContext {
  lang: Lang;
  words: Words;
  pw: PageWords;
  person: { id: string; name: string; email?: string };
  /** The person's role in this binder (the store's word: people signed in through a provider); a local person is an admin. */
  role: 'admin' | 'member';
  /** People sign in through a provider here: the binder has people and roles to show. */
  signedIn: boolean;
  state: PageState;
  dispatch: Dispatch<PageAction>;
  /** Grows whenever the binder changed (the stream said so, or the page changed it). */
  version: number;
  nameOf: NameOf;
  /** The person and the agents by their registered names: what `nameOf` is made from. */
  known: readonly { id: string; name: string; email?: string }[];
  /**
   * Does `op` as the person; says `done(data)` (else the screen's sentence for it) when it was
   * done, the refusal when not. `offer`: a change the screen offers back, offered back here too.
   */
  act<T = unknown>(op: string, args: Record<string, unknown>, done?: ((data: T) => string) | null, options?: { offer?: boolean }): Promise<Answer<T>>;
  /** The cursor goes to this record once the list shows it (in that state, after a move). */
  follow(id: number, state?: string): void;
  /** The panel in front: its rows, and the commands it does itself. */
  panelKeys: MutableRefObject<PanelKeys | null>;
  /** The clock of the guard against a record that only just came under the selection. */
  now(): number;
}

export interface PanelKeys {
  /** How many rows its cursor goes over. */
  rows: number;
  /** Does `command` if it is the panel's own (on the row under the cursor); false to leave it to the page. */
  run(command: Command): boolean;
  /** A record's panel: the part under its cursor (`note:3`, `attached:2`, `record:12`), held by its id. */
  part?: string | undefined;
  /** A record's panel: the record as it shows it, which its keys act on, and the numbers it needs. */
  shown?: { record: RecordSummary; list: List; needs: readonly number[] } | undefined;
}

export const Page = createContext<PageContext | null>(null);

export function usePage(): PageContext {
  const page = useContext(Page);
  if (!page) throw new Error('usePage outside the page');
  return page;
}

export interface Read<T> { answer: Answer<T> | null; loading: boolean }

/** A read of the catalog, again whenever the binder changes or `args` do; null args reads nothing. */
export function useRead<T>(op: string, args: Record<string, unknown> | null): Read<T> {
  const { version, lang } = usePage();
  const key = args === null ? null : JSON.stringify(args);
  const [read, setRead] = useState<Read<T>>({ answer: null, loading: key !== null });
  useEffect(() => {
    if (key === null) {
      setRead({ answer: null, loading: false });
      return undefined;
    }
    let current = true;
    setRead((was) => ({ answer: was.answer, loading: true }));
    void call<T>(op, JSON.parse(key) as Record<string, unknown>).then((answer) => {
      if (current) setRead({ answer, loading: false });
    });
    return () => {
      current = false;
    };
  }, [op, key, version, lang]);
  return read;
}

/** The panel's rows and its own commands, heard while it is in front. */
export function usePanelKeys(rows: number, run: (command: Command) => boolean, record?: Pick<PanelKeys, 'part' | 'shown'>): void {
  const { panelKeys, state, dispatch } = usePage();
  useLayoutEffect(() => {
    panelKeys.current = { rows, run, ...record };
  });
  // Rows gone (a field removed, a record deleted elsewhere): the cursor stays on the last one.
  useEffect(() => {
    if (rows > 0 && state.panelAt >= rows) dispatch({ type: 'select-row', at: rows - 1 });
  }, [rows, state.panelAt, dispatch]);
  useLayoutEffect(() => () => {
    panelKeys.current = null;
  }, [panelKeys]);
}

/**
 * A row of the panel in front: whether the cursor is on it, and what its element takes. It takes
 * the focus when a key brings the cursor to it (so a screen reader follows), and a click or the
 * focus on anything in it brings the cursor there.
 */
export function useRow<E extends HTMLElement>(at: number): { cursor: boolean; props: { ref: MutableRefObject<E | null>; tabIndex: number; className: string; 'aria-current': true | undefined; onFocus(): void } } {
  const { state, dispatch } = usePage();
  const cursor = state.panelAt === at;
  const ref = useRef<E | null>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const active = document.activeElement;
    if (cursor && ref.current && !ref.current.contains(active) && (active === document.body || active?.closest('.panel'))) ref.current.focus();
  }, [cursor]);
  return {
    cursor,
    props: {
      ref, tabIndex: cursor ? 0 : -1, className: cursor ? 'row cursor' : 'row', 'aria-current': cursor || undefined,
      onFocus: () => { if (state.panelAt !== at) dispatch({ type: 'select-row', at }); },
    },
  };
}
