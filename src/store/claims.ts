/**
 * Claims on records: `take` makes the asker the record's owner under a lease, only if nobody
 * else holds it (compare-and-set inside the caller's immediate transaction, so two askers
 * racing for one record never both win); `release` gives it back, or lets a person take it
 * away. Leases that ran out are lapsed first (leases.ts). An agent can never end another's claim.
 */
import { findList, findRecord, isPerson, notArchived, recordRow } from './access.js';
import { iso, type Context } from './context.js';
import { heldBy, holderOf, lapse } from './leases.js';
import { readyRows } from './ready.js';
import { note } from './record-parts.js';
import { recordOf } from './rows.js';
import type { Claimed, Released, TakeOptions } from './together-types.js';
import type { Who } from './types.js';
import { quoted } from './values.js';
import { refusal } from './words/index.js';

export const LEASE_DEFAULT_MS = 30 * 60_000;
export const LEASE_MIN_MS = 1000;
export const LEASE_MAX_MS = 24 * 3600_000;

/** The lease's length asked for, or a refusal saying what is accepted. */
export function leaseLength(forMs: number | undefined): number {
  if (forMs === undefined) return LEASE_DEFAULT_MS;
  if (!Number.isFinite(forMs) || forMs < LEASE_MIN_MS) {
    throw refusal('claimTooShort', []);
  }
  if (forMs > LEASE_MAX_MS) {
    throw refusal('claimTooLong', []);
  }
  return Math.round(forMs);
}

/** The claim itself, on a record found for writing, leases already lapsed. */
async function claim(ctx: Context, id: number, who: Who, forMs: number): Promise<Claimed> {
  const row = (await recordRow(ctx, id))!;
  const now = ctx.now();
  const holder = holderOf(row);
  if (holder && holder.id !== who.id) {
    throw heldBy(id, holder, row.lease_until!, now, (w) => w.heldByFree(id));
  }
  const owners = JSON.parse(row.owners) as string[];
  const extended = holder !== null;
  const others = owners.filter((o) => o !== who.id);
  // Owners added while the asker held it stay; a record owned by others is not free to take.
  if (others.length && !extended) {
    // Quoted: an owner is someone's words (an agent may have written them), never a step.
    const named = others.map(quoted).join(', ');
    throw refusal('belongsTo', [id, named]);
  }
  const until = now + forMs;
  (await ctx.q.run('UPDATE records SET owners = ?, lease_by = ?, lease_until = ?, updated = ? WHERE id = ?', [JSON.stringify(owners.includes(who.id) ? owners : [...owners, who.id]), JSON.stringify(who), until, iso(now), id]));
  await ctx.log(who, 'take', row.list, id, extended ? { until: iso(until), extended: true } : { until: iso(until) });
  const taken: Claimed = { record: recordOf((await recordRow(ctx, id))!), until: iso(until), extended };
  // Taking again sets the end where asked, sooner too: the answer says when it was before.
  if (extended) taken.previous = iso(row.lease_until!);
  return taken;
}

export async function take(ctx: Context, ref: number | string, who: Who, options: TakeOptions = {}): Promise<Claimed> {
  const forMs = leaseLength(options.forMs);
  await lapse(ctx);
  const found = await findRecord(ctx, ref, who, 'write');
  notArchived(found);
  return await claim(ctx, found.record.id, who, forMs);
}

/** Takes the first record of the list that the asker may start now, or says why there is none. */
export async function takeNext(ctx: Context, listRef: string, who: Who, options: TakeOptions = {}): Promise<Claimed> {
  const forMs = leaseLength(options.forMs);
  await lapse(ctx);
  const { list } = await findList(ctx, listRef, who, 'write');
  if (list.archived) {
    throw refusal('archivedNothingReady', [list.title]);
  }
  const first = (await readyRows(ctx, list, who, 1, true))[0];
  if (!first) {
    throw refusal('nothingReady', [list.title, String(list.id)]);
  }
  return await claim(ctx, first.id, who, forMs);
}

/** Gives a claim back (its holder), or takes it away (a person); a note may go with it. */
export async function release(ctx: Context, ref: number | string, who: Who, text?: string): Promise<Released> {
  await lapse(ctx);
  const found = await findRecord(ctx, ref, who, 'write');
  const id = found.record.id;
  const holder = holderOf(found.row);
  const owners = found.record.owners;
  let from: Who | null = null;
  if (holder) {
    if (holder.id !== who.id && !isPerson(who)) {
      throw refusal('takenNotYou', [id, holder.name]);
    }
    from = holder;
  } else if (owners.includes(who.id)) {
    from = who;
  }
  let left = null;
  if (text !== undefined && text.trim() !== '') {
    notArchived(found);
    left = await note(ctx, id, text, who);
  }
  if (from) {
    const gone = from.id;
    (await ctx.q.run('UPDATE records SET owners = ?, lease_by = NULL, lease_until = NULL, updated = ? WHERE id = ?', [JSON.stringify(owners.filter((o) => o !== gone)), iso(ctx.now()), id]));
    await ctx.log(who, 'release', found.list.id, id, left ? { holder: from, note: left.id } : { holder: from });
  }
  return { record: recordOf((await recordRow(ctx, id))!), holder: from, note: left };
}
