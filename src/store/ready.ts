/**
 * What an asker may start now: records of lists it can change, approved where the list has a
 * gate, not in the list's last state (its "done"), held by nobody and owned by nobody else,
 * not archived, waiting on no record that is not done (nor, where its list says so, on a child not
 * done); of those, what a query finds where one is given (query.ts, as show and search read it).
 * First by a field named priority (a choice: its earlier choices first; a number: higher first),
 * then oldest first. Reading only: the caller lapses old claims before.
 */
import { findList, listFor, visibleListRows } from './access.js';
import type { Context } from './context.js';
import { waitsOnNothing } from './needs-sql.js';
import type { Dialect } from './dialect/dialect.js';
import { inList } from './dialect/json.js';
import { parseQuery } from './query.js';
import { queryCondition, type Condition } from './query-sql.js';
import { indexMarked } from './text-index.js';
import { recordColumns, recordOf, type RecordRow } from './rows.js';
import { slug } from './slug.js';
import type { ReadyList, ReadyPage } from './together-types.js';
import type { Field, List, RecordSummary, Who } from './types.js';

const PRIORITY_NAMES = ['priority', 'priorite'];
const PAGE = 20;

/** How many ready records of each list, and only those a query of the query language finds. */
export interface ReadyOptions { limit?: number; query?: string }

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
 * Which records are ready, read (on SQLite) through `records_open` (a list's open, unclaimed
 * records in id order), so that a page and a capped count stop early instead of reading the whole
 * list. With its parameters, in order.
 */
function where(d: Dialect, list: List, who: Who, narrow?: Condition): Condition {
  const gated = list.states.some((s) => s.gate);
  const states = startStates(list);
  return {
    sql: `r.list = ? AND r.archived = 0 AND r.lease_by IS NULL
    AND ${inList('r.state', states.length)}
    ${gated ? 'AND r.approved_by IS NOT NULL' : ''}
    AND NOT ${d.arrayHasOther('r.owners')}
    AND ${waitsOnNothing(d, list)}${narrow ? ` AND ${narrow.sql}` : ''}`,
    params: [list.id, ...states, who.id, ...(narrow?.params ?? [])],
  };
}

/** The records of a list, by the index that reads them in id order where the engine takes a hint. */
const fromRecords = (d: Dialect, index = 'records_open'): string => `FROM ${d.readBy('records', 'r', index)}`;

/**
 * The ready records of one list, at most `limit`, in the order to take them. `lock`: on
 * PostgreSQL, the rows are locked for this transaction, and rows another transaction locked are
 * passed over (`take --next` by two keepers at once never gives one record twice).
 */
export async function readyRows(ctx: Context, list: List, who: Who, limit: number, lock = false, narrow?: Condition): Promise<RecordRow[]> {
  const d = ctx.q.dialect;
  const field = priorityField(list);
  const { sql: cond, params } = where(d, list, who, narrow);
  const locking = lock ? d.forUpdateSkipLocked : '';
  const select = (index?: string): string => `SELECT ${recordColumns(d)} ${fromRecords(d, index)} WHERE ${cond}`;
  if (field?.type === 'number') {
    // Higher first: no index holds that order, so every ready record is read and sorted.
    const number = d.asNumber(d.textAt('r.fields', field.id));
    return ctx.q.all<RecordRow>(`${select()} ORDER BY ${number} DESC NULLS LAST, r.id LIMIT ?${locking}`, [...params, limit]);
  }
  if (field?.type !== 'choice') return ctx.q.all<RecordRow>(`${select()} ORDER BY r.id LIMIT ?${locking}`, [...params, limit]);
  // A choice: its earlier choices first, each oldest first, then the records with none of them;
  // each group read in id order and only until the page is full. A field whose id is priority
  // (or priorite) is indexed by its value, so a choice no record has costs nothing either.
  const choices = field.choices ?? [];
  const indexed = PRIORITY_NAMES.includes(field.id);
  const value = indexed ? d.indexedTextAt('r.fields', field.id) : d.textAt('r.fields', field.id);
  const by = select(indexed ? `records_${field.id}` : undefined);
  const rows: RecordRow[] = [];
  for (const choice of choices) {
    if (rows.length >= limit) return rows;
    rows.push(...await ctx.q.all<RecordRow>(`${by} AND ${value} = ? ORDER BY r.id LIMIT ?${locking}`, [...params, choice, limit - rows.length]));
  }
  if (rows.length >= limit) return rows;
  // Then those with no value, and those with a value no longer among the choices (the choices
  // were changed), merged by age: the latter read as the ranges between the choices, in the
  // index's own order (bytes of UTF-8), so that none at all costs nothing.
  const need = limit - rows.length;
  const bytes = d.bytewise(value);
  const groups = [await ctx.q.all<RecordRow>(`${by} AND ${value} IS NULL ORDER BY r.id LIMIT ?${locking}`, [...params, need])];
  const bounds = [...choices].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  for (let i = 0; i <= bounds.length; i++) {
    const range = [i > 0 ? `${bytes} > ?` : '', i < bounds.length ? `${bytes} < ?` : `${value} IS NOT NULL`].filter(Boolean).join(' AND ');
    const between = [...(i > 0 ? [bounds[i - 1]] : []), ...(i < bounds.length ? [bounds[i]] : [])];
    groups.push(await ctx.q.all<RecordRow>(`${by} AND ${range} ORDER BY r.id LIMIT ?${locking}`, [...params, ...between, need]));
  }
  rows.push(...groups.flat().sort((a, b) => a.id - b.id).slice(0, need));
  return rows;
}

