/**
 * The brief: what changed since the asker last looked, in the lists it can see — approvals and
 * withdrawals, records added or moved by others, notes (a person is told everyone's, an agent
 * people's and those on records it holds), claims lapsed, taken away or given back, records
 * due, and (to its holder and owners) a record whose last need is done — each shown once,
 * through a place in the history kept per asker (`cursors`). It reads the history in id order
 * and stops at its page, so a long history costs no more than the page; an agent far behind is
 * told a summary. It never shows the asker its own doings (but that a record of its own waits on
 * nothing more), history brought in by an import, nor anything of a list it cannot see.
 */
import { findList, findRecord, isPerson, visibleListRows } from './access.js';
import { iso, type Context } from './context.js';
import { dueRecords } from './due-scan.js';
import type { ListRow } from './rows.js';
import { eventsOf } from './hook-queue.js';
import type { Brief, BriefCounts, BriefItem, BriefKind, BriefOptions, BriefSummary } from './together-types.js';
import type { DueRecord, Field, State, Who } from './types.js';

/** Who a record's due time is told by, in the history. */
export const CLOCK: Who = { id: 'binder:clock', kind: 'agent', name: 'Binder' };

const PAGE = 50;
/** An asker's first brief goes back this far, not to the binder's beginning. */
const FIRST_LOOK_MS = 24 * 3600_000;
/** A summary shows this many of the latest changes, and counts at most this many in all. */
const SUMMARY_LATEST = 10;
const SUMMARY_COUNT_MAX = 100_000;
/** The kinds in the order a summary says them. */
const KINDS: readonly BriefKind[] = ['added', 'moved', 'approved', 'withdrawn', 'note', 'released', 'taken-away', 'lapsed', 'due', 'unblocked'];


interface Row {
  id: number; at: string; by: string; op: string; list: string; record: number; change: string | null;
  title: string; note_text: string | null;
}

interface ListShape { states: State[]; fields: Field[] }

/** Whether the change brought the record to wait for a person's approval: the one rule the hooks' `proposed` reads too. */
function bringsToWait(row: Row, by: Who, change: Record<string, unknown>, shape: ListShape | undefined): boolean {
  return eventsOf({ op: row.op, by, change }, shape?.states ?? []).includes('proposed');
}

/** Where `who` stands in the history: its cursor, or the last row older than a day. */
async function placeOf(ctx: Context, who: Who): Promise<number> {
  const kept = (await ctx.q.value('SELECT log_id FROM cursors WHERE who = ?', [who.id])) as number | undefined;
  return kept ?? await lastBefore(ctx, iso(ctx.now() - FIRST_LOOK_MS));
}

/**
 * The last history row written before `at`, or 0. Rows are written in time order, so the rows
 * before `at` come first in id order: halving the ids finds their end in a few lookups, where
 * walking the history would read a whole day of it.
 */
async function lastBefore(ctx: Context, at: string): Promise<number> {
  // Every row up to `low` is old enough (0: none known yet); no row from `high` on is.
  let low = 0;
  let high = ((await ctx.q.value('SELECT coalesce(max(id), 0) FROM log')) as number) + 1;
  while (high - low > 1) {
    const mid = low + Math.floor((high - low) / 2);
    const row = await ctx.q.get<{ id: number; at: string }>('SELECT id, at FROM log WHERE id >= ? AND id < ? ORDER BY id LIMIT 1', [mid, high]);
    if (row && row.at < at) low = row.id;
    else high = mid; // no row in [mid, high) is old enough: those before `row` do not exist
  }
  return low;
}

