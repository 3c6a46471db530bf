/**
 * What the hooks are told, and how their deliveries are tried: the events are read from the
 * history (never announced by the rules one by one), each hook from the row after the last it
 * was told of, and only of the list it was made for; a delivery is kept until its receiver
 * answered 2xx or a day passed, one at a time per record and in order. It never sends anything
 * itself: the keeper does (src/keeper/hook-sender.ts), and says here how each try went.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from './context.js';
import { ERROR_MAX, queueDelivery, type HookEvent } from './hooks.js';
import type { State, Who } from './types.js';

/** History rows read per pass: a long history is told over several passes, in order. */
const PAGE = 500;
/** Tries of a delivery after its first, this long after the one before; the last repeats. */
const BACKOFF_MS = [1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000];
/** A delivery is tried for this long, then given up on. */
export const TRY_FOR_MS = 24 * 3_600_000;
/** A delivery sent or given up on stays in the log this long. */
const KEEP_DONE_MS = 7 * 24 * 3_600_000;

interface LogRow { id: number; at: string; by: string; op: string; list: string; record: number; change: string | null }
interface HookRow { id: string; events: string; list: string | null; seen: number }
interface Shape { title: string; states: State[] }

/** The events a history row is, for a hook: none for most. */
export function eventsOf(row: { op: string; by: Who; change: Record<string, unknown> | null }, states: readonly State[]): HookEvent[] {
  const change = row.change ?? {};
  switch (row.op) {
    // A record comes to wait for a person: an agent's, in a list with a gate, or an approval withdrawn.
    case 'add': return row.by.kind !== 'person' && change.approved !== true && states.some((s) => s.gate) ? ['proposed'] : [];
    case 'withdraw': return ['proposed'];
    case 'approve': return change.approved === true ? ['approved'] : [];
    case 'move': return change.approved === true ? ['approved', 'moved'] : ['moved'];
    case 'note': return ['noted'];
    case 'take': return change.extended === true ? [] : ['claimed'];
    case 'lapse': return ['lapsed'];
    case 'due': return ['due'];
    default: return [];
  }
}

const OPS = ['add', 'withdraw', 'approve', 'move', 'note', 'take', 'lapse', 'due'];

/** What a receiver reads of one event: the record as it is now, and what the row says. */
async function bodyOf(ctx: Context, row: LogRow, event: HookEvent, shape: Shape, id: string): Promise<Record<string, unknown> | null> {
  const record = await ctx.q.get<{ title: string; state: string; due: string | null }>('SELECT title, state, due FROM records WHERE id = ?', [row.record]);
  // A record deleted since: nothing of it is told.
  if (!record) return null;
  const by = JSON.parse(row.by) as Who;
  const change = (row.change ? JSON.parse(row.change) : {}) as Record<string, unknown>;
  const stateName = (sid: unknown): string | undefined => shape.states.find((s) => s.id === sid)?.name;
  const body: Record<string, unknown> = {
    id, event, at: row.at,
    list: { id: row.list, title: shape.title },
    record: { id: row.record, title: record.title, state: stateName(record.state) ?? record.state, due: record.due },
    by: { kind: by.kind, name: by.name },
  };
  if (row.op === 'move') body.move = { from: stateName(change.from) ?? change.from, to: stateName(change.to) ?? change.to };
  if (event === 'noted' && typeof change.note === 'number') {
    const text = await ctx.q.value<string>('SELECT text FROM notes WHERE id = ?', [change.note]);
    if (text !== undefined) body.note = { id: change.note, text };
  }
  if (event === 'claimed' || event === 'lapsed') body.until = change.until;
  return body;
}

/**
 * Reads the history after what the hooks were told, and keeps a delivery for each event a hook
 * asked for, of its list: how many, and whether more history waits (one page per call).
 */
export async function queueHookEvents(ctx: Context): Promise<{ queued: number; more: boolean }> {
  const hooks = await ctx.q.all<HookRow>('SELECT id, events, list, seen FROM hooks');
  if (!hooks.length) return { queued: 0, more: false };
  const from = Math.min(...hooks.map((h) => Number(h.seen)));
  const rows = await ctx.q.all<LogRow>(`SELECT id, at, by, op, list, record, change FROM log
    WHERE id > ? AND imported = 0 AND record IS NOT NULL AND op IN (${OPS.map(() => '?').join(', ')}) ORDER BY id LIMIT ${PAGE}`, [from, ...OPS]);
  const last = rows.length === PAGE ? Number(rows[rows.length - 1]!.id) : Number((await ctx.q.value('SELECT coalesce(max(id), 0) FROM log')) ?? 0);
  const shapes = new Map<string, Shape | null>();
  const shapeOf = async (list: string): Promise<Shape | null> => {
    if (!shapes.has(list)) {
      const l = await ctx.q.get<{ title: string; states: string }>('SELECT title, states FROM lists WHERE id = ?', [list]);
      shapes.set(list, l ? { title: l.title, states: JSON.parse(l.states) as State[] } : null);
    }
    return shapes.get(list)!;
  };
  let queued = 0;
  for (const row of rows) {
    const shape = await shapeOf(row.list);
    if (!shape) continue;
    const events = eventsOf({ op: row.op, by: JSON.parse(row.by) as Who, change: row.change ? JSON.parse(row.change) as Record<string, unknown> : null }, shape.states);
    for (const hook of hooks) {
      if (Number(row.id) <= Number(hook.seen) || (hook.list !== null && hook.list !== row.list)) continue;
      const wanted = JSON.parse(hook.events) as HookEvent[];
      for (const event of events.filter((e) => wanted.includes(e))) {
        const id = randomUUID();
        const body = await bodyOf(ctx, row, event, shape, id);
        if (!body) continue;
        await queueDelivery(ctx, { id, hook: hook.id, queue: `record:${row.record}`, event, body: JSON.stringify(body), at: ctx.now() });
        queued++;
      }
    }
  }
  await ctx.q.run('UPDATE hooks SET seen = ? WHERE seen < ?', [last, last]);
  // The delivery log keeps a week of what was sent or given up on.
  await ctx.q.run('DELETE FROM hook_deliveries WHERE done IS NOT NULL AND created < ?', [ctx.now() - KEEP_DONE_MS]);
  return { queued, more: rows.length === PAGE };
}

