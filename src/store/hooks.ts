/**
 * Webhooks, as a person makes them: a URL told of what happens in the binder (every list, or the
 * one it was made for), each delivery signed with the hook's secret. Made, listed, removed and
 * tried by an admin alone; an agent can reach none of it. The secret is returned once, when the
 * hook is made, and never again by anything here (nor written in the history); it is kept as it
 * is, since the keeper signs with it (docs/hooks.md).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { findList } from './access.js';
import { iso, type Context } from './context.js';
import type { Who } from './types.js';
import { refusal } from './words/index.js';

/** What a hook may be told of, in the order `hook add --help` says them. */
export const HOOK_EVENTS = ['proposed', 'approved', 'moved', 'noted', 'claimed', 'lapsed', 'due'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Every secret starts so (the Standard Webhooks' prefix): a scanner of leaked secrets knows one. */
export const SECRET_START = 'whsec_';
const URL_MAX = 2000;
/** A failure's words kept for `hook list`: enough to know it, never a whole answer. */
export const ERROR_MAX = 200;

export interface HookLast {
  /** ISO time of the last try of any of its deliveries. */
  at: string;
  event: string;
  /** The HTTP status the receiver answered, or null when none came. */
  status: number | null;
  /** Why the try failed, clipped and with no control character; null when it was delivered. */
  error: string | null;
}

export interface HookInfo {
  id: string;
  url: string;
  events: HookEvent[];
  /** The list it is made for (its id), or null for every list. */
  list: string | null;
  created: string;
  /** The name of the person who made it. */
  by: string;
  last: HookLast | null;
  /** Deliveries still tried. */
  waiting: number;
  /** Deliveries given up on (no success within a day). */
  givenUp: number;
}

/** One delivery as the log keeps it: how its last try went (or that none was made yet). */
export interface HookDelivery {
  /** The delivery's id, the same at each try (the receiver's to drop repeats by). */
  id: string;
  event: string;
  /** The record it told of, or null for a test. */
  record: number | null;
  /** ISO time of its last try, or of its making when it was not tried yet. */
  at: string;
  tries: number;
  /** `sent`, `given up`, or `waiting` while it is tried again. */
  outcome: 'sent' | 'given up' | 'waiting';
  status: number | null;
  error: string | null;
}

/** How many deliveries of each hook a look at the log may ask for, newest first. */
export const RECENT_MAX = 50;

/** A hook just made: the only time its secret is known outside the store. */
export interface HookMade extends HookInfo {
  secret: string;
}

interface HookRow { id: string; url: string; events: string; list: string | null; created: string; by: string }

/** A URL a hook may be told at: `https://`, or `http://` to this machine alone (a receiver beside the keeper). */
export function hookUrl(given: string): string {
  const text = String(given).trim();
  // eslint-disable-next-line no-control-regex
  if (!text || text.length > URL_MAX || /[\u0000-\u001f\u007f\s]/.test(text)) {
    throw refusal('hookUrlWhole', [URL_MAX], 'not-understood');
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refusal('notAUrl', [text.slice(0, 80)], 'not-understood');
  }
  if (url.username || url.password) {
    throw refusal('hookUrlUser', [], 'not-understood');
  }
  const loopback = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw refusal('hookUrlPlain', [url.protocol, url.hostname]);
  }
  return url.href;
}

/** The events asked for (a list of words, or words with commas), every one when none is given. */
export function hookEvents(given: string | readonly string[] | undefined): HookEvent[] {
  const words = (typeof given === 'string' ? [given] : given ?? []).flatMap((w) => String(w).split(',')).map((w) => w.trim().toLowerCase()).filter(Boolean);
  if (!words.length) return [...HOOK_EVENTS];
  const unknown = words.filter((w) => !(HOOK_EVENTS as readonly string[]).includes(w));
  if (unknown.length) {
    throw refusal('hookEventsUnknown', [HOOK_EVENTS.join(', '), unknown.map((w) => w.slice(0, 40))], 'not-understood');
  }
  return HOOK_EVENTS.filter((e) => words.includes(e));
}


async function hookInfo(ctx: Context, row: HookRow): Promise<HookInfo> {
  const last = await ctx.q.get<{ tried: number; event: string; status: number | null; error: string | null }>(
    'SELECT tried, event, status, error FROM hook_deliveries WHERE hook = ? AND tried IS NOT NULL ORDER BY tried DESC, seq DESC LIMIT 1', [row.id]);
  const counts = await ctx.q.get<{ waiting: number; given: number }>(
    `SELECT count(*) FILTER (WHERE done IS NULL) AS waiting, count(*) FILTER (WHERE done = 'given up') AS given FROM hook_deliveries WHERE hook = ?`, [row.id]);
  return {
    id: row.id, url: row.url, events: JSON.parse(row.events) as HookEvent[], list: row.list, created: row.created,
    by: (JSON.parse(row.by) as Who).name,
    last: last ? { at: iso(Number(last.tried)), event: last.event, status: last.status === null ? null : Number(last.status), error: last.error } : null,
    waiting: Number(counts?.waiting ?? 0), givenUp: Number(counts?.given ?? 0),
  };
}

async function findHook(ctx: Context, ref: string): Promise<HookRow> {
  const row = await ctx.q.get<HookRow>('SELECT * FROM hooks WHERE id = ?', [String(ref).trim()]);
  if (!row) {
    throw refusal('noHook', [String(ref).slice(0, 40)]);
  }
  return row;
}

interface DeliveryRow { id: string; event: string; queue: string; created: number; tried: number | null; tries: number; done: string | null; status: number | null; error: string | null }

/** The hook's latest `count` deliveries, newest first: never a body (a record's words stay in the store). */
async function recentDeliveries(ctx: Context, hook: string, count: number): Promise<HookDelivery[]> {
  const rows = await ctx.q.all<DeliveryRow>(`SELECT id, event, queue, created, tried, tries, done, status, error FROM hook_deliveries
    WHERE hook = ? ORDER BY seq DESC LIMIT ${Math.max(1, Math.min(RECENT_MAX, Math.floor(count)))}`, [hook]);
  return rows.map((r) => ({
    id: r.id, event: r.event,
    record: /^record:\d+$/.test(r.queue) ? Number(r.queue.slice('record:'.length)) : null,
    at: iso(Number(r.tried ?? r.created)), tries: Number(r.tries),
    outcome: r.done === 'sent' ? 'sent' : r.done === 'given up' ? 'given up' : 'waiting',
    status: r.status === null ? null : Number(r.status), error: r.error,
  }));
}

/** Every hook with how its deliveries went; `recent`: with that many of its latest deliveries too (the page's log). */
export async function listHooks(ctx: Context, who: Who, options: { recent?: number } = {}): Promise<(HookInfo & { recent?: HookDelivery[] })[]> {
  const rows = await ctx.q.all<HookRow>('SELECT * FROM hooks ORDER BY created, id');
  const out: (HookInfo & { recent?: HookDelivery[] })[] = [];
  for (const row of rows) {
    const info = await hookInfo(ctx, row);
    out.push(options.recent ? { ...info, recent: await recentDeliveries(ctx, row.id, options.recent) } : info);
  }
  return out;
}

export async function addHook(ctx: Context, input: { url: string; events?: string | readonly string[]; list?: string }, who: Who): Promise<HookMade> {
  const url = hookUrl(input.url);
  const events = hookEvents(input.events);
  const list = input.list !== undefined && String(input.list).trim() !== '' ? (await findList(ctx, input.list, who, 'read')).list.id : null;
  const id = `hook_${randomBytes(6).toString('base64url')}`;
  const secret = `${SECRET_START}${randomBytes(32).toString('base64url')}`;
  // Told of what happens from now on: the history before it was made is not its.
  const seen = Number((await ctx.q.value('SELECT coalesce(max(id), 0) FROM log')) ?? 0);
  await ctx.q.run('INSERT INTO hooks (id, url, events, list, secret, created, by, seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [id, url, JSON.stringify(events), list, secret, iso(ctx.now()), JSON.stringify(who), seen]);
  await ctx.log(who, 'hook-add', list, null, { hook: id, url, events });
  const made = await hookInfo(ctx, (await findHook(ctx, id)));
  return { ...made, secret };
}

export async function removeHook(ctx: Context, ref: string, who: Who): Promise<HookInfo> {
  const row = await findHook(ctx, ref);
  const info = await hookInfo(ctx, row);
  await ctx.q.run('DELETE FROM hook_deliveries WHERE hook = ?', [row.id]);
  await ctx.q.run('DELETE FROM hooks WHERE id = ?', [row.id]);
  await ctx.log(who, 'hook-remove', row.list, null, { hook: row.id, url: row.url });
  return info;
}

/** A delivery of the event `test` to the hook, sent by the keeper as any other: its id. */
export async function testHook(ctx: Context, ref: string, who: Who): Promise<{ hook: string; delivery: string }> {
  const row = await findHook(ctx, ref);
  const id = randomUUID();
  const at = ctx.now();
  const body = { id, event: 'test', at: iso(at), hook: row.id, by: { kind: who.kind, name: who.name } };
  await queueDelivery(ctx, { id, hook: row.id, queue: id, event: 'test', body: JSON.stringify(body), at });
  return { hook: row.id, delivery: id };
}

/** A delivery kept until it is sent or given up on; after every delivery of its queue before it. */
export async function queueDelivery(ctx: Context, d: { id: string; hook: string; queue: string; event: string; body: string; at: number }): Promise<void> {
  const seq = Number((await ctx.q.value('SELECT coalesce(max(seq), 0) + 1 FROM hook_deliveries')) ?? 1);
  await ctx.q.run('INSERT INTO hook_deliveries (id, seq, hook, queue, event, body, created, next_try) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [d.id, seq, d.hook, d.queue, d.event, d.body, d.at, d.at]);
}
