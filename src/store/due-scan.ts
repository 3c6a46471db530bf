/**
 * The due scan: records whose due time has come, each reported once ever (until its due date
 * is changed). Marking them told happens in the same transaction that finds them.
 */
import type { Context } from './context.js';
import type { DueRecord } from './types.js';

export function dueRecords(ctx: Context): DueRecord[] {
  return ctx.transaction(() => {
    const rows = ctx.db.prepare(`SELECT id, list, title, due, owners FROM records
        WHERE due_at IS NOT NULL AND due_told = 0 AND due_at <= ? AND archived = 0 ORDER BY due_at, id`)
      .all(ctx.now()) as { id: number; list: string; title: string; due: string; owners: string }[];
    const told = ctx.db.prepare('UPDATE records SET due_told = 1 WHERE id = ?');
    for (const row of rows) told.run(row.id);
    return rows.map((r) => ({ id: r.id, list: r.list, title: r.title, due: r.due, owners: JSON.parse(r.owners) as string[] }));
  });
}
