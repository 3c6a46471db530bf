/**
 * What an asker may start now: records of lists it can change, approved where the list has a
 * gate, not in the list's last state (its "done"), held by nobody and owned by nobody else,
 * not archived, waiting on no record that is not done. First by a field named priority (a choice: its earlier choices first; a number:
 * higher first), then oldest first. Reading only: the caller lapses old claims before.
 */
import { findList, listFor, visibleListRows } from './access.js';
import type { Context } from './context.js';
import { NOT_BLOCKED } from './needs-sql.js';
import { RECORD_COLUMNS, recordOf, type RecordRow } from './rows.js';
import { slug } from './slug.js';
import type { ReadyList, ReadyPage } from './together-types.js';
import type { Field, List, RecordSummary, Who } from './types.js';

const PRIORITY_NAMES = ['priority', 'priorite'];
const PAGE = 20;

/** The list's field that orders its ready records, if it has one. */
export function priorityField(list: List): Field | null {
  return list.fields.find((f) => (f.type === 'choice' || f.type === 'number')
    && (PRIORITY_NAMES.includes(f.id) || PRIORITY_NAMES.includes(slug(f.name)))) ?? null;
}

/** The states a record may be started from: all but the last, where work ends. */
const startStates = (list: List): string[] =>
  (list.states.length > 1 ? list.states.slice(0, -1) : list.states).map((s) => s.id);

/** Counting the ready records of a list stops here: past it, "more than" is all an asker needs. */
export const READY_COUNT_MAX = 1000;

/**
 * Which records are ready, read through `records_open` (a list's open, unclaimed records in id
 * order), so that a page and a capped count stop early instead of reading the whole list.
 */
function where(list: List): string {
  const gated = list.states.some((s) => s.gate);
  return `r.list = @list AND r.archived = 0 AND r.lease_by IS NULL
    AND r.state IN (SELECT value FROM json_each(@states))
    ${gated ? 'AND r.approved_by IS NOT NULL' : ''}
    AND NOT EXISTS (SELECT 1 FROM json_each(r.owners) o WHERE o.value <> @who)
    AND ${NOT_BLOCKED}`;
}

const params = (list: List, who: Who) => ({
  list: list.id,
  states: JSON.stringify(startStates(list)),
  who: who.id,
});

/** The ready records of one list, at most `limit`, in the order to take them. */
export function readyRows(ctx: Context, list: List, who: Who, limit: number): RecordRow[] {
  const field = priorityField(list);
  const base = { ...params(list, who), limit };
  const select = `SELECT ${RECORD_COLUMNS} FROM records r INDEXED BY records_open WHERE ${where(list)}`;
  if (field?.type === 'number') {
    // Higher first: no index holds that order, so every ready record is read and sorted.
    return ctx.db.prepare(`${select} ORDER BY CAST(json_extract(r.fields, @path) AS REAL) DESC NULLS LAST, r.id LIMIT @limit`)
      .all({ ...base, path: `$."${field.id}"` }) as RecordRow[];
  }
  if (field?.type !== 'choice') return ctx.db.prepare(`${select} ORDER BY r.id LIMIT @limit`).all(base) as RecordRow[];
  // A choice: its earlier choices first, each oldest first, then the records with none of them;
  // each group read in id order and only until the page is full. A field whose id is priority
  // (or priorite) is indexed by its value, so a choice no record has costs nothing either.
  const choices = field.choices ?? [];
  const indexed = PRIORITY_NAMES.includes(field.id);
  const value = indexed ? `json_extract(r.fields, '$.${field.id}')` : 'json_extract(r.fields, @path)';
  const by = indexed ? select.replace('records_open', `records_${field.id}`) : select;
  const path = `$."${field.id}"`;
  const rows: RecordRow[] = [];
  const ofChoice = ctx.db.prepare(`${by} AND ${value} = @choice ORDER BY r.id LIMIT @limit`);
  for (const choice of choices) {
    if (rows.length >= limit) return rows;
    rows.push(...(ofChoice.all({ ...base, path, choice, limit: limit - rows.length }) as RecordRow[]));
  }
  if (rows.length >= limit) return rows;
  // Then those with no value, and those with a value no longer among the choices (the choices
  // were changed), merged by age: the latter read as the ranges between the choices, in the
  // index's own order (bytes of UTF-8), so that none at all costs nothing.
  const need = limit - rows.length;
  const rest = { ...base, path, limit: need };
  const groups = [ctx.db.prepare(`${by} AND ${value} IS NULL ORDER BY r.id LIMIT @limit`).all(rest) as RecordRow[]];
  const bounds = [...choices].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  for (let i = 0; i <= bounds.length; i++) {
    const range = [i > 0 ? `${value} > @low` : '', i < bounds.length ? `${value} < @high` : `${value} IS NOT NULL`].filter(Boolean).join(' AND ');
    groups.push(ctx.db.prepare(`${by} AND ${range} ORDER BY r.id LIMIT @limit`)
      .all({ ...rest, ...(i > 0 ? { low: bounds[i - 1] } : {}), ...(i < bounds.length ? { high: bounds[i] } : {}) }) as RecordRow[]);
  }
  rows.push(...groups.flat().sort((a, b) => a.id - b.id).slice(0, need));
  return rows;
}

function readyList(ctx: Context, list: List, who: Who, limit: number): ReadyList {
  const field = priorityField(list);
  const total = ctx.db.prepare(`SELECT count(*) FROM (SELECT 1 FROM records r INDEXED BY records_open
      WHERE ${where(list)} LIMIT ${READY_COUNT_MAX + 1})`).pluck().get(params(list, who)) as number;
  return {
    list: list.id,
    title: list.title,
    records: readyRows(ctx, list, who, limit).map(recordOf),
    total: Math.min(total, READY_COUNT_MAX),
    ...(total > READY_COUNT_MAX ? { atLeast: true } : {}),
    priority: field?.name ?? null,
  };
}

/** The asker's ready records, in one list or in every list it can change. */
export function ready(ctx: Context, listRef: string | undefined, who: Who, options: { limit?: number } = {}): ReadyPage {
  const limit = Math.max(1, Math.min(1000, Math.floor(options.limit ?? PAGE)));
  let lists: List[];
  let readOnly: string[] = [];
  if (listRef !== undefined && listRef.trim() !== '') {
    lists = [findList(ctx, listRef, who, 'write').list].filter((l) => !l.archived);
  } else {
    const rows = visibleListRows(ctx, who, false);
    lists = rows.filter((row) => row.level === 'write').map((row) => listFor(ctx, row, who, row.level));
    readOnly = rows.filter((row) => row.level !== 'write').map((row) => row.id);
  }
  // By the index of claims: the few records held, never a list's records one by one.
  const held = ctx.db.prepare(`SELECT ${RECORD_COLUMNS} FROM records r INDEXED BY records_lease
      WHERE r.lease_until IS NOT NULL AND json_extract(r.lease_by, '$.id') = @who
        AND r.list IN (SELECT value FROM json_each(@lists)) ORDER BY r.lease_until, r.id`)
    .all({ who: who.id, lists: JSON.stringify(lists.map((l) => l.id)) }) as RecordRow[];
  return {
    lists: lists.map((list) => readyList(ctx, list, who, limit)),
    held: held.map((row): RecordSummary => recordOf(row)),
    readOnly,
  };
}
