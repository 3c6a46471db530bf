/**
 * How the reading operations' answers read for an agent: one line per item, ids first, no
 * repetition, a hint for the next step, long lists cut with a line that says how to see the
 * rest. Plain text built from data; nothing here touches the store.
 */
import type { List, ListPage, ListSummary, LogRow, RecordSummary, RecordView, SearchHit, Who } from '../store/types.js';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
/** `2026-11-30T10:02:03.000Z` → `2026-11-30 10:02` (UTC, as stored). */
export const shortTime = (iso: string): string => iso.slice(0, 16).replace('T', ' ');
const owners = (ids: string[]): string => ids.map((id) => ` @${id}`).join('');
const gateIndex = (list: List): number => list.states.findIndex((s) => s.gate);

export function sayLists(lists: ListSummary[], who: Who): string {
  if (lists.length === 0) {
    return who.kind === 'agent'
      ? 'You were given no list yet: a person grants access from their screen (g) or with binder admin grant.'
      : 'No list yet: binder admin create-list TITLE --template batches (binder admin templates lists them).';
  }
  const lines = [`${plural(lists.length, 'list')}:`];
  for (const l of lists) {
    const waiting = l.waiting ? `, ${l.waiting} waiting for a person` : '';
    const access = who.kind === 'agent' ? (l.access === 'write' ? '; you may change it' : '; read only') : '';
    lines.push(`${l.id}: ${l.title}, ${plural(l.count, 'record')}${waiting}${access}${l.archived ? '; archived' : ''}`);
  }
  lines.push('Next: binder show LIST');
  return lines.join('\n');
}

/** One record on one line, as lists and boards show it. */
export function recordLine(r: RecordSummary, list: List): string {
  const gate = gateIndex(list);
  const at = list.states.findIndex((s) => s.id === r.state);
  // Approval matters to an agent only where it still has a gate to pass.
  const approved = r.approved && gate >= 0 && at < gate ? ' (approved)' : '';
  const due = r.due ? ` due ${r.due}` : '';
  const attached = r.attached ? ` [${r.attached} attached]` : '';
  const notes = r.notes ? ` [${plural(r.notes, 'note')}]` : '';
  return `#${r.id} ${r.title}${approved}${owners(r.owners)}${due}${attached}${notes}${r.archived ? ' (archived)' : ''}`;
}

export function sayShow(page: ListPage, who: Who, filter: { state?: string; archived?: boolean; offset?: number } = {}): string {
  const { list } = page;
  const total = Object.values(page.counts).reduce((a, b) => a + b, 0);
  const access = who.kind === 'agent' ? (page.access === 'write' ? '; you may change it' : '; read only') : '';
  const gate = list.states.find((s) => s.gate);
  const head = `${list.id}: ${list.title}, ${plural(total, filter.archived ? 'archived record' : 'record')}${access}.`
    + (gate ? ` Past "${gate.name}" only what a person approved.` : '');
  const lines = [head];
  for (const state of list.states) {
    const count = page.counts[state.id] ?? 0;
    if (count === 0) continue;
    lines.push(`${state.name}${state.gate ? ' (gate)' : ''}: ${count}`);
    for (const r of page.records) if (r.state === state.id) lines.push(`  ${recordLine(r, list)}`);
    const more = page.more[state.id] ?? 0;
    if (more > 0) {
      const next = (filter.offset ?? 0) + (count - more - (filter.offset ?? 0));
      lines.push(`  … ${more} more: binder show ${list.id} --state "${state.name}" --offset ${next}`);
    }
  }
  // Adding is advised only to whoever may add.
  if (total === 0) lines.push(filter.archived ? 'Nothing archived.' : page.access === 'write' ? `Empty. Add one: binder add ${list.id} "title"` : 'Empty.');
  else lines.push('Next: binder get ID');
  return lines.join('\n');
}

