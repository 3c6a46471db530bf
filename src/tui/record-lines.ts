/**
 * A record opened, as the lines the screen shows: every field, owners, due, approval, notes with
 * author and time, what is attached, and its history. Pure; every piece of text is made
 * terminal-safe here, and long lines are cut to the width so one line is one row.
 */
import type { RecordView } from '../store/types.js';
import { change, cut, dueStatus, owners, safe, safeLines, when, wrap } from './format.js';
import type { Words } from './words.js';

export type Tone = 'head' | 'title' | 'dim' | 'warn' | 'good' | 'plain';

/** What a line belongs to, so `E` edits that note and `T` detaches that thing. */
export type Part = { kind: 'note'; id: number; author: string } | { kind: 'attached'; id: number };

export interface Line {
  text: string;
  tone: Tone;
  part?: Part;
}

export function recordLines(view: RecordView, words: Words, now: number, width: number): Line[] {
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
  if (record.lease) push(w.taken(safe(record.lease.by.name), when(record.lease.until)), 'dim');
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
