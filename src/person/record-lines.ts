/**
 * A record opened, as the lines the screen shows: its whole title, every field, owners, due,
 * approval, what it lies under and what lies under it, what it needs and what needs it, notes
 * with author and time, what is attached, and its history in words. Pure; every piece of text
 * is made terminal-safe here, and long lines are wrapped (never cut) to the width, so one line
 * is one row and nothing of the record is out of reach.
 */
import type { LogRow, NeedLink, RecordFull, RecordView } from '../store/index.js';
import { stateTone, type StateTone } from './state-tones.js';
import { displayWidth } from './display-width.js';
import { dueStatus, safe, safeLines, when, wrap } from './format.js';
import { historyText, type HistoryLookup } from './history-words.js';
import { ownerNames, type NameOf } from './names.js';
import type { Words } from './words.js';

/** How a line or a piece of one reads: a state's by its place (state-tones.ts), a key in a hint. */
export type Tone = 'head' | 'title' | 'dim' | 'warn' | 'good' | 'plain' | `state-${StateTone}` | 'key';

/** What a line belongs to, so `E` edits that note, `T` detaches that thing, Enter opens that record (one it needs, or that needs it, its parent or a child). */
export type Part = { kind: 'note'; id: number; author: string } | { kind: 'attached'; id: number } | { kind: 'record'; id: number };

/** A part of a record as the cursor holds it, the same whichever line of it is shown where. */
export const partKey = (part: Part | undefined): string | undefined => (part ? `${part.kind}:${part.id}` : undefined);

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

/** What the record needs done first and what needs it, each a line Enter opens; nothing when neither. */
function needLines(view: RecordView, words: Words, push: (text: string, tone?: Tone, part?: Part, indent?: number) => void): void {
  const w = words.record;
  const link = (l: NeedLink, done: boolean) => push(`  #${l.id} ${safe(l.title)} · ${safe(l.stateName)}${done ? ` · ${w.needDone}` : ''}`, done ? 'dim' : 'plain', { kind: 'record', id: l.id }, 4);
  const needs = view.needs ?? [];
  const hidden = view.hiddenNeeds ?? 0;
  if (needs.length || hidden) {
    push('');
    push(`${w.needs} (${needs.length + hidden})`, 'head');
    for (const l of needs) link(l, l.done);
    if (hidden) push(`  ${w.hiddenNeeds(hidden)}`, 'warn');
  }
  const by = view.neededBy ?? [];
  if (by.length) {
    push('');
    push(`${w.neededBy} (${by.length})`, 'head');
    for (const l of by) link(l, false);
  }
}

/**
 * What the record lies under and what lies under it, with how many of those are done: each a line
 * Enter opens; nothing when it has neither.
 */
function familyLines(view: RecordView, words: Words, push: (text: string, tone?: Tone, part?: Part, indent?: number) => void): void {
  const w = words.record;
  if (view.parent) {
    const p = view.parent;
    push(`${w.parent}: #${p.id} ${safe(p.title)} · ${safe(p.stateName)}`, 'plain', { kind: 'record', id: p.id }, displayWidth(w.parent) + 2);
  }
  const children = view.children ?? [];
  if (!children.length) return;
  push('');
  push(`${w.children} (${w.childrenDone(children.filter((l) => l.done).length, children.length)})`, 'head');
  for (const l of children) {
    push(`  #${l.id} ${safe(l.title)} · ${safe(l.stateName)}`, l.done ? 'dim' : 'plain', { kind: 'record', id: l.id }, 4);
  }
}

/**
 * The record view needs the record whole, as the store's `get` gives it: every note (each
 * shown in full) and the whole history (each row in words). Whatever bounds `get` must still
 * give the screen all of both, or say how many were left out.
 */