export function sayRecord(view: RecordView): string {
  const { record: r, list, history } = view;
  const state = list.states.find((s) => s.id === r.state);
  const facts = [`list ${list.id}`, `state ${state?.name ?? r.state}`];
  if (r.approved) facts.push(`approved by ${r.approved.by.name} ${shortTime(r.approved.at)}`);
  else if (list.states.some((s) => s.gate)) facts.push('not approved');
  if (r.owners.length) facts.push(`owners${owners(r.owners)}`);
  if (r.lease) facts.push(`taken by ${r.lease.by.name} until ${shortTime(r.lease.until)} UTC`);
  if (r.due) facts.push(`due ${r.due}`);
  if (r.archived) facts.push('archived');
  const lines = [`#${r.id} ${r.title}`, facts.join('; ')];
  for (const f of list.fields) {
    const value = r.fields[f.id];
    if (value !== undefined && value !== '') lines.push(`${f.name}: ${value}`);
  }
  if (r.notes.length) {
    lines.push('Notes:');
    for (const n of r.notes) {
      lines.push(`  n${n.id} ${shortTime(n.at)} ${n.by.name}${n.edited ? ' (edited)' : ''}: ${n.text.replace(/\n/g, '\n    ')}`);
    }
  }
  if (r.attached.length) {
    lines.push('Attached:');
    for (const a of r.attached) lines.push(`  a${a.id} ${a.kind} ${a.kind === 'record' ? `#${a.ref.replace(/^#/, '')}` : a.ref}${a.title ? ` "${a.title}"` : ''}`);
  }
  const last = history.slice(-5);
  if (last.length) {
    lines.push(`History (${history.length}${history.length > last.length ? `, last ${last.length}` : ''}):`);
    for (const h of last) {
      lines.push(h.op === 'withdraw' ? `  ${shortTime(h.at)} ${describeWithdrawal(h, list)}`
        : `  ${shortTime(h.at)} ${h.by.name} ${h.op}${describeChange(h.change, list)}`);
    }
  }
  return lines.join('\n');
}

/** `approval withdrawn: title changed by Alice, back in Proposed`: an agent's change that withdrew an approval. */
function describeWithdrawal(h: LogRow, list: List): string {
  const c = (h.change ?? {}) as { title?: unknown; fields?: unknown; to?: unknown };
  const fields = Array.isArray(c.fields) ? c.fields.map((id) => list.fields.find((f) => f.id === id)?.name ?? String(id)) : [];
  const changed = [...(c.title ? ['title'] : []), ...fields];
  const back = typeof c.to === 'string' ? `, back in ${list.states.find((s) => s.id === c.to)?.name ?? c.to}` : '';
  return `approval withdrawn${changed.length ? `: ${changed.join(', ')} changed` : ''} by ${h.by.name}${back}`;
}

/** A log row's change in a few words: `from Proposed to Doing`, `title`… */
function describeChange(change: unknown, list: List): string {
  if (!change || typeof change !== 'object') return '';
  const c = change as Record<string, unknown>;
  const name = (id: string): string => list.states.find((s) => s.id === id)?.name ?? id;
  if (typeof c.from === 'string' && typeof c.to === 'string') return ` ${name(c.from)} → ${name(c.to)}`;
  const keys = Object.keys(c).filter((k) => k !== 'title' || typeof c[k] !== 'string');
  return keys.length ? ` (${keys.join(', ')})` : '';
}

export function saySearch(hits: SearchHit[], text: string, limit: number): string {
  if (hits.length === 0) return `Nothing found for "${text}" in the lists you can see.`;
  const lines = hits.map((h) => `#${h.id} ${h.title} (${h.list}, ${h.stateName}${h.archived ? ', archived' : ''})${h.snippet && h.snippet !== h.title ? `: ${h.snippet}` : ''}`);
  if (hits.length >= limit) lines.push(`The first ${limit} shown: add words to narrow it.`);
  return lines.join('\n');
}
