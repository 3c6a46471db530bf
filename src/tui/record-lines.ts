/**
 * A record opened, as the lines the screen shows: every field, owners, due, approval, notes with
 * author and time, what is attached, and its history. Pure; every piece of text is made
 * terminal-safe here, and long lines are cut to the width so one line is one row.
 */
import type { LogRow, RecordFull, RecordView } from '../store/types.js';
import { change, cut, dueStatus, owners, safe, safeLines, when, wrap } from './format.js';
import type { Words } from './words.js';

export type Tone = 'head' | 'title' | 'dim' | 'warn' | 'good' | 'plain';

/** What a line belongs to, so `E` edits that note, `T` detaches that thing, Enter opens that record. */
export type Part = { kind: 'note'; id: number; author: string } | { kind: 'attached'; id: number } | { kind: 'record'; id: number };

export interface Line {
  text: string;
  tone: Tone;
  part?: Part;
}

/** `in 25 min`, `in 3 h`: how long from now until `at`. */
function left(at: number, now: number, words: Words): string {
  const minutes = Math.max(0, Math.round((at - now) / 60_000));
  return minutes < 120 ? words.inMinutes(minutes) : words.inHours(Math.round(minutes / 60));
}

/**
 * The claim on a record: who holds it and until when, or that it lapsed (the lease ran out, or
 * the history's last word on the claim says so), or who ended it. Null when it was never taken.
 */
export function claimLine(record: Pick<RecordFull, 'lease'>, history: readonly LogRow[], words: Words, now: number, takeAwayKey: string): { text: string; tone: Tone } | null {
  const w = words.record;
  if (record.lease) {
    const until = Date.parse(record.lease.until);
    const name = safe(record.lease.by.name);
    if (until > now) return { text: `${w.claimHeld(name, when(record.lease.until), left(until, now, words))} · ${w.claimTakeAway(takeAwayKey)}`, tone: 'warn' };
    return { text: w.claimLapsed(name, when(record.lease.until)), tone: 'dim' };
  }
  const last = [...history].reverse().find((row) => row.op === 'take' || row.op === 'release' || row.op === 'lapse');
  if (!last || last.op === 'take') return null;
  if (last.op === 'lapse') return { text: w.claimLapsed(safe(last.by.name), when(last.at)), tone: 'dim' };
  const holder = (last.change as { holder?: { name?: unknown } } | null)?.holder;
  return { text: w.claimReleased(safe(holder?.name ?? '?'), safe(last.by.name), when(last.at)), tone: 'dim' };
}

export function recordLines(view: RecordView, words: Words, now: number, width: number, takeAwayKey: string): Line[] {
  const { record, list, history } = view;
  const w = words.record;
  const lines: Line[] = [];
  const push = (text: string, tone: Tone = 'plain', part?: Part) => lines.push(part ? { text: cut(text, width), tone, part } : { text: cut(text, width), tone });
  const label = (name: string, value: string, tone: Tone = 'plain') => push(`${name}: ${value}`, tone);

  const state = list.states.find((s) => s.id === record.state);
  label(w.list, safe(list.title));
  label(w.state, `${safe(state?.name ?? record.state)}${state?.gate ? ` (${words.view.gate})` : ''}${record.archived ? ` · ${w.archived}` : ''}`);
  push(record.approved ? w.approvedBy(safe(record.approved.by.name), when(record.approved.at)) : w.notApproved, record.approved ? 'good' : 'dim');
  label(w.owners, record.owners.length ? owners(record.owners) : w.nobody);
  const claim = claimLine(record, history, words, now, takeAwayKey);
  if (claim) label(w.claim, claim.text, claim.tone);
  const overdue = dueStatus(record.due, now) === 'overdue';
  label(w.due, record.due ? `${safe(record.due)}${overdue ? ` · ${w.overdue}` : ''}` : w.none, overdue ? 'warn' : 'plain');
  label(w.created, when(record.created), 'dim');
  label(w.updated, when(record.updated), 'dim');

  if (list.fields.length) {
    push('');
    push(w.fields, 'head');
    for (const field of list.fields) label(`  ${safe(field.name)}`, safe(record.fields[field.id] ?? '') || '—');
  }

  push('');
  push(`${w.notes} (${record.notes.length})`, 'head');
  for (const note of record.notes) {
    const part: Part = { kind: 'note', id: note.id, author: note.by.id };
    push(`  ${safe(note.by.name)} · ${when(note.at)}${note.edited ? ` · ${w.edited}` : ''}`, 'dim', part);
    for (const row of safeLines(note.text)) for (const piece of wrap(row, width - 4)) push(`    ${piece}`, 'plain', part);
  }

  push('');
  push(`${w.attached} (${record.attached.length})`, 'head');
  for (const a of record.attached) {
    push(`  ${a.kind} ${safe(a.ref)}${a.title ? ` — ${safe(a.title)}` : ''} · ${safe(a.by.name)}`, 'plain', { kind: 'attached', id: a.id });
  }

  push('');
  push(`${w.history} (${history.length})`, 'head');
  for (const row of history) {
    const what = change(row.change, Math.max(20, width - 40));
    push(`  ${when(row.at)} ${safe(row.by.name)} ${safe(row.op)}${what ? ` — ${what}` : ''}`, 'dim');
  }
  return lines;
}