/** A hook not told of the latest history yet. */
const BEHIND = 'SELECT 1 FROM hooks WHERE seen < (SELECT coalesce(max(id), 0) FROM log)';

/** A delivery `d` is tried only once every one before it in its queue is sent or given up on. */
const FIRST_OF_QUEUE = 'NOT EXISTS (SELECT 1 FROM hook_deliveries e WHERE e.hook = d.hook AND e.queue = d.queue AND e.done IS NULL AND e.seq < d.seq)';

/** A delivery to try now, with what its try needs. */
export interface DeliveryToTry { id: string; hook: string; url: string; secret: string; event: string; body: string; tries: number }

/**
 * The deliveries to try now, each the first still tried of its hook's queue for its record,
 * marked as being sent until `leaseMs` from now (another keeper leaves them meanwhile; one killed
 * mid-try leaves them to be tried again once the mark has passed).
 */
export async function deliveriesDue(ctx: Context, limit: number, leaseMs: number): Promise<DeliveryToTry[]> {
  const now = ctx.now();
  const rows = await ctx.q.all<DeliveryToTry>(`SELECT d.id, d.hook, h.url, h.secret, d.event, d.body, d.tries
    FROM hook_deliveries d JOIN hooks h ON h.id = d.hook
    WHERE d.done IS NULL AND d.next_try <= ? AND d.sending <= ?
      AND ${FIRST_OF_QUEUE}
    ORDER BY d.seq LIMIT ${Math.max(1, Math.floor(limit))}`, [now, now]);
  for (const row of rows) await ctx.q.run('UPDATE hook_deliveries SET sending = ? WHERE id = ?', [now + leaseMs, row.id]);
  return rows.map((r) => ({ ...r, tries: Number(r.tries) }));
}

/** When the next delivery is to be tried: the first of each queue alone. */
const NEXT_AT = `SELECT min(CASE WHEN d.sending > d.next_try THEN d.sending ELSE d.next_try END) FROM hook_deliveries d
    WHERE d.done IS NULL AND ${FIRST_OF_QUEUE}`;
const timeOrNull = (at: unknown): number | null => (at === null || at === undefined ? null : Number(at));

/** When the next delivery is to be tried (ms), or null when none waits: the first of each queue alone. */
export async function nextDeliveryAt(ctx: Context): Promise<number | null> {
  return timeOrNull(await ctx.q.value<number | null>(NEXT_AT));
}

/**
 * The keeper's look after changes, in one statement: whether a hook is behind the history, and
 * when a delivery is next to be tried. Every keeper looks after its own changes and after news
 * of another's, hooks or none: one statement a look, not two.
 */
export async function hookWork(ctx: Context): Promise<{ behind: boolean; next: number | null }> {
  const row = await ctx.q.get<{ behind: unknown; next_at: unknown }>(`SELECT EXISTS (${BEHIND}) AS behind, (${NEXT_AT}) AS next_at`);
  // PostgreSQL says a boolean, SQLite 0 or 1.
  return { behind: row?.behind === true || Number(row?.behind) === 1, next: timeOrNull(row?.next_at) };
}

/** How a try went: delivered (a 2xx), or not, with the status and a clipped, plain reason. */
export interface TryOutcome { delivered: boolean; status: number | null; error: string | null }

/** A few words of a failure, safe to show anywhere: no control character, clipped. */
export const plainError = (text: string): string =>
  // eslint-disable-next-line no-control-regex
  text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, ERROR_MAX);

export async function deliveryTried(ctx: Context, id: string, outcome: TryOutcome): Promise<void> {
  const now = ctx.now();
  const row = await ctx.q.get<{ created: number; tries: number; done: string | null }>('SELECT created, tries, done FROM hook_deliveries WHERE id = ?', [id]);
  // Removed with its hook meanwhile, or told by another keeper already.
  if (!row || row.done !== null) return;
  const tries = Number(row.tries) + 1;
  const error = outcome.error === null ? null : plainError(outcome.error);
  if (outcome.delivered) {
    // Its body is needed no more: the delivery log keeps when, what and how it went, not the record's words.
    await ctx.q.run(`UPDATE hook_deliveries SET done = 'sent', body = '', tries = ?, sending = 0, status = ?, error = NULL, tried = ? WHERE id = ?`, [tries, outcome.status, now, id]);
    return;
  }
  const next = now + BACKOFF_MS[Math.min(tries - 1, BACKOFF_MS.length - 1)]!;
  const done = next > Number(row.created) + TRY_FOR_MS ? 'given up' : null;
  await ctx.q.run(`UPDATE hook_deliveries SET done = ?, ${done ? "body = ''," : ''} tries = ?, next_try = ?, sending = 0, status = ?, error = ?, tried = ? WHERE id = ?`,
    [done, tries, next, outcome.status, error, now, id]);
}
