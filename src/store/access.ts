/**
 * Who may see and change what: finding a list or a record by its ref as the asker may see it.
 * An agent must never learn of a list it was not granted, so a hidden list or record is
 * refused in exactly the words used for an absent one.
 */
import { Refused } from './store.js';
import type { Context } from './context.js';
import { accessOf, listColumnsAs, listOf, RECORD_OWN_COLUMNS, recordColumns, recordOf, splitListRow, type ListRow, type RecordRow } from './rows.js';
import { readRecordNumber } from './record-number.js';
import { slug } from './slug.js';
import type { Access, List, RecordSummary, Who } from './types.js';
import type { Sentence } from './sentence.js';
import { refusal, refusalSaid, type Language, type RefusalWords } from './words/index.js';

export type Need = 'read' | 'write';

export const noList = (ref: string): Refused =>
  refusal('noList', [ref], 'access');
export const noRecord = (ref: string | number): Refused => {
  const n = String(ref).replace(/^#/, '');
  return refusal('noRecord', [n], 'access');
};
const readOnly = (title: string): Refused =>
  refusal('readOnly', [title], 'access');

export function isPerson(who: Who): boolean {
  if (who.kind === 'person') return true;
  if (who.kind === 'agent') return false;
  throw new Error(`who.kind must be person or agent, not ${String(who.kind)}`);
}

/**
 * Refuses an agent an operation that is a person's alone, `binder admin VERB`. `doing` says it in
 * each language, completing "Only a person can …" and « Seule une personne peut … ».
 */
export function personOnly(who: Who, verb: string, doing: (words: RefusalWords, language: Language) => string | Sentence): void {
  if (!isPerson(who)) throw refusalSaid((w, language) => w.personOnly(doing(w, language), verb), 'access');
}

/** The lists `who` can see, with their access: all of them for a person. */
export async function visibleListRows(ctx: Context, who: Who, archived = true): Promise<(ListRow & { level: Access })[]> {
  if (isPerson(who)) {
    const rows = (await ctx.q.all(`SELECT *, 'write' AS level FROM lists ${archived ? '' : 'WHERE archived = 0'}
      ORDER BY position, title`)) as (ListRow & { level: Access })[];
    return rows;
  }
  return (await ctx.q.all(`SELECT l.*, a.level FROM lists l JOIN access a ON a.list = l.id AND a.agent = ?
    WHERE l.archived = 0 ORDER BY l.position, l.title`, [who.id])) as (ListRow & { level: Access })[];
}

/** The list an agent may see: its own access only, never the others' (not even read: a person's alone). */
export async function listFor(ctx: Context, row: ListRow, who: Who, level: Access): Promise<List> {
  return listOf(row, isPerson(who) ? await accessOf(ctx.q, row.id) : { [who.id]: level });
}

/** A list by id, title (any case) or the slug of the ref, as `who` may see it. */
export async function findList(ctx: Context, ref: string, who: Who, need: Need): Promise<{ list: List; access: Access }> {
  const given = String(ref).trim();
  const rows = await visibleListRows(ctx, who);
  const lower = given.toLowerCase();
  const row = rows.find((r) => r.id === given)
    ?? rows.find((r) => r.title.toLowerCase() === lower)
    ?? rows.find((r) => r.id === slug(given));
  if (!row) throw noList(given);
  if (need === 'write' && row.level !== 'write') throw readOnly(row.title);
  return { list: await listFor(ctx, row, who, row.level), access: row.level };
}

/** `12`, `"12"`, `"#12"` → 12; anything else is refused. */
export function recordNumber(ref: number | string): number {
  const n = readRecordNumber(ref);
  if (n !== null) return n;
  const shown = String(ref).trim().slice(0, 40);
  throw refusal('notARecordNumber', [shown], 'not-understood');
}

export async function recordRow(ctx: Context, id: number): Promise<RecordRow | undefined> {
  return (await ctx.q.get(`SELECT ${recordColumns(ctx.q.dialect)} FROM records r WHERE r.id = ?`, [id])) as RecordRow | undefined;
}

export interface Found {
  record: RecordSummary; row: RecordRow; list: List; access: Access;
  /** The columns asked for besides (findRecord's `also`), by name. */
  also?: Record<string, unknown>;
}

/** The asker's access, read beside the record and no column of its row. */
const LEVEL_ASIDE = ['list_level'];

/**
 * A record as `who` may see it (and change it, if `need` is write). `also`: columns more of
 * `records r` by name, read in the same statement and given back apart, whoever may see them (a
 * caller asks there for what it would otherwise ask next, and uses it once the record is found).
 * `own`: the record's columns, its counts with them (recordColumns); fewer where `also` reads
 * what they count, and the caller counts it there.
 */
export async function findRecord(
  ctx: Context, ref: number | string, who: Who, need: Need, also?: Record<string, string>, own = recordColumns(ctx.q.dialect),
): Promise<Found> {
  const { row, list, access, aside } = await lookUp(ctx, ref, who, need, own, also);
  return { record: recordOf(row), row, list, access, ...(also ? { also: aside } : {}) };
}

/** A record found for a change whose answer shows nothing of it: what the change's rules read. */
export interface FoundToChange { record: { id: number; archived: boolean }; list: List }

/**
 * A record as `who` may change it (as findRecord, `need` write), where the change answers with
 * something else (a note): none of its counts is read. Counting a record's notes costs the server
 * more the more notes it has, at every note on it (PostgreSQL, 16 clients, records of ~40 notes:
 * 0.84× the processor time a note without them, bench/postgres-cpu.mjs; docs/performance.md).
 */
export async function findRecordToChange(ctx: Context, ref: number | string, who: Who): Promise<FoundToChange> {
  const { row, list } = await lookUp(ctx, ref, who, 'write', RECORD_OWN_COLUMNS);
  return { record: { id: row.id, archived: row.archived === 1 }, list };
}

/**
 * The look's statement, made once for each `own` and `also` (the same objects each time: the
 * callers keep theirs). A statement made anew each time is a new string the engine hashes whole
 * at each of its lookups (its placeholders, its name, its rows' shape): a record's page is ~2 KB.
 */
const looks = new WeakMap<object, Map<string, string>>();
const NO_ALSO = {};
function lookStatement(own: string, also: Record<string, string> | undefined): string {
  let byOwn = looks.get(also ?? NO_ALSO);
  if (!byOwn) looks.set(also ?? NO_ALSO, (byOwn = new Map()));
  let sql = byOwn.get(own);
  if (sql === undefined) {
    const more = also ? Object.entries(also).map(([name, column]) => `, ${column} AS ${name}`).join('') : '';
    sql = `SELECT ${own}, ${listColumnsAs},
      (SELECT a.level FROM access a WHERE a.list = r.list AND a.agent = ?) AS list_level${more}
    FROM records r JOIN lists l ON l.id = r.list WHERE r.id = ?`;
    if (byOwn.size < 100) byOwn.set(own, sql);
  }
  return sql;
}

/** The record's row, list and the asker's access in one look: every ask about a record makes it. */
async function lookUp(ctx: Context, ref: number | string, who: Who, need: Need, own: string, also?: Record<string, string>) {
  const id = recordNumber(ref);
  const joined = (await ctx.q.get(lookStatement(own, also), [who.id, id])) as (RecordRow & { list_level: Access | null }) | undefined;
  if (!joined) throw noRecord(id);
  const seen = joined.list_level;
  const { row, list: listRow, aside } = splitListRow<RecordRow>(joined, also ? ['list_level', ...Object.keys(also)] : LEVEL_ASIDE);
  let level: Access = 'write';
  if (!isPerson(who)) {
    // An agent learns of no record in a list it was not given, nor in an archived one.
    if (!seen || listRow.archived !== 0) throw noRecord(id);
    level = seen;
  }
  const list = await listFor(ctx, listRow, who, level);
  if (need === 'write' && level !== 'write') throw readOnly(list.title);
  return { row, list, access: level, aside };
}

/** Refuses a change to an archived record. */
export function notArchived(found: Pick<FoundToChange, 'record'>): void {
  if (found.record.archived) {
    const id = found.record.id;
    throw refusal('archivedRecord', [id]);
  }
}
