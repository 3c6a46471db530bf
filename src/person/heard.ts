/**
 * What comes to a person unasked, from their brief: a record that came to wait for their approval,
 * or a note by someone else that names them (`@name`; notes have no addressee of their own). Shared
 * by the screen (its status line, a terminal's notification) and the page (a browser's). Each is
 * one history row, so a change is heard once however often it is drawn. Its text is plain words:
 * every face makes it safe for where it goes.
 */
import type { BriefItem, Who } from '../store/index.js';
import type { Words } from './words.js';

export interface Heard {
  /** The history row: heard once. */
  row: number;
  record: number;
  /** The sentence, from the words: what the status line says and the notification's body. */
  text: string;
}

/** Whether `text` names `name` as `@name` (any case): `a@name` is an address and `@named` another name, but `@name.` ends a sentence. */
export function mentions(text: string, name: string): boolean {
  if (name.trim() === '') return false;
  const wanted = `@${name}`.toLowerCase();
  const lower = text.toLowerCase();
  for (let at = lower.indexOf(wanted); at >= 0; at = lower.indexOf(wanted, at + 1)) {
    const starts = at === 0 || !/[\p{L}\p{N}_.@-]/u.test(text[at - 1]!);
    const rest = text.slice(at + wanted.length);
    const ends = !/^[\p{L}\p{N}_]/u.test(rest) && !/^[.-][\p{L}\p{N}_]/u.test(rest);
    if (starts && ends) return true;
  }
  return false;
}

/** The items of a brief the person hears of, in history order. Their own changes are never in a brief. */
export function heardOf(items: readonly BriefItem[], person: Who, words: Words): Heard[] {
  const out: Heard[] = [];
  for (const item of items) {
    if (item.by.id === person.id) continue;
    if (item.waits) out.push({ row: item.id, record: item.record, text: words.heard.waits(item.record, item.title) });
    else if (item.kind === 'note' && mentions(item.text ?? '', person.name)) {
      out.push({ row: item.id, record: item.record, text: words.heard.mentioned(item.record, item.by.name, item.title) });
    }
  }
  return out.sort((a, b) => a.row - b.row);
}
