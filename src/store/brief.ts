/**
 * The brief: what changed since the asker last looked, in the lists it can see — approvals and
 * withdrawals, records added or moved by others, notes (a person is told everyone's, an agent
 * people's only), claims lapsed or taken away, records due — each shown once, through a place
 * in the history kept per asker (`cursors`). It reads the history in id order and stops at its
 * page, so a long history costs no more than the page. It never shows the asker its own
 * doings, nor anything of a list it cannot see.
 */
import { findList, findRecord, isPerson, visibleListRows } from './access.js';
import { iso, type Context } from './context.js';
import { dueRecords } from './due-scan.js';
import type { Brief, BriefItem, BriefKind, BriefOptions } from './together-types.js';
import type { DueRecord, State, Who } from './types.js';

/** Who a record's due time is told by, in the history. */
export const CLOCK: Who = { id: 'binder:clock', kind: 'agent', name: 'Binder' };

/** The history's ops a brief tells, as SQL. */
const OPS = "'add', 'move', 'approve', 'note', 'lapse', 'release', 'due'";
const PAGE = 50;
/** An asker's first brief goes back this far, not to the binder's beginning. */
const FIRST_LOOK_MS = 24 * 3600_000;

interface Row {
  id: number; at: string; by: string; op: string; list: string; record: number; change: string | null;
  title: string; note_text: string | null;
}

/** Where `who` stands in the history: its cursor, or the last row older than a day. */
function placeOf(ctx: Context, who: Who): number {
  const kept = ctx.db.prepare('SELECT log_id FROM cursors WHERE who = ?').pluck().get(who.id) as number | undefined;
  return kept ?? lastBefore(ctx, iso(ctx.now() - FIRST_LOOK_MS));
}

/**
 * The last history row written before `at`, or 0. Rows are written in time order, so the rows
 * before `at` come first in id order: halving the ids finds their end in a few lookups, where
 * walking the history would read a whole day of it.
 */
function lastBefore(ctx: Context, at: string): number {
  const first = ctx.db.prepare('SELECT id, at FROM log WHERE id >= ? AND id < ? ORDER BY id LIMIT 1');
  // Every row up to `low` is old enough (0: none known yet); no row from `high` on is.
  let low = 0;
  let high = (ctx.db.prepare('SELECT coalesce(max(id), 0) FROM log').pluck().get() as number) + 1;
  while (high - low > 1) {
    const mid = low + Math.floor((high - low) / 2);
    const row = first.get(mid, high) as { id: number; at: string } | undefined;
    if (row && row.at < at) low = row.id;
    else high = mid; // no row in [mid, high) is old enough: those before `row` do not exist
  }
  return low;
}

function itemOf(row: Row, states: Map<string, State[]>): BriefItem {
  const change = (row.change ? JSON.parse(row.change) : {}) as Record<string, unknown>;
  const name = (id: unknown): string | undefined => {
    if (typeof id !== 'string') return undefined;
    return states.get(row.list)?.find((s) => s.id === id)?.name ?? id;
  };
  const by = JSON.parse(row.by) as Who;
  const base = { id: row.id, at: row.at, by, record: row.record, title: row.title, list: row.list };
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
    case 'note': return item('note', { text: row.note_text ?? '' });
    case 'lapse': return item('lapsed', { holder: by });
    case 'release': return item('taken-away', { holder: change.holder as Who });
    case 'due': return item('due', { due: typeof change.due === 'string' ? change.due : undefined });
    default: throw new Error(`a brief row of op ${row.op}`);
  }
}

/**
 * The rows after `from` that `who` is told, at most `limit`, in id order. Each way reads the
 * history in that order and stops at the limit: a record's rows by log_by_record, one list's
 * by log_by_list, and several lists' along the history itself (the `+` keeps SQLite from
 * reading them list by list, which would sort them all before the limit; CROSS JOIN keeps the
 * history the outer loop).
 */
function rowsAfter(ctx: Context, who: Who, from: number, lists: string[], record: number | null, limit: number): Row[] {
  if (lists.length === 0) return [];
  const which = record !== null ? 'l.record = @record AND +l.list = @list'
    : lists.length === 1 ? 'l.list = @list'
    : '+l.list IN (SELECT value FROM json_each(@lists))';
  return ctx.db.prepare(`SELECT l.id, l.at, l.by, l.op, l.list, l.record, l.change, r.title, n.text AS note_text
      FROM log l
      CROSS JOIN records r ON r.id = l.record
      LEFT JOIN notes n ON l.op = 'note' AND n.id = json_extract(l.change, '$.note')
      WHERE l.id > @from AND ${which}
        AND l.op IN (${OPS})
        AND (l.op = 'lapse' OR json_extract(l.by, '$.id') <> @who)
        AND (@person OR l.op <> 'note' OR json_extract(l.by, '$.kind') = 'person')
        AND (l.op <> 'release' OR json_extract(l.change, '$.holder.id') <> json_extract(l.by, '$.id'))
      ORDER BY l.id LIMIT @limit`).all({
    from, list: lists[0], lists: JSON.stringify(lists), record, who: who.id, person: isPerson(who) ? 1 : 0, limit,
  }) as Row[];
}

/**
 * The changes after the asker's place. Without `peek` nor a filter, its place moves past what
 * was shown (and past every row it could not be shown), so each change is shown once.
 */
export function brief(ctx: Context, who: Who, options: BriefOptions = {}): Brief {
  const limit = Math.max(1, Math.min(500, Math.floor(options.limit ?? PAGE)));
  let lists = visibleListRows(ctx, who, false);
  let record: number | null = null;
  if (options.record !== undefined && String(options.record).trim() !== '') {
    const found = findRecord(ctx, options.record, who, 'read');
    record = found.record.id;
    lists = lists.filter((l) => l.id === found.list.id);
  } else if (options.list !== undefined && String(options.list).trim() !== '') {
    const { list } = findList(ctx, options.list, who, 'read');
    lists = lists.filter((l) => l.id === list.id);
  }
  const states = new Map(lists.map((l) => [l.id, JSON.parse(l.states) as State[]]));
  const looking = options.peek === true || options.after !== undefined;
  const from = options.after !== undefined ? Math.max(0, Math.floor(options.after)) : placeOf(ctx, who);
  const end = ctx.db.prepare('SELECT coalesce(max(id), 0) FROM log').pluck().get() as number;
  const rows = rowsAfter(ctx, who, from, [...states.keys()], record, limit + 1);
  const more = rows.length > limit;
  const items = rows.slice(0, limit).map((row) => itemOf(row, states));
  const to = more ? items[items.length - 1]!.id : end;
  if (!looking && record === null && (options.list === undefined || String(options.list).trim() === '')) {
    ctx.db.prepare(`INSERT INTO cursors (who, log_id) VALUES (?, ?)
        ON CONFLICT (who) DO UPDATE SET log_id = max(log_id, excluded.log_id)`).run(who.id, Math.max(to, from));
  }
  return looking ? { items, more, through: Math.max(to, from) } : { items, more };
}

/** The due scan, with a history row for each record it reports, so that briefs can tell it. */
export function dueAndTell(ctx: Context): DueRecord[] {
  return ctx.transaction(() => {
    const due = dueRecords(ctx);
    for (const r of due) ctx.log(CLOCK, 'due', r.list, r.id, { due: r.due });
    return due;
  });
}
