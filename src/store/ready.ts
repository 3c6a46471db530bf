/**
 * What an asker may start now: records of lists it can change, approved where the list has a
 * gate, not in the list's last state (its "done"), held by nobody and owned by nobody else,
 * not archived. First by a field named priority (a choice: its earlier choices first; a number:
 * higher first), then oldest first. Reading only: the caller lapses old claims before.
 */
import { findList, listFor, visibleListRows } from './access.js';
import type { Context } from './context.js';
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

function where(list: List): string {
  const gated = list.states.some((s) => s.gate);
  return `r.list = @list AND r.archived = 0
    AND r.state IN (SELECT value FROM json_each(@states))
    ${gated ? 'AND r.approved_by IS NOT NULL' : ''}
    AND r.lease_by IS NULL
    AND NOT EXISTS (SELECT 1 FROM json_each(r.owners) o WHERE o.value <> @who)`;
}

function order(field: Field | null): string {
  if (field?.type === 'choice') {
    return `COALESCE((SELECT p.key FROM json_each(@choices) p WHERE p.value = json_extract(r.fields, @path)), 1000000), r.id`;
  }
  if (field?.type === 'number') return 'CAST(json_extract(r.fields, @path) AS REAL) DESC NULLS LAST, r.id';
  return 'r.id';
}

const params = (list: List, who: Who, field: Field | null) => ({
  list: list.id,
  states: JSON.stringify(startStates(list)),
  who: who.id,
  ...(field ? { path: `$."${field.id}"` } : {}),
  ...(field?.type === 'choice' ? { choices: JSON.stringify(field.choices ?? []) } : {}),
});

/** The ready records of one list, in the order to take them. */
export function readyRows(ctx: Context, list: List, who: Who, limit: number, offset: number): RecordRow[] {
  const field = priorityField(list);
  return ctx.db.prepare(`SELECT ${RECORD_COLUMNS} FROM records r WHERE ${where(list)}
      ORDER BY ${order(field)} LIMIT @limit OFFSET @offset`)
    .all({ ...params(list, who, field), limit, offset }) as RecordRow[];
}

function readyList(ctx: Context, list: List, who: Who, limit: number): ReadyList {
  const field = priorityField(list);
  const total = ctx.db.prepare(`SELECT count(*) FROM records r WHERE ${where(list)}`).pluck()
    .get({ ...params(list, who, null) }) as number;
  return {
    list: list.id,
    title: list.title,
    records: readyRows(ctx, list, who, limit, 0).map(recordOf),
    total,
    priority: field?.name ?? null,
  };
}

/** The asker's ready records, in one list or in every list it can change. */
export function ready(ctx: Context, listRef: string | undefined, who: Who, options: { limit?: number } = {}): ReadyPage {
  const limit = Math.max(1, Math.min(1000, Math.floor(options.limit ?? PAGE)));
  let lists: List[];
  if (listRef !== undefined && listRef.trim() !== '') {
    lists = [findList(ctx, listRef, who, 'write').list].filter((l) => !l.archived);
  } else {
    lists = visibleListRows(ctx, who, false).filter((row) => row.level === 'write').map((row) => listFor(ctx, row, who, row.level));
  }
  const held = ctx.db.prepare(`SELECT ${RECORD_COLUMNS} FROM records r
      WHERE r.lease_until IS NOT NULL AND json_extract(r.lease_by, '$.id') = @who
        AND r.list IN (SELECT value FROM json_each(@lists)) ORDER BY r.lease_until, r.id`)
    .all({ who: who.id, lists: JSON.stringify(lists.map((l) => l.id)) }) as RecordRow[];
  return {
    lists: lists.map((list) => readyList(ctx, list, who, limit)),
    held: held.map((row): RecordSummary => recordOf(row)),
  };
}