export function recordLines(view: RecordView, words: Words, now: number, width: number, takeAwayKey: string, nameOf: NameOf): Line[] {
  const { record, list, history } = view;
  const w = words.record;
  const lines: Line[] = [];
  const room = Math.max(8, width);
  /** One piece of text, wrapped to the width; rows after the first indented by `indent`. */
  const push = (text: string, tone: Tone = 'plain', part?: Part, indent = 0) => {
    for (const [i, row] of wrap(text, room, room - indent).entries()) {
      const shown = i ? `${' '.repeat(indent)}${row}` : row;
      lines.push(part ? { text: shown, tone, part } : { text: shown, tone });
    }
  };
  const label = (name: string, value: string, tone: Tone = 'plain') => push(`${name}: ${value}`, tone, undefined, displayWidth(name) + 2);

  push(`#${record.id} ${safe(record.title)}`, 'title', undefined, String(record.id).length + 2);
  const state = list.states.find((s) => s.id === record.state);
  label(w.list, safe(list.title));
  const waits = record.blocked ? ` · ${words.view.waitsOn(record.blocked)}` : '';
  label(w.state, `${safe(state?.name ?? record.state)}${state?.gate ? ` (${words.view.gate})` : ''}${waits}${record.archived ? ` · ${w.archived}` : ''}`, waits ? 'warn' : `state-${stateTone(list.states, record.state)}`);
  push(record.approved ? w.approvedBy(nameOf(record.approved.by.id), when(record.approved.at)) : w.notApproved, record.approved ? 'good' : 'dim');
  label(w.owners, record.owners.length ? ownerNames(record.owners, nameOf) : w.nobody);
  const claim = claimLine(record, history, words, now, takeAwayKey);
  if (claim) label(w.claim, claim.text, claim.tone);
  const overdue = dueStatus(record.due, now) === 'overdue';
  label(w.due, record.due ? `${safe(record.due)}${overdue ? ` · ${w.overdue}` : ''}` : w.none, overdue ? 'warn' : 'plain');
  label(w.created, when(record.created), 'dim');
  label(w.updated, when(record.updated), 'dim');
  familyLines(view, words, push);
  needLines(view, words, push);

  if (list.fields.length) {
    push('');
    push(w.fields, 'head');
    for (const field of list.fields) {
      const value = record.fields[field.id];
      const shown = value === undefined || value === '' ? '—' : field.type === 'person' ? nameOf(value) : safe(value);
      push(`  ${safe(field.name)}: ${shown}`, 'plain', undefined, 4);
    }
  }

  push('');
  push(`${w.notes} (${record.notes.length})`, 'head');
  for (const note of record.notes) {
    const part: Part = { kind: 'note', id: note.id, author: note.by.id };
    push(`  n${note.id} · ${nameOf(note.by.id)} · ${when(note.at)}${note.edited ? ` · ${w.edited}` : ''}`, 'dim', part);
    for (const row of safeLines(note.text)) for (const piece of wrap(row, room - 4)) lines.push({ text: `    ${piece}`, tone: 'plain', part });
  }

  push('');
  push(`${w.attached} (${record.attached.length})`, 'head');
  for (const a of record.attached) {
    push(`  ${a.kind} ${safe(a.ref)}${a.title ? ` — ${safe(a.title)}` : ''} · ${nameOf(a.by.id)}`, 'plain', { kind: 'attached', id: a.id }, 4);
  }

  push('');
  push(`${w.history} (${history.length})`, 'head');
  const lookup: HistoryLookup = {
    words,
    stateName: (id) => list.states.find((s) => s.id === id)?.name ?? id,
    fieldName: (id) => list.fields.find((f) => f.id === id)?.name ?? id,
    nameOf,
    noteText: (id) => record.notes.find((n) => n.id === id)?.text ?? null,
    now,
  };
  for (const row of history) push(`  ${when(row.at)} · ${nameOf(row.by.id)} · ${historyText(row, lookup)}`, 'dim', undefined, 4);
  return lines;
}

/** Everyone a record view names, for `namesFrom`: who acted, who wrote, who approved, who holds it. */
export function peopleOf(view: RecordView): { id: string; name: string }[] {
  const { record, history } = view;
  return [
    ...history.map((r) => r.by),
    ...record.notes.map((n) => n.by),
    ...record.attached.map((a) => a.by),
    ...(record.approved ? [record.approved.by] : []),
    ...(record.lease ? [record.lease.by] : []),
  ];
}
