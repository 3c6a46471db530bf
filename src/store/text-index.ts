/**
 * Keeps the search index (record_text, rowid = record number) in step with a record's title,
 * notes and field values. The index is contentless: it never holds a copy of the text, and a
 * record taken out of it leaves no term behind.
 */
import type { Context } from './context.js';

export function unindex(ctx: Context, id: number): void {
  ctx.db.prepare('DELETE FROM record_text WHERE rowid = ?').run(id);
}

/** `isNew`: the record was never indexed, so there is nothing to take out first. */
export function reindex(ctx: Context, id: number, isNew = false): void {
  if (!isNew) unindex(ctx, id);
  const row = ctx.db.prepare('SELECT title, fields FROM records WHERE id = ?').get(id) as
    { title: string; fields: string } | undefined;
  if (!row) return;
  const notes = ctx.db.prepare('SELECT text FROM notes WHERE record = ? ORDER BY id').pluck().all(id) as string[];
  const values = Object.values(JSON.parse(row.fields) as Record<string, string>);
  ctx.db.prepare('INSERT INTO record_text (rowid, title, notes, fields) VALUES (?, ?, ?, ?)')
    .run(id, row.title, notes.join('\n'), values.join('\n'));
}
