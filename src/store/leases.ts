/**
 * Leases as every change sees them: claims that ran out are lapsed first (so a lapsed claim never
 * blocks), and a record held by one agent is changed by no other agent — its holder and people
 * may, and anyone may leave a note. It never ends a live claim: that is `release`'s.
 */
import { findRecord, isPerson, type Found } from './access.js';
import { iso, type Context } from './context.js';
import { Refused } from './store.js';
import type { LapsedClaim } from './together-types.js';
import type { Who } from './types.js';
import { commandLine, written, type Sentence } from './sentence.js';
import { en, refusalSaid, type RefusalWords } from './words/index.js';

/** `2026-11-30 10:32 UTC (in 25 min)`: when a claim lapses, as the asker reads it (`dans 25 min` in French). */
export function whenLapses(until: number, now: number, words: RefusalWords = en): string {
  const minutes = Math.max(0, Math.round((until - now) / 60_000));
  return `${iso(until).slice(0, 16).replace('T', ' ')} UTC (${written(words.lapsesIn(minutes), commandLine)})`;
}

export const holderOf = (row: { lease_by?: string | null }): Who | null =>
  (row.lease_by ? (JSON.parse(row.lease_by) as Who) : null);

interface LeaseRow { id: number; list: string; title: string; owners: string; lease_by: string | null; lease_until: number | null }

/** Frees every record whose lease ran out: its holder leaves its owners, and the history says so. */
export async function lapse(ctx: Context): Promise<LapsedClaim[]> {
  const now = ctx.now();
  const rows = (await ctx.q.all(`SELECT id, list, title, owners, lease_by, lease_until FROM records
      WHERE lease_until IS NOT NULL AND lease_until <= ? ORDER BY lease_until, id`, [now])) as LeaseRow[];
  if (rows.length === 0) return [];
  const lapsed: LapsedClaim[] = [];
  for (const row of rows) {
    const by = holderOf(row) ?? { id: 'person:unknown', kind: 'person', name: 'unknown' };
    const until = iso(row.lease_until!);
    // Only while it is still this claim: another keeper may have lapsed it since it was read.
    const freed = await ctx.q.run('UPDATE records SET owners = ?, lease_by = NULL, lease_until = NULL WHERE id = ? AND lease_until = ?',
      [JSON.stringify((JSON.parse(row.owners) as string[]).filter((o) => o !== by.id)), row.id, row.lease_until]);
    if (freed.changes === 0) continue;
    await ctx.log(by, 'lapse', row.list, row.id, { until });
    lapsed.push({ id: row.id, list: row.list, title: row.title, by, until });
  }
  return lapsed;
}

/** The refusal an agent gets for a record another holds, naming the holder and until when. */
export function heldBy(id: number, holder: Who, until: number, now: number, next: (words: RefusalWords) => string | Sentence): Refused {
  return refusalSaid((w) => w.heldBy(id, holder.name, whenLapses(until, now, w), next(w)));
}

/**
 * A record found for a change by `who`, once lapsed claims are freed: refused to an agent while
 * another holds it. A person passes: taking a claim away and changing a held record are theirs.
 */
export async function forChange(ctx: Context, ref: number | string, who: Who): Promise<Found> {
  await lapse(ctx);
  const found = await findRecord(ctx, ref, who, 'write');
  const holder = holderOf(found.row);
  if (holder && holder.id !== who.id && !isPerson(who)) {
    const id = found.record.id;
    throw heldBy(id, holder, found.row.lease_until!, ctx.now(), (w) => w.heldByChange(id, holder.name));
  }
  return found;
}
