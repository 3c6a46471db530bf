/**
 * Records that need others done first: `needs` (and its removal), what `get` names both ways,
 * what waits on what (`ready --blocked`), and telling a waiting record's holder and owners when
 * the last record it needed is done. Done is the list's last state, as `ready` has it. A need
 * is set only between records the asker may change, on a record no other agent holds, and never
 * closes a circle; a record the asker cannot see is never named to it.
 */
import { findList, findRecord, listFor, notArchived, recordNumber, visibleListRows } from './access.js';
import { iso, type Context } from './context.js';
import { forChange } from './leases.js';
import { childrenWaitedOn, undone, waitsOnSomething } from './needs-sql.js';
import { LINK_COLUMNS, linkOf, recordLinks, seen, seenLists, type LinkRow } from './record-links.js';
import { recordColumns, recordOf, type RecordRow } from './rows.js';
import type { BlockedPage, BlockedRecord, NeedsChanged } from './together-types.js';
import type { List, State, Who } from './types.js';
import { sentence, step, type Sentence, type Step } from './sentence.js';
import { refusal, refusalSaid, type RefusalWords } from './words/index.js';

/** A record needs at most this many others: past it, a list of steps is a list of its own. */
export const NEEDS_MAX = 100;
const PAGE = 20;
const COUNT_MAX = 1000;


/** Whether the asker may see record `id`: a record they cannot see is never named to them. */
const visible = async (ctx: Context, id: number, lists: Set<string> | null): Promise<boolean> => {
  const list = (await ctx.q.value('SELECT list FROM records WHERE id = ?', [id])) as string | undefined;
  return list !== undefined && seen(lists, list);
};

/** The way from `from` to `to` along needs (each step a record and one it needs), or null. */
export async function pathAlongNeeds(ctx: Context, from: number, to: number): Promise<number[] | null> {
  const cameFrom = new Map<number, number>([[from, from]]);
  let wave = [from];
  while (wave.length > 0) {
    const after: number[] = [];
    for (const at of wave) {
      for (const needed of await ctx.q.column<number>('SELECT needed FROM needs WHERE record = ? ORDER BY needed', [at])) {
        if (cameFrom.has(needed)) continue;
        cameFrom.set(needed, at);
        if (needed === to) {
          const path = [to];
          for (let step = at; step !== from; step = cameFrom.get(step)!) path.unshift(step);
          path.unshift(from);
          return path;
        }
        after.push(needed);
      }
    }
    wave = after;
  }
  return null;
}

async function refuseCircle(ctx: Context, record: number, other: number, path: number[], who: Who): Promise<never> {
  const lists = await seenLists(ctx, who);
  // The circle: record needs other, and other leads back to record along `path`.
  const circle = [record, ...path];
  const shown = new Set<number>();
  for (const id of circle) if (await visible(ctx, id, lists)) shown.add(id);
  // `#12`, or words that name no record, for one the asker cannot see.
  const said = (w: RefusalWords, id: number): string | Sentence => (shown.has(id) ? `#${id}` : w.recordUnseen());
  const steps = (w: RefusalWords): Sentence =>
    circle.slice(0, -1).flatMap((id, i) => sentence`${i ? ', ' : ''}${said(w, id)} ${w.needsWord()} ${said(w, circle[i + 1]!)}`);
  // A need of the circle the asker may see both ends of, to suggest taking away.
  let hint: Step | undefined;
  for (let i = 1; i < circle.length - 1; i++) {
    const a = circle[i]!;
    const b = circle[i + 1]!;
    if (!shown.has(a) || !shown.has(b)) continue;
    hint = step('needs', { id: a, others: String(b), remove: true });
    break;
  }
  throw refusalSaid((w) => w.needsCircle(record, other, steps(w), hint));
}

/** `others` given as numbers, `#12`, or words holding several (`12 14`, `12,14`). */
function numbersOf(others: readonly (number | string)[]): number[] {
  const words = others.flatMap((o) => (typeof o === 'number' ? [String(o)] : String(o).split(/[\s,]+/)))
    .filter((w) => w !== '');
  return [...new Set(words.map(recordNumber))];
}

