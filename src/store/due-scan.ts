/**
 * The due scan: records whose due time has come, each reported once ever (until its due date
 * is changed). Marking them told happens in the caller's transaction, the one that finds them.
 */
import type { Context } from './context.js';
import type { DueRecord } from './types.js';

export async function dueRecords(ctx: Context): Promise<DueRecord[]> {
  const rows = (await ctx.q.all(`SELECT id, list, title, due, owners FROM records
      WHERE due_at IS NOT NULL AND due_told = 0 AND due_at <= ? AND archived = 0 ORDER BY due_at, id`, [ctx.now()])) as { id: number; list: string; title: string; due: string; owners: string }[];
  const told: DueRecord[] = [];
  for (const r of rows) {
    // Told once, whichever keeper sees it first.
    const marked = await ctx.q.run('UPDATE records SET due_told = 1 WHERE id = ? AND due_told = 0', [r.id]);
    if (marked.changes > 0) told.push({ id: r.id, list: r.list, title: r.title, due: r.due, owners: JSON.parse(r.owners) as string[] });
  }
  return told;
}
