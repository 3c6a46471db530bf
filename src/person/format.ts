/**
 * How the screen writes values: record text made terminal-safe, owners, due dates, times.
 * Every string that came from the store (and so maybe from an agent) passes through `safe`
 * before it is rendered; nothing here ever returns a control character.
 */
import { terminalSafe } from '../keeper/terminal-safe.js';
import { readDue } from '../store/light.js';
import type { Lease } from '../store/index.js';
import type { Words } from './words.js';

/** One line of agent-written text, safe to print. */
export function safe(text: unknown): string {
  return terminalSafe(String(text ?? ''));
}

/** Several lines (a note), safe to print. */
export function safeLines(text: unknown): string[] {
  return terminalSafe(String(text ?? ''), { multiline: true }).split('\n');
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

export { cut, displayWidth, padTo, wrap } from './display-width.js';
