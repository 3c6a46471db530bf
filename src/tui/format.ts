/**
 * How the screen writes values: record text made terminal-safe, owners, due dates, times.
 * Every string that came from the store (and so maybe from an agent) passes through `safe`
 * before it is rendered; nothing here ever returns a control character.
 */
import { terminalSafe } from '../keeper/terminal-safe.js';
import { readDue } from '../store/due.js';
import type { Lease } from '../store/types.js';
import type { Words } from './words.js';

/** One line of agent-written text, safe to print. */
export function safe(text: unknown): string {
  return terminalSafe(String(text ?? ''));
}

/** Several lines (a note), safe to print. */
export function safeLines(text: unknown): string[] {
  return terminalSafe(String(text ?? ''), { multiline: true }).split('\n');
}

/** `person:ann` → `ann`; an owner as people read it. */
export function ownerName(id: string): string {
  return safe(id.replace(/^(person|agent):/, ''));
}

export function owners(ids: readonly string[]): string {
  return ids.map(ownerName).join(', ');
}

export type DueStatus = 'none' | 'overdue' | 'later';

/** Overdue once the due time has come (a date alone falls due at the start of that day). */
export function dueStatus(due: string | null, now: number): DueStatus {
  if (!due) return 'none';
  const read = readDue(due);
  if (read.kind !== 'due') return 'none';
  return read.at <= now ? 'overdue' : 'later';
}

/** A due date as short as it can be said in a card: `11-04`, `11-04 09:00`, or with the year when not this one. */
export function shortDue(due: string, now: number): string {
  const year = String(new Date(now).getFullYear());
  return safe(due.startsWith(`${year}-`) ? due.slice(5) : due);
}

/** An ISO time as local `YYYY-MM-DD HH:MM`. */
export function when(iso: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return safe(iso);
  const d = new Date(at);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** An ISO time as short as a card can say it: `10:32` today, `11-30 10:32` another day. */
export function shortWhen(iso: string, now: number): string {
  const full = when(iso);
  return full.slice(0, 10) === when(new Date(now).toISOString()).slice(0, 10) ? full.slice(11) : full.slice(5);
}

/** A claim in a card or a row: `⚑ Claude 10:32` (held until then), or lapsed. */
export function claimMark(lease: Lease, words: Words, now: number): string {
  const name = safe(lease.by.name);
  return Date.parse(lease.until) > now ? words.view.takenUntil(name, shortWhen(lease.until, now)) : words.view.takenLapsed(name);
}

/** How long ago, in the screen's language. */
export function ago(ms: number | null, now: number, words: Words): string {
  if (ms === null) return words.never;
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return words.secondsAgo(s);
  if (s < 3600) return words.minutesAgo(Math.floor(s / 60));
  return words.hoursAgo(Math.floor(s / 3600));
}

/** A change from the history, as one short line: `{"state":"doing"}` → `state: doing`. */
export function change(value: unknown, max = 120): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'object' && !Array.isArray(value)) {
    text = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' · ');
  } else {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  }
  const flat = safe(text);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Cut to `width` characters, a `~` where it was cut (as tig marks a cut column). The mark is
 * plain ASCII on purpose: Ink measures every row it draws, and a row with any other character in
 * it goes through Unicode segmentation, which made a board of cut titles tens of milliseconds
 * slower to draw, its first frame most of all.
 */
export function cut(text: string, width: number): string {
  if (width <= 0) return '';
  const chars = [...text];
  return chars.length > width ? `${chars.slice(0, Math.max(0, width - 1)).join('')}~` : text;
}

/** `text` cut into rows of at most `width` characters, on spaces where it can. */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(8, width);
  const out: string[] = [];
  let rest = [...text];
  while (rest.length > w) {
    let at = rest.lastIndexOf(' ', w);
    if (at < w / 2) at = w;
    out.push(rest.slice(0, at).join('').trimEnd());
    rest = rest.slice(rest[at] === ' ' ? at + 1 : at);
  }
  out.push(rest.join(''));
  return out;
}
