/// <reference lib="dom" />
/**
 * Work that comes to the person, in the browser: the tab's title counts the records that wait for
 * an approval in the lists they see (`(3) Binder`), and, once the person allowed it (the button in
 * what changed: never asked on load), a record come to wait for them or a note naming them is a
 * notification while the tab is hidden; clicking it opens the record. Each change once: what the
 * person's brief held when the page opened is not news (src/person/heard.ts decides what is).
 */
import { useEffect, useRef } from 'react';
import type { Brief, ListSummary, Who } from '../store/index.js';
import { heardOf } from '../person/heard.js';
import type { Words } from '../person/words.js';
import { call } from './api.js';

const BRAND = 'Binder';

/** Whether this browser shows notifications at all. */
export const canNotify = (): boolean => typeof Notification !== 'undefined';

/**
 * How long after a change the title and notifications are looked at, and at most how often: the
 * change itself is what the person waits to see, and the page reads it first; a stream of changes
 * is looked at once per this long, not once per change.
 */
const LOOK_EVERY_MS = 400;

export function useHeardWork(version: number, person: Who, words: Words, open: (record: number) => void): void {
  const mark = useRef<number | null>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const looked = useRef(0);
  const latest = useRef({ person, words, open });
  latest.current = { person, words, open };
  useEffect(() => {
    // A look already waiting reads the binder as it is when it runs: this change is in it.
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      looked.current = Date.now();
      look(mark, latest.current);
    }, Math.max(LOOK_EVERY_MS / 2, looked.current + LOOK_EVERY_MS - Date.now()));
  }, [version]);
  useEffect(() => () => {
    if (pending.current) clearTimeout(pending.current);
  }, []);
}

/** The title's count, and a notification for each change heard since the last look. */
function look(mark: { current: number | null }, { person, words, open }: { person: Who; words: Words; open: (record: number) => void }): void {
  void call<ListSummary[]>('lists').then((answer) => {
    if (!answer.ok || !answer.data) return;
    const waiting = answer.data.reduce((n, l) => n + l.waiting, 0);
    document.title = waiting ? `(${waiting}) ${BRAND}` : BRAND;
  });
  void call<Brief>('brief', { peek: true }).then((answer) => {
    if (!answer.ok || !answer.data) return;
    const brief = answer.data;
    const from = mark.current;
    mark.current = Math.max(from ?? 0, brief.through ?? 0);
    if (from === null) return;
    const told = heardOf(brief.items.filter((i) => i.id > from), person, words);
    if (!told.length || !document.hidden || !canNotify() || Notification.permission !== 'granted') return;
    for (const heard of told) {
      const shown = new Notification(words.heard.title, { body: heard.text, tag: `binder-${heard.row}` });
      shown.onclick = () => {
        window.focus();
        open(heard.record);
        shown.close();
      };
    }
  });
}