/** Says that `ref` needs `others` done first, or (`remove`) no longer needs them. */
export async function needs(
  ctx: Context, ref: number | string, others: readonly (number | string)[], who: Who, options: { remove?: boolean } = {},
): Promise<NeedsChanged> {
  // A need changes the record that needs, so another agent's claim on it binds; not the one needed.
  const found = await forChange(ctx, ref, who);
  notArchived(found);
  const id = found.record.id;
  const ids = numbersOf(others);
  if (ids.length === 0) {
    throw refusal('needsWhich', [id], 'not-understood');
  }
  // Where changes run side by side, both ends of every need are locked first: two keepers closing
  // a circle from its two ends meet on a record, and the second, run again, sees the first's need.
  if (ctx.q.dialect.rowLocks) {
    await ctx.q.column(`SELECT id FROM records WHERE id IN (${[id, ...ids].map(() => '?').join(', ')}) ORDER BY id${ctx.q.dialect.forUpdate}`, [id, ...ids]);
  }
  const added: number[] = [];
  const removed: number[] = [];
  for (const other of ids) {
    // Write access to both lists, and a record the asker cannot see refused as an absent one.
    const that = await findRecord(ctx, other, who, 'write');
    if (options.remove) {
      if ((await ctx.q.run('DELETE FROM needs WHERE record = ? AND needed = ?', [id, other])).changes > 0) removed.push(other);
      continue;
    }
    if (other === id) {
      throw refusal('needsItself', [id]);
    }
    notArchived(that);
    const known = (await ctx.q.get('SELECT 1 FROM needs WHERE record = ? AND needed = ?', [id, other])) !== undefined;
    if (known) continue;
    const back = await pathAlongNeeds(ctx, other, id);
    if (back) await refuseCircle(ctx, id, other, back, who);
    (await ctx.q.run('INSERT INTO needs (record, needed) VALUES (?, ?)', [id, other]));
    added.push(other);
  }
  const count = (await ctx.q.value('SELECT count(*) FROM needs WHERE record = ?', [id])) as number;
  if (count > NEEDS_MAX) {
    throw refusal('needsTooMany', [NEEDS_MAX]);
  }
  if (added.length || removed.length) {
    (await ctx.q.run('UPDATE records SET updated = ? WHERE id = ?', [iso(ctx.now()), id]));
    await ctx.log(who, 'needs', found.list.id, id, options.remove ? { remove: removed } : { add: added });
  }
  const row = (await ctx.q.get(`SELECT ${recordColumns(ctx.q.dialect)} FROM records r WHERE r.id = ?`, [id])) as RecordRow;
  return { record: recordOf(row), needs: (await recordLinks(ctx, id, who, false)).needs, added, removed };
}

/** How many records `id` needs that are not done. */
const waitingOn = async (ctx: Context, id: number): Promise<number> => (await ctx.q.value(`SELECT count(*) FROM needs n
    JOIN records o ON o.id = n.needed WHERE n.record = ? AND ${undone('o', ctx.q.dialect)}`, [id])) as number;

/** The records that need `id`, if `id` is not done: those its end may free. */
export async function waitingFor(ctx: Context, id: number): Promise<number[]> {
  return (await ctx.q.column(`SELECT n.record FROM needs n JOIN records o ON o.id = n.needed
      WHERE n.needed = ? AND ${undone('o', ctx.q.dialect)} ORDER BY n.record`, [id])) as number[];
}

interface WaitingRow { id: number; list: string; state: string; owners: string; lease_by: string | null; states: string }

/**
 * Each of `waiting` that now waits on nothing gets a history row (`unblocked`) for its holder and
 * owners to be told in their brief. `need` is the record whose end freed it (null: a whole list).
 */
export async function tellFreed(ctx: Context, waiting: readonly number[], need: number | null, because: 'done' | 'deleted', who: Who): Promise<void> {
  for (const id of new Set(waiting)) {
    const row = await ctx.q.get<WaitingRow>(`SELECT r.id, r.list, r.state, r.owners, r.lease_by, l.states FROM records r
      JOIN lists l ON l.id = r.list WHERE r.id = ?`, [id]);
    if (!row || await waitingOn(ctx, id) > 0) continue;
    const states = JSON.parse(row.states) as State[];
    if (states[states.length - 1]?.id === row.state) continue;
    const tell = new Set(JSON.parse(row.owners) as string[]);
    if (row.lease_by) tell.add((JSON.parse(row.lease_by) as Who).id);
    await ctx.log(who, 'unblocked', row.list, id, { need, because, tell: [...tell] });
  }
}

