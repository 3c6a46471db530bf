/// <reference lib="dom" />
/**
 * What every part of the page shares: the words (the screen's and the page's own), the person,
 * the page's state and its dispatch, the version of the binder the page last heard of, names
 * of people and agents, and `act` — a person's operation through the API, with the sentence that
 * says what happened. Reads are hooks that read again when the binder changes.
 */
import { createContext, useContext, useEffect, useState, type Dispatch } from 'react';
import type { NameOf } from '../tui/names.js';
import type { Lang, Words } from '../tui/words.js';
import { call, type Answer } from './api.js';
import type { PageWords } from './page-words.js';
import type { PageAction, PageState } from './page-state.js';

export interface PageContext {
  lang: Lang;
  words: Words;
  pw: PageWords;
  person: { id: string; name: string };
  state: PageState;
  dispatch: Dispatch<PageAction>;
  /** Grows whenever the binder changed (the stream said so, or the page changed it). */
  version: number;
  nameOf: NameOf;
  /** Does `op` as the person; says `done(data)` when it was done, the refusal when not. */
  act<T = unknown>(op: string, args: Record<string, unknown>, done?: (data: T) => string): Promise<Answer<T>>;
  /** The cursor goes to this record once the list shows it (in that state, after a move). */
  follow(id: number, state?: string): void;
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