function itemOf(row: Row, shapes: Map<string, ListShape>): BriefItem {
  const change = (row.change ? JSON.parse(row.change) : {}) as Record<string, unknown>;
  const shape = shapes.get(row.list);
  const name = (id: unknown): string | undefined => {
    if (typeof id !== 'string') return undefined;
    return shape?.states.find((s) => s.id === id)?.name ?? id;
  };
  const by = JSON.parse(row.by) as Who;
  const base: Omit<BriefItem, 'kind'> = { id: row.id, at: row.at, by, record: row.record, title: row.title, list: row.list };
  if (bringsToWait(row, by, change, shape)) base.waits = true;
  const item = (kind: BriefKind, more: Partial<BriefItem> = {}): BriefItem => {
    const out: BriefItem = { ...base, kind };
    for (const [key, value] of Object.entries(more)) if (value !== undefined) (out as unknown as Record<string, unknown>)[key] = value;
    return out;
  };
  switch (row.op) {
    case 'add': return item('added', { to: name(change.state) });
    case 'move': return item('moved', { from: name(change.from), to: name(change.to) });
    case 'approve': return change.approved === false
      ? item('withdrawn', { from: name(change.from), to: name(change.to) })
      : item('approved');
    case 'withdraw': {
      const fields = Array.isArray(change.fields) ? change.fields.map((id) => shape?.fields.find((f) => f.id === id)?.name ?? String(id)) : [];
      return item('withdrawn', { from: name(change.from), to: name(change.to), changed: [...(change.title ? ['title'] : []), ...fields] });
    }
    case 'note': return item('note', { text: row.note_text ?? '' });
    case 'lapse': return item('lapsed', { holder: by });
    case 'release': {
      const holder = change.holder as Who;
      return item(holder?.id === by.id ? 'released' : 'taken-away', { holder });
    }
    case 'due': return item('due', { due: typeof change.due === 'string' ? change.due : undefined });
    case 'unblocked': return item('unblocked', { need: typeof change.need === 'number' ? change.need : undefined });
    default: throw new Error(`a brief row of op ${row.op}`);
  }
}



/**
 * An agent is told a record waits on nothing more, and which record it needed last only where it
 * may see that one (`get` would show it): a record of a list hidden from it, or deleted, is not
 * named — its number would say what the list holds.
 */
async function hideUnseenNeeds(ctx: Context, who: Who, items: BriefItem[]): Promise<void> {
  if (isPerson(who)) return;
  const needs = [...new Set(items.flatMap((i) => (i.kind === 'unblocked' && i.need !== undefined ? [i.need] : [])))];
  if (needs.length === 0) return;
  const seen = new Set((await visibleListRows(ctx, who)).map((l) => l.id));
  const rows = await ctx.q.all<{ id: number; list: string }>(`SELECT id, list FROM records WHERE id IN (${needs.map(() => '?').join(', ')})`, needs);
  const shown = new Set(rows.filter((r) => seen.has(r.list)).map((r) => Number(r.id)));
  for (const item of items) if (item.kind === 'unblocked' && item.need !== undefined && !shown.has(item.need)) delete item.need;
}

/** The rows after `from` that `who` is told, at most `limit`, in id order, read in that order up to the limit. */
async function rowsAfter(ctx: Context, who: Who, from: number, lists: string[], record: number | null, limit: number): Promise<Row[]> {
  if (lists.length === 0) return [];
  const sql = ctx.q.dialect.brief;
  const { where, params } = sql.told({ id: who.id, person: isPerson(who) }, lists, record);
  return ctx.q.all<Row>(`${sql.selectRows} WHERE l.id > ? AND ${where} ORDER BY l.id LIMIT ?`, [from, ...params, limit]);
}

