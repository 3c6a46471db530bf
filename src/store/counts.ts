/**
 * A list's counts of records, read from `record_counts` (kept by the database's own triggers as
 * records come, go and move), never counted over the records. Rows are summed: an engine may keep
 * a count as several rows (PostgreSQL keeps changes as rows of +1/-1, so that two keepers adding
 * to one list never wait on one row), and the sum is the same.
 */
import type { Context } from './context.js';

export function countsOf(ctx: Context, list: string): Promise<{ state: string; approved: number; n: number }[]> {
  return ctx.q.all(`SELECT state, approved, sum(n) AS n FROM record_counts WHERE list = ? AND archived = 0
    GROUP BY state, approved`, [list]);
}

export function stateCounts(ctx: Context, list: string, archived: number): Promise<{ state: string; n: number }[]> {
  return ctx.q.all('SELECT state, sum(n) AS n FROM record_counts WHERE list = ? AND archived = ? GROUP BY state', [list, archived]);
}
