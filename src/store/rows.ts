/**
 * Turning the database's rows into the binder's shapes (types.ts). Reading only: nothing here
 * writes, and nothing here decides who may see what.
 */
import type { Sql } from './sql/port.js';
import type { Dialect } from './dialect/dialect.js';
import { blockedColumn } from './needs-sql.js';
import type {
  Access, Attachment, AttachKind, Field, List, LogRow, Note, RecordSummary, State, View, Who,
} from './types.js';

export interface ListRow {
  id: string; title: string; states: string; fields: string; view: string;
  archived: number; position: number; created: string; updated: string;
  /** 1: a parent of the list is ready only once its children are done. */
  children_first: number;
}

export interface RecordRow {
  id: number; list: string; title: string; state: string;
  approved_by: string | null; approved_at: string | null;
  fields: string; owners: string; due: string | null; due_at: number | null; due_told: number;
  archived: number; created: string; updated: string;
  lease_by?: string | null; lease_until?: number | null;
  note_count?: number; attach_count?: number; blocked_by?: number;
}

const NOTE_COUNT = '(SELECT count(*) FROM notes n WHERE n.record = r.id) AS note_count';
const columns = (d: Dialect): string => `r.*,
  ${NOTE_COUNT},
  (SELECT count(*) FROM attachments a WHERE a.record = r.id) AS attach_count,
  ${blockedColumn(d)}`;
const COLUMNS = new WeakMap<Dialect, string>();

/**
 * Columns of a record with its count of notes alone, for a statement that reads its attachments
 * and its needs whole beside it (a record's page in one statement), which count them: each count
 * read again costs the server a subquery of its own at every page (~10 and ~30 µs, bench/postgres-page).
 */
export const RECORD_COLUMNS_BESIDE = `r.*, ${NOTE_COUNT}`;

/** A record's own columns alone, no count: for a change whose answer shows nothing of the record. */
export const RECORD_OWN_COLUMNS = 'r.*';

/** Columns of a record with its counts of notes, attachments and needs not done, for `FROM records r`. */
export function recordColumns(d: Dialect): string {
  let said = COLUMNS.get(d);
  if (said === undefined) COLUMNS.set(d, (said = columns(d)));
  return said;
}

/** A list's own columns (ListRow's), each said as `list_<name>`, for a list joined as `l`. */
const LIST_NAMES = ['title', 'states', 'fields', 'view', 'archived', 'position', 'created', 'updated', 'children_first'] as const;
export const listColumnsAs = LIST_NAMES.map((name) => `l.${name} AS list_${name}`).join(', ');

const LIST_KEYS = new Map<string, string>(LIST_NAMES.map((name) => [`list_${name}`, name]));

/**
 * The list read beside a record (`listColumnsAs`), as its own row; the record's row without it
 * nor the columns named `aside`, which are given apart. One pass: a copy of the joined row (some
 * thirty columns) then a delete of each list column cost ~8 µs a record look, and every ask about a
 * record makes one.
 */
export function splitListRow<R extends { list: string }>(joined: R, aside: readonly string[] = []): { row: R; list: ListRow; aside: Record<string, unknown> } {
  const columns = joined as unknown as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  const list: Record<string, unknown> = { id: joined.list };
  const apart: Record<string, unknown> = {};
  for (const key in columns) {
    const name = LIST_KEYS.get(key);
    if (name !== undefined) list[name] = columns[key];
    else if (aside.includes(key)) apart[key] = columns[key];
    else row[key] = columns[key];
  }
  return { row: row as R, list: list as unknown as ListRow, aside: apart };
}

/**
 * A list's states and fields as last read, by list, with the text they were read from: every ask
 * about a record reads its list's, and parsing them again was the store's largest own cost in a
 * note (~7 µs of the keeper's ~400: a profile of a keeper on PostgreSQL under notes over REST, built
 * with BINDER_BUILD_NAMES=lines). Frozen: every answer that read the same text shares them, and
 * none may change them for the others.
 */
const STATES = new Map<string, { text: string; value: State[] }>();
const FIELDS = new Map<string, { text: string; value: Field[] }>();
/** Lists whose parsed states and fields are kept at most: a binder has a few dozen. */
const LISTS_KEPT = 1000;

function parsedOnce<T>(kept: Map<string, { text: string; value: T[] }>, list: string, text: string): T[] {
  const known = kept.get(list);
  if (known !== undefined && known.text === text) return known.value;
  const value = frozen(JSON.parse(text) as T[]);
  if (kept.size >= LISTS_KEPT) kept.clear();
  kept.set(list, { text, value });
  return value;
}

function frozen<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

export function listOf(row: ListRow, access: Record<string, Access>): List {
  return {
    id: row.id,
    title: row.title,
    states: parsedOnce(STATES, row.id, row.states),
    fields: parsedOnce(FIELDS, row.id, row.fields),
    view: row.view as View,
    archived: row.archived === 1,
    access,
    created: row.created,
    updated: row.updated,
    ...(Number(row.children_first) === 1 ? { childrenFirst: true } : {}),
  };
}

export async function accessOf(q: Sql, list: string): Promise<Record<string, Access>> {
  const rows = await q.all<{ agent: string; level: Access }>('SELECT agent, level FROM access WHERE list = ? ORDER BY agent', [list]);
  const out: Record<string, Access> = {};
  for (const r of rows) out[r.agent] = r.level;
  return out;
}

export function recordOf(row: RecordRow): RecordSummary {
  return {
    id: row.id,
    list: row.list,
    title: row.title,
    state: row.state,
    approved: row.approved_by && row.approved_at
      ? { by: JSON.parse(row.approved_by) as Who, at: row.approved_at }
      : null,
    fields: JSON.parse(row.fields) as Record<string, string>,
    owners: JSON.parse(row.owners) as string[],
    due: row.due,
    archived: row.archived === 1,
    ...(row.lease_by && row.lease_until != null
      ? { lease: { by: JSON.parse(row.lease_by) as Who, until: new Date(row.lease_until).toISOString() } }
      : {}),
    ...(row.blocked_by ? { blocked: row.blocked_by } : {}),
    attached: row.attach_count ?? 0,
    notes: row.note_count ?? 0,
    created: row.created,
    updated: row.updated,
  };
}

export interface NoteRow { id: number; record: number; at: string; by: string; text: string; edited: number }
export interface AttachmentRow { id: number; record: number; kind: string; ref: string; title: string; at: string; by: string }
export interface LogRowRaw { id: number; at: string; by: string; op: string; list: string | null; record: number | null; change: string | null }

export const noteOf = (r: NoteRow): Note =>
  ({ id: r.id, at: r.at, by: JSON.parse(r.by) as Who, text: r.text, edited: r.edited === 1 });

export const attachmentOf = (r: AttachmentRow): Attachment =>
  ({ id: r.id, kind: r.kind as AttachKind, ref: r.ref, title: r.title, at: r.at, by: JSON.parse(r.by) as Who });

export const logOf = (r: LogRowRaw): LogRow => ({
  id: r.id, at: r.at, by: JSON.parse(r.by) as Who, op: r.op, list: r.list, record: r.record,
  change: r.change === null ? null : (JSON.parse(r.change) as unknown),
});
