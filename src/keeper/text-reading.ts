/**
 * How the reading operations' answers read for an agent: one line per item, ids first, no
 * repetition, a hint for the next step, long lists cut with a line that says how to see the
 * rest. Plain text built from data; nothing here touches the store. Every value goes through
 * `said` (text-values.ts): made safe and kept on its line, so no value can pass for a line of
 * the answer.
 */
import { type List, type ListPage, type ListSummary, type LogRow, type Note, type RecordSummary, type RecordView, type SearchHit, type Who, whoName } from '../store/index.js';
import { GET_HISTORY, GET_NOTES } from './operations.js';
import { familyLines, needLines } from './text-needs.js';
import { Shown, block, joined, said, told, type Told } from './text-values.js';
import { placeholder, step } from '../store/light.js';

const plural = (n: number, one: string, many = `${one}s`): Shown => new Shown(`${n} ${n === 1 ? one : many}`);
/** `2026-11-30T10:02:03.000Z` → `2026-11-30 10:02` (UTC, as stored). */
export const shortTime = (iso: string): string => iso.slice(0, 16).replace('T', ' ');
const owners = (ids: readonly string[]): Shown => joined(ids.map((id) => said` @${id}`), '');
const gateIndex = (list: List): number => list.states.findIndex((s) => s.gate);

export function sayLists(lists: ListSummary[], who: Who): Told {
  if (lists.length === 0) {
    return who.kind === 'agent'
      ? 'You were given no list yet: a person grants access from their screen (g) or with binder admin grant.'
      : 'No list yet: binder admin create-list TITLE --template batches (binder admin templates lists them).';
  }
  const out = [said`${plural(lists.length, 'list')}:`];
  for (const l of lists) {
    const waiting = l.waiting ? said`, ${l.waiting} waiting for a person` : '';
    const access = who.kind === 'agent' ? (l.access === 'write' ? '; you may change it' : '; read only') : '';
    out.push(said`${l.id}: ${l.title}, ${plural(l.count, 'record')}${new Shown(`${waiting}${access}`)}${new Shown(l.archived ? '; archived' : '')}`);
  }
  out.push(said`Next: ${step('show', { list: placeholder('LIST') })}`);
  return told(out);
}

/** One record on one line, as lists and boards show it. */
export function recordLine(r: RecordSummary, list: List): Shown {
  const gate = gateIndex(list);
  const at = list.states.findIndex((s) => s.id === r.state);
  // Approval matters to an agent only where it still has a gate to pass.
  const approved = r.approved && gate >= 0 && at < gate ? ' (approved)' : '';
  const due = r.due ? said` due ${r.due}` : '';
  const attached = r.attached ? ` [${r.attached} attached]` : '';
  const notes = r.notes ? ` [${plural(r.notes, 'note').text}]` : '';
  const waits = r.blocked ? ` (waits on ${plural(r.blocked, 'record').text})` : '';
  return said`#${r.id} ${r.title}${new Shown(`${approved}${waits}`)}${owners(r.owners)}${due}${new Shown(`${attached}${notes}${r.archived ? ' (archived)' : ''}`)}`;
}

export function sayShow(page: ListPage, who: Who, filter: { state?: string; archived?: boolean; offset?: number } = {}): Told {
  const { list } = page;
  const total = Object.values(page.counts).reduce((a, b) => a + b, 0);
  const access = who.kind === 'agent' ? (page.access === 'write' ? '; you may change it' : '; read only') : '';
  const gate = list.states.find((s) => s.gate);
  const out = [said`${list.id}: ${list.title}, ${plural(total, filter.archived ? 'archived record' : 'record')}${new Shown(access)}.${gate ? said` Past "${gate.name}" only what a person approved.` : ''}`];
  for (const state of list.states) {
    const count = page.counts[state.id] ?? 0;
    if (count === 0) continue;
    out.push(said`${state.name}${new Shown(state.gate ? ' (gate)' : '')}: ${count}`);
    for (const r of page.records) if (r.state === state.id) out.push(said`  ${recordLine(r, list)}`);
    const more = page.more[state.id] ?? 0;
    if (more > 0) {
      const next = count - more;
      out.push(said`  … ${more} more: ${step('show', { list: list.id, state: state.name, offset: next })}`);
    }
  }
  // Adding is advised only to whoever may add.
  if (total === 0) {
    out.push(filter.archived ? said`Nothing archived.` : page.access === 'write' ? said`Empty. Add one: ${step('add', { list: list.id, title: placeholder('TITLE') })}` : said`Empty.`);
  } else out.push(said`Next: ${step('get', { id: placeholder('ID') })}`);
  return told(out);
}

/** Which of a record's notes and history rows an answer shows: as `get` was asked. */
export interface RecordShown { notes?: number; history?: number; offset?: number }

/**
 * The head of a part of a record cut to a page (`Notes (5,000; the last 10):`), and the line that
 * says how to see the earlier ones.
 */