async function readyList(ctx: Context, list: List, who: Who, limit: number, narrow?: Condition): Promise<ReadyList> {
  const field = priorityField(list);
  const { sql: cond, params } = where(ctx.q.dialect, list, who, narrow);
  const total = (await ctx.q.value<number>(`SELECT count(*) FROM (SELECT 1 ${fromRecords(ctx.q.dialect)}
      WHERE ${cond} LIMIT ${READY_COUNT_MAX + 1}) AS ready`, params))!;
  return {
    list: list.id,
    title: list.title,
    records: (await readyRows(ctx, list, who, limit, false, narrow)).map(recordOf),
    total: Math.min(total, READY_COUNT_MAX),
    ...(total > READY_COUNT_MAX ? { atLeast: true } : {}),
    priority: field?.name ?? null,
  };
}

/** The asker's ready records, in one list or in every list it can change; of those, what `query` finds. */
export async function ready(ctx: Context, listRef: string | undefined, who: Who, options: ReadyOptions = {}): Promise<ReadyPage> {
  const limit = Math.max(1, Math.min(1000, Math.floor(options.limit ?? PAGE)));
  // Read before any list is looked at: a query that cannot be read is refused as it is.
  const query = parseQuery(options.query ?? '');
  if (query.any.length > 0) await indexMarked(ctx, true);
  const lists: List[] = [];
  let readOnly: string[] = [];
  if (listRef !== undefined && listRef.trim() !== '') {
    lists.push(...[(await findList(ctx, listRef, who, 'write')).list].filter((l) => !l.archived));
  } else {
    const rows = await visibleListRows(ctx, who, false);
    for (const row of rows) if (row.level === 'write') lists.push(await listFor(ctx, row, who, row.level));
    readOnly = rows.filter((row) => row.level !== 'write').map((row) => row.id);
  }
  // By the index of claims: the few records held, never a list's records one by one.
  const d = ctx.q.dialect;
  const holder = d.indexedTextAt('r.lease_by', 'id');
  const held = await ctx.q.all<RecordRow>(`SELECT ${recordColumns(d)} ${fromRecords(d, 'records_lease')}
      WHERE r.lease_until IS NOT NULL AND ${holder} = ?
        AND ${inList('r.list', lists.length)} ORDER BY r.lease_until, r.id`, [who.id, ...lists.map((l) => l.id)]);
  const out: ReadyList[] = [];
  for (const list of lists) {
    const narrow = query.any.length > 0 ? queryCondition(d, query, [list], who, ctx.now()) : undefined;
    out.push(await readyList(ctx, list, who, limit, narrow));
  }
  return {
    lists: out,
    held: held.map((row): RecordSummary => recordOf(row)),
    readOnly,
  };
}