/** After `id` moved from `before` to a new state: if it is done now, what waited on it may be free. */
export async function afterMove(ctx: Context, id: number, before: string, who: Who): Promise<void> {
  const row = (await ctx.q.get('SELECT r.state, l.states FROM records r JOIN lists l ON l.id = r.list WHERE r.id = ?', [id])) as { state: string; states: string } | undefined;
  if (!row || row.state === before) return;
  const states = JSON.parse(row.states) as State[];
  if (states[states.length - 1]?.id !== row.state) return;
  const needers = (await ctx.q.column('SELECT record FROM needs WHERE needed = ? ORDER BY record', [id])) as number[];
  await tellFreed(ctx, needers, id, 'done', who);
}

/** The lists `ready --blocked` reads: one, or every list the asker can change. */
async function listsFor(ctx: Context, listRef: string | undefined, who: Who): Promise<List[]> {
  if (listRef !== undefined && listRef.trim() !== '') return [(await findList(ctx, listRef, who, 'write')).list].filter((l) => !l.archived);
  const out: List[] = [];
  for (const row of await visibleListRows(ctx, who, false)) if (row.level === 'write') out.push(await listFor(ctx, row, who, row.level));
  return out;
}

/** The records `id` waits on that are not done: what it needs, or (`children`) the records under it. */
async function waitedOn(ctx: Context, id: number, children: boolean): Promise<LinkRow[]> {
  const d = ctx.q.dialect;
  return ctx.q.all<LinkRow>(children
    ? `SELECT ${LINK_COLUMNS} FROM records o JOIN lists ol ON ol.id = o.list WHERE o.id IN (${childrenWaitedOn(d)}) ORDER BY o.id`
    : `SELECT ${LINK_COLUMNS} FROM needs n JOIN records o ON o.id = n.needed
        JOIN lists ol ON ol.id = o.list WHERE n.record = ? AND ${undone('o', d)} ORDER BY o.id`, [id]);
}

/** One record that waits, with what it waits on that the asker may see, and how many more it may not. */
async function blockedRecord(ctx: Context, row: RecordRow, list: List, lists: Set<string> | null): Promise<BlockedRecord> {
  const needs = await waitedOn(ctx, row.id, false);
  const children = list.childrenFirst ? await waitedOn(ctx, row.id, true) : [];
  const hiddenChildren = children.filter((l) => !seen(lists, l.list)).length;
  return {
    record: recordOf(row),
    waitsOn: needs.filter((l) => seen(lists, l.list)).map(linkOf),
    hidden: needs.filter((l) => !seen(lists, l.list)).length,
    ...(children.length > 0 ? { children: children.filter((l) => seen(lists, l.list)).map(linkOf) } : {}),
    ...(hiddenChildren > 0 ? { hiddenChildren } : {}),
  };
}

/**
 * What waits on what: per list, the open records that wait on a record not done (one they need,
 * or, where the list says children first, one under them), oldest first.
 */
export async function blocked(ctx: Context, listRef: string | undefined, who: Who, options: { limit?: number } = {}): Promise<BlockedPage> {
  const limit = Math.max(1, Math.min(1000, Math.floor(options.limit ?? PAGE)));
  const lists = await seenLists(ctx, who);
  const out: BlockedPage = { lists: [] };
  for (const list of await listsFor(ctx, listRef, who)) {
    const which = `r.list = ? AND r.archived = 0 AND r.state <> ? AND ${waitsOnSomething(ctx.q.dialect, list)}`;
    const params = [list.id, list.states[list.states.length - 1]!.id];
    const total = (await ctx.q.value<number>(`SELECT count(*) FROM (SELECT 1 FROM records r WHERE ${which} LIMIT ${COUNT_MAX + 1}) AS w`, params))!;
    const records: BlockedRecord[] = [];
    for (const row of await ctx.q.all<RecordRow>(`SELECT ${recordColumns(ctx.q.dialect)} FROM records r WHERE ${which} ORDER BY r.id LIMIT ?`, [...params, limit])) {
      records.push(await blockedRecord(ctx, row, list, lists));
    }
    out.lists.push({ list: list.id, title: list.title, records, total: Math.min(total, COUNT_MAX), ...(total > COUNT_MAX ? { atLeast: true as const } : {}) });
  }
  return out;
}
