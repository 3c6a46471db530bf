/**
 * A query read by query.ts made into one SQL condition over `records r`, with parameters only:
 * no text of the asker is ever written into the SQL. Names (a state's, a field's, a list's) are
 * looked up here in the lists the asker can read, so a name in another list finds nothing.
 * Nothing here decides who may see what: the caller adds that (query-run.ts).
 */
import type { Dialect } from './dialect/dialect.js';
import type { QueryTerm, Query } from './query.js';
import { searchTerms } from './search.js';
import type { List, Who } from './types.js';

/** A condition and its parameters, in order. */
export interface Condition { sql: string; params: unknown[] }

const NOTHING: Condition = { sql: '1 = 0', params: [] };
const same = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();
const isMe = (value: string): boolean => same(value, 'me') || same(value, 'moi');

/** Of each list, the ids of what `pick` finds there, as `(r.list = ? AND <column> IN (?, …))` joined by OR. */
function perList(lists: List[], column: string, pick: (list: List) => string[]): Condition {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const list of lists) {
    const ids = pick(list);
    if (ids.length === 0) continue;
    parts.push(`(r.list = ? AND ${column} IN (${ids.map(() => '?').join(', ')}))`);
    params.push(list.id, ...ids);
  }
  return parts.length === 0 ? NOTHING : { sql: `(${parts.join(' OR ')})`, params };
}

/** A field's value in each list where a field has that name (or id), compared without case. */
function fieldCondition(d: Dialect, lists: List[], name: string, value: string): Condition {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const list of lists) {
    const field = list.fields.find((f) => f.id === name || same(f.name, name));
    if (!field || !/^[A-Za-z0-9-]+$/.test(field.id)) continue;
    parts.push(`(r.list = ? AND lower(${d.textAt('r.fields', field.id)}) = lower(?))`);
    params.push(list.id, value);
  }
  return parts.length === 0 ? NOTHING : { sql: `(${parts.join(' OR ')})`, params };
}

/**
 * A label in a list's labels field: its value is the labels, each a short word, between spaces.
 * The label is matched whole, its LIKE wildcards escaped.
 */
function labelCondition(d: Dialect, lists: List[], label: string): Condition {
  const parts: string[] = [];
  const params: unknown[] = [];
  const like = `% ${label.trim().toLowerCase().replace(/[\\%_]/g, '\\$&')} %`;
  for (const list of lists) {
    for (const field of list.fields) {
      if (field.type !== 'labels' || !/^[A-Za-z0-9-]+$/.test(field.id)) continue;
      parts.push(`(r.list = ? AND (' ' || lower(${d.textAt('r.fields', field.id)}) || ' ') LIKE ? ESCAPE '\\')`);
      params.push(list.id, like);
    }
  }
  return parts.length === 0 ? NOTHING : { sql: `(${parts.join(' OR ')})`, params };
}

function dueCondition(term: Extract<QueryTerm, { key: 'due' }>, now: number): Condition {
  const due = term.due;
  switch (due.op) {
    // A due time later on the day is on that day: `~` sorts after every digit and the space.
    case '<': return { sql: 'r.due < ?', params: [due.date] };
    case '>': return { sql: 'r.due > ?', params: [`${due.date}~`] };
    case '=': return { sql: '(r.due >= ? AND r.due < ?)', params: [due.date, `${due.date}~`] };
    case 'today': {
      const day = new Date(now).toISOString().slice(0, 10);
      return { sql: '(r.due >= ? AND r.due < ?)', params: [day, `${day}~`] };
    }
    case 'overdue': return { sql: '(r.due_at IS NOT NULL AND r.due_at < ?)', params: [now] };
    default: { const never: never = due; throw new Error(`no due ${String(never)}`); }
  }
}

/** Where the asker's names stand: `me` is the asker; a name is an agent's slug or a person's name. */
function whoCondition(d: Dialect, value: string, who: Who, column: 'owners' | 'lease', now: number): Condition {
  const ids = isMe(value) ? [who.id] : [`agent:${value}`, `person:${value}`];
  if (column === 'owners') {
    return { sql: `(${ids.map(() => d.arrayHas('r.owners')).join(' OR ')})`, params: ids };
  }
  // A holder is one whose lease has not run out: the lease's Who is kept as JSON text.
  return {
    sql: `(r.lease_until IS NOT NULL AND r.lease_until > ? AND (${ids.map(() => "r.lease_by LIKE ? ESCAPE '\\'").join(' OR ')}))`,
    params: [now, ...ids.map((id) => `%"id":${JSON.stringify(id).replace(/[%_\\]/g, '\\$&')}%`)],
  };
}

function termCondition(d: Dialect, term: QueryTerm, lists: List[], who: Who, now: number): Condition {
  switch (term.key) {
    case 'word': case 'phrase': {
      const { words } = searchTerms(term.text);
      if (words.length === 0) return { sql: '1 = 1', params: [] };
      if (term.key === 'phrase' && words.length > 1) return d.text.holds(words, true);
      const each = words.map((w) => d.text.holds([w], false));
      return { sql: `(${each.map((c) => c.sql).join(' AND ')})`, params: each.flatMap((c) => c.params) };
    }
    case 'state': return perList(lists, 'r.state', (l) => l.states.filter((s) => s.id === term.value || same(s.name, term.value)).map((s) => s.id));
    case 'list': return perList(lists, 'r.list', (l) => (l.id === term.value || same(l.title, term.value) ? [l.id] : []));
    case 'label': return labelCondition(d, lists, term.value);
    case 'owner': return whoCondition(d, term.value, who, 'owners', now);
    case 'held': return whoCondition(d, term.value, who, 'lease', now);
    case 'approved': return { sql: term.value ? 'r.approved_by IS NOT NULL' : 'r.approved_by IS NULL', params: [] };
    case 'due': return dueCondition(term, now);
    case 'field': return fieldCondition(d, lists, term.name, term.value);
    // Archived records are let in by the caller; the term keeps only them.
    case 'is': return { sql: 'r.archived = 1', params: [] };
    default: { const never: never = term; throw new Error(`no term ${String(never)}`); }
  }
}

/** Whether the query asks for archived records (is:archived, not negated, in some group). */
export const asksArchived = (query: Query): boolean => query.any.some((g) => g.some((t) => t.key === 'is' && !t.not));

/** The query as one condition over `records r`: its groups ORed, each group's terms ANDed. */
export function queryCondition(d: Dialect, query: Query, lists: List[], who: Who, now: number): Condition {
  if (query.any.length === 0) return { sql: '1 = 1', params: [] };
  const groups = query.any.map((group) => {
    const terms = group.map((term) => {
      const c = termCondition(d, term, lists, who, now);
      return { sql: term.not ? `NOT COALESCE(${c.sql}, 0 = 1)` : c.sql, params: c.params };
    });
    return { sql: `(${terms.map((t) => t.sql).join(' AND ')})`, params: terms.flatMap((t) => t.params) };
  });
  return { sql: `(${groups.map((g) => g.sql).join(' OR ')})`, params: groups.flatMap((g) => g.params) };
}