/** How many rows after `from` `who` is told, per list and kind; counting stops past SUMMARY_COUNT_MAX. */
async function countedAfter(ctx: Context, who: Who, from: number, lists: string[]): Promise<{ list: string; kind: BriefKind; n: number }[]> {
  if (lists.length === 0) return [];
  const sql = ctx.q.dialect.brief;
  const { where, params } = sql.told({ id: who.id, person: isPerson(who) }, lists, null);
  const rows = (await ctx.q.all(`SELECT list, kind, count(*) AS n FROM (
        SELECT l.list AS list, ${sql.kind} AS kind FROM ${sql.joined}
        WHERE l.id > ? AND ${where} ORDER BY l.id LIMIT ${SUMMARY_COUNT_MAX + 1}
      ) AS told GROUP BY list, kind`, [from, ...params])) as { list: string; kind: BriefKind; n: number | string }[];
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/**
 * The latest changes after `from` that `who` is told, newest first, and how many of each kind
 * wait in all: a person's look at what they have not marked seen. It moves nothing.
 */
async function newestAfter(ctx: Context, who: Who, from: number, lists: string[], record: number | null, shapes: Map<string, ListShape>, limit: number, counted: boolean): Promise<Brief> {
  const through = Math.max(from, (await ctx.q.value('SELECT coalesce(max(id), 0) FROM log')) as number);
  if (lists.length === 0) return { items: [], more: false, through, counts: { total: 0, kinds: {} } };
  const sql = ctx.q.dialect.brief;
  const { where, params } = sql.told({ id: who.id, person: isPerson(who) }, lists, record);
  const rows = await ctx.q.all<Row>(`${sql.selectRows} WHERE l.id > ? AND l.id <= ? AND ${where} ORDER BY l.id DESC LIMIT ?`, [from, through, ...params, limit + 1]);
  const items = rows.slice(0, limit).map((row) => itemOf(row, shapes));
  const more = rows.length > limit;
  const kinds: Partial<Record<BriefKind, number>> = {};
  let total = items.length;
  if (more && counted) {
    // Counted only when the page does not hold them all: a look at a few changes stays one read.
    const waiting = record === null ? await countedAfter(ctx, who, from, lists) : [];
    total = waiting.reduce((sum, c) => sum + c.n, 0);
    for (const c of waiting) kinds[c.kind] = (kinds[c.kind] ?? 0) + c.n;
  }
  if (!more || !counted || record !== null) for (const item of items) kinds[item.kind] = (kinds[item.kind] ?? 0) + 1;
  const counts: BriefCounts = { total: Math.min(total, SUMMARY_COUNT_MAX), kinds: Object.fromEntries(KINDS.filter((k) => kinds[k]).map((k) => [k, kinds[k]])) };
  if (total > SUMMARY_COUNT_MAX) counts.atLeast = true;
  return { items, more, through, counts };
}

/**
 * The summary of the rows after `from` that `who` is told in `lists`: counts per list and kind
 * (counting stops at SUMMARY_COUNT_MAX), and the latest few rows, read from the history's end.
 */
async function summaryAfter(ctx: Context, who: Who, from: number, lists: ListRow[], shapes: Map<string, ListShape>): Promise<Brief> {
  const sql = ctx.q.dialect.brief;
  const { where, params } = sql.told({ id: who.id, person: isPerson(who) }, lists.map((l) => l.id), null);
  const counted = await countedAfter(ctx, who, from, lists.map((l) => l.id));
  const total = counted.reduce((sum, c) => sum + c.n, 0);
  const summary: BriefSummary = { total: Math.min(total, SUMMARY_COUNT_MAX), lists: [] };
  if (total > SUMMARY_COUNT_MAX) summary.atLeast = true;
  for (const list of lists) {
    const mine = counted.filter((c) => c.list === list.id);
    if (mine.length === 0) continue;
    const counts: Partial<Record<BriefKind, number>> = {};
    for (const kind of KINDS) {
      const n = mine.find((c) => c.kind === kind)?.n;
      if (n) counts[kind] = n;
    }
    summary.lists.push({ list: list.id, title: list.title, total: mine.reduce((sum, c) => sum + c.n, 0), counts });
  }
  const latest = (await ctx.q.all<Row>(`${sql.selectRows} WHERE l.id > ? AND ${where} ORDER BY l.id DESC LIMIT ${SUMMARY_LATEST}`, [from, ...params])).reverse();
  return { items: latest.map((row) => itemOf(row, shapes)), more: false, summary };
}

/**
 * The changes after the asker's place. Without `peek`, `after` nor a filter, its place moves past what
 * was shown (and past every row it could not be shown), so each change is shown once. An agent
 * more than a page behind (a first brief on a busy binder, or one long away) is told a summary
 * and the latest few instead, and its place moves to the latest change: its context window is
 * what pages would cost. A person pages through them on the screen. A look (`peek`, or `after` a
 * history row) moves nothing and is never summed up: it says the row it read `through`.
 */
export async function brief(ctx: Context, who: Who, options: BriefOptions = {}): Promise<Brief> {
  const limit = Math.max(1, Math.min(500, Math.floor(options.limit ?? PAGE)));
  let lists = await visibleListRows(ctx, who, false);
  let record: number | null = null;
  if (options.record !== undefined && String(options.record).trim() !== '') {
    const found = await findRecord(ctx, options.record, who, 'read');
    record = found.record.id;
    lists = lists.filter((l) => l.id === found.list.id);
  } else if (options.list !== undefined && String(options.list).trim() !== '') {
    const { list } = await findList(ctx, options.list, who, 'read');
    lists = lists.filter((l) => l.id === list.id);
  }
  const shapes = new Map(lists.map((l) => [l.id, { states: JSON.parse(l.states) as State[], fields: JSON.parse(l.fields) as Field[] }]));
  const looking = options.peek === true || options.after !== undefined;
  const from = options.after !== undefined ? Math.max(0, Math.floor(options.after)) : await placeOf(ctx, who);
  if (looking && options.newest === true) {
    const newest = await newestAfter(ctx, who, from, [...shapes.keys()], record, shapes, limit, options.counted !== false);
    await hideUnseenNeeds(ctx, who, newest.items);
    return newest;
  }
  const moving = !looking && record === null && (options.list === undefined || String(options.list).trim() === '');
  // Far behind is more than a page of the default size, whatever page was asked for.
  const mayShorten = moving && !isPerson(who);
  const rows = await rowsAfter(ctx, who, from, [...shapes.keys()], record, (mayShorten ? Math.max(limit, PAGE) : limit) + 1);
  let more = rows.length > limit;
  const summed = mayShorten && rows.length > PAGE ? await summaryAfter(ctx, who, from, lists, shapes) : undefined;
  if (summed) more = false;
  const items = summed ? summed.items : rows.slice(0, limit).map((row) => itemOf(row, shapes));
  const to = more
    ? items[items.length - 1]!.id
    : ((await ctx.q.value('SELECT coalesce(max(id), 0) FROM log')) as number);
  if (moving) {
    await ctx.q.run(ctx.q.dialect.brief.cursor, [who.id, Math.max(to, from)]);
  }
  await hideUnseenNeeds(ctx, who, items);
  if (summed) return summed;
  return looking ? { items, more, through: Math.max(to, from) } : { items, more };
}

/**
 * Marks what the asker was shown seen: its place moves to the history row `through` (never back,
 * never past the history's end), so the next brief starts after it. A person reads the changes
 * with `peek` (from any number of screens and pages) and marks them seen here, once, when they choose.
 */
export async function markSeen(ctx: Context, who: Who, through: number): Promise<{ through: number }> {
  const last = (await ctx.q.value('SELECT coalesce(max(id), 0) FROM log')) as number;
  const place = await placeOf(ctx, who);
  const to = Math.min(Math.max(0, Math.floor(Number(through) || 0)), Number(last));
  if (to > place) await ctx.q.run(ctx.q.dialect.brief.cursor, [who.id, to]);
  return { through: Math.max(to, place) };
}

/** The due scan, with a history row for each record it reports, so that briefs can tell it. */
export async function dueAndTell(ctx: Context): Promise<DueRecord[]> {
  const due = await dueRecords(ctx);
  for (const r of due) await ctx.log(CLOCK, 'due', r.list, r.id, { due: r.due });
  return due;
}
