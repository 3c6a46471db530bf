/**
 * Work that comes to the person while the screen runs: a record come to wait for their approval,
 * a note naming them (src/person/heard.ts). Looked for when the binder changed, at most once per
 * `everyMs`, in the history after the last row looked at — so each change is heard once, never
 * again on a redraw, and nothing from before the screen started. Each look that heard something
 * tells `notify` once (the terminal's notification) and is what the status line says until the
 * person opens their brief.
 */
import { useEffect, useRef, useState } from 'react';
import type { Keeper } from '../../keeper/keeper-types.js';
import type { Who } from '../../store/index.js';
import { heardOf } from '../../person/heard.js';
import type { Words } from '../../person/words.js';

/** Changes read per look: more wait for the next one. */
const PAGE = 100;

export interface HeardWork {
  /** The latest heard, in words. */
  text: string;
  /** How many more were heard with it. */
  more: number;
}

export type Notify = (title: string, body: string) => void;

export function useHeardWork(keeper: Keeper, person: Who, words: Words, version: number, read: unknown, notify: Notify | null, everyMs: number): HeardWork | null {
  const [heard, setHeard] = useState<HeardWork | null>(null);
  const mark = useRef<number | null>(null);
  const busy = useRef(false);
  const again = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const last = useRef(0);
  const live = useRef(true);

  const look = async (): Promise<void> => {
    if (busy.current) {
      again.current = true;
      return;
    }
    busy.current = true;
    last.current = Date.now();
    try {
      if (mark.current === null) {
        // Where the history stands as the screen starts: what came before is not news.
        mark.current = (await keeper.store.brief(person, { peek: true, newest: true, limit: 1, counted: false })).through ?? 0;
        return;
      }
      const brief = await keeper.store.brief(person, { after: mark.current, limit: PAGE });
      mark.current = Math.max(mark.current, brief.through ?? mark.current);
      if (brief.more) again.current = true;
      const told = heardOf(brief.items, person, words);
      const latest = told[told.length - 1];
      if (!latest || !live.current) return;
      const said = { text: latest.text, more: told.length - 1 };
      setHeard(said);
      notify?.(words.heard.title, said.more ? `${said.text} (${words.heard.more(said.more)})` : said.text);
    } catch {
      // A look that failed (the store closing) is tried at the next change.
    } finally {
      busy.current = false;
      if (again.current && live.current) {
        again.current = false;
        schedule();
      }
    }
  };
  const schedule = (): void => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void look();
    }, Math.max(0, last.current + everyMs - Date.now()));
  };

  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(schedule, [version]);
  useEffect(() => {
    if (read) setHeard(null);
  }, [read]);
  useEffect(() => () => {
    live.current = false;
    if (timer.current) clearTimeout(timer.current);
  }, []);
  return heard;
}