function pageOf(r: number, what: 'notes' | 'history', total: number, shown: number, page: RecordShown): { head: Shown; earlier: Shown | null } {
  const offset = page.offset ?? 0;
  const name = what === 'notes' ? 'Notes' : 'History';
  const earlier = Math.max(0, total - offset - shown);
  const which = shown === total ? '' : shown === 0 ? '; none shown' : offset === 0 ? `; the last ${shown}` : `; ${shown} before the last ${offset}`;
  const head = new Shown(`${name} (${total}${which}):`);
  if (earlier === 0) return { head, earlier: null };
  const asked = what === 'notes' ? page.notes : page.history;
  const size = asked !== undefined && asked > 0 ? asked : what === 'notes' ? GET_NOTES : GET_HISTORY;
  const other = what === 'notes' ? 'history' : 'notes';
  const next = step('get', { id: r, [what]: size, offset: offset + shown, [other]: 0 });
  return { head, earlier: said`  … ${earlier} earlier: ${next}` };
}

const noteLine = (n: Note): Shown =>
  said`  n${n.id} ${shortTime(n.at)} ${whoName(n.by)}${new Shown(n.edited ? ' (edited)' : '')}: ${block(n.text, '    ')}`;

const historyLine = (h: LogRow, list: List): Shown => (h.op === 'withdraw'
  ? said`  ${shortTime(h.at)} ${describeWithdrawal(h, list)}`
  : said`  ${shortTime(h.at)} ${whoName(h.by)} ${h.op}${describeChange(h.change, list)}`);

export function sayRecord(view: RecordView, page: RecordShown = {}): Told {
  const { record: r, list, history, counts } = view;
  const state = list.states.find((s) => s.id === r.state);
  const facts: Shown[] = [said`list ${list.id}`, said`state ${state?.name ?? r.state}`];
  if (r.approved) facts.push(said`approved by ${r.approved.by.name} ${shortTime(r.approved.at)}`);
  else if (list.states.some((s) => s.gate)) facts.push(said`not approved`);
  if (r.owners.length) facts.push(said`owners${owners(r.owners)}`);
  if (r.lease) facts.push(said`taken by ${r.lease.by.name} until ${shortTime(r.lease.until)} UTC`);
  if (r.due) facts.push(said`due ${r.due}`);
  if (r.archived) facts.push(said`archived`);
  const out = [said`#${r.id} ${r.title}`, joined(facts, '; '), ...familyLines(view), ...needLines(view)];
  for (const f of list.fields) {
    const value = r.fields[f.id];
    if (value !== undefined && value !== '') out.push(said`${f.name}: ${block(value, '  ')}`);
  }
  if (counts.notes > 0) {
    const { head, earlier } = pageOf(r.id, 'notes', counts.notes, r.notes.length, page);
    out.push(head);
    if (earlier) out.push(earlier);
    for (const n of r.notes) out.push(noteLine(n));
  }
  if (r.attached.length) {
    out.push(said`Attached:`);
    for (const a of r.attached) {
      const ref = a.kind === 'record' ? said`#${a.ref.replace(/^#/, '')}` : said`${a.ref}`;
      out.push(said`  a${a.id} ${a.kind} ${ref}${a.title ? said` "${a.title}"` : ''}`);
    }
  }
  if (view.mark && !r.approved && list.states.some((s) => s.gate)) out.push(said`Approve what you read: binder admin approve ${r.id} --seen ${view.mark}`);
  if (counts.history > 0) {
    const { head, earlier } = pageOf(r.id, 'history', counts.history, history.length, page);
    out.push(head);
    if (earlier) out.push(earlier);
    for (const h of history) out.push(historyLine(h, list));
  }
  return told(out);
}

/** `approval withdrawn: title changed by Alice, back in Proposed`: an agent's change that withdrew an approval. */
function describeWithdrawal(h: LogRow, list: List): Shown {
  const c = (h.change ?? {}) as { title?: unknown; fields?: unknown; to?: unknown };
  const fields = Array.isArray(c.fields) ? c.fields.map((id) => list.fields.find((f) => f.id === id)?.name ?? String(id)) : [];
  const changed = [...(c.title ? ['title'] : []), ...fields];
  const back = typeof c.to === 'string' ? said`, back in ${list.states.find((s) => s.id === c.to)?.name ?? c.to}` : '';
  return said`approval withdrawn${changed.length ? said`: ${changed.join(', ')} changed` : ''} by ${h.by.name}${back}`;
}

/** A log row's change in a few words: ` Proposed → Doing`, ` (title)`… */
function describeChange(change: unknown, list: List): Shown {
  if (!change || typeof change !== 'object') return new Shown('');
  const c = change as Record<string, unknown>;
  const name = (id: string): string => list.states.find((s) => s.id === id)?.name ?? id;
  if (typeof c.from === 'string' && typeof c.to === 'string') return said` ${name(c.from)} → ${name(c.to)}`;
  const keys = Object.keys(c).filter((k) => k !== 'title' || typeof c[k] !== 'string');
  return keys.length ? said` (${keys.join(', ')})` : new Shown('');
}

export function saySearch(hits: SearchHit[], text: string, limit: number): Told {
  if (hits.length === 0) return said`Nothing found for "${text}" in the lists you can see.`.text;
  const out = hits.map((h) => {
    const where = said`(${h.list}, ${h.stateName}${new Shown(h.archived ? ', archived' : '')})`;
    return said`#${h.id} ${h.title} ${where}${h.snippet && h.snippet !== h.title ? said`: ${h.snippet}` : ''}`;
  });
  if (hits.length >= limit) out.push(new Shown(`The first ${limit} shown: add words to narrow it.`));
  return told(out);
}
