/**
 * Keeps the search index (record_text, rowid = record number) in step with a record's title,
 * notes and field values. The index is contentless: it never holds a copy of the text, and a
 * record taken out of it leaves no term behind.
 */
import type { Context } from './context.js';

export async function unindex(ctx: Context, id: number): Promise<void> {
  (await ctx.q.run('DELETE FROM record_text WHERE rowid = ?', [id]));
}

/** `isNew`: the record was never indexed, so there is nothing to take out first. */
export async function reindex(ctx: Context, id: number, isNew = false): Promise<void> {
  if (!isNew) await unindex(ctx, id);
  const row = (await ctx.q.get('SELECT title, fields FROM records WHERE id = ?', [id])) as
    { title: string; fields: string } | undefined;
  if (!row) return;
  const notes = (await ctx.q.column('SELECT text FROM notes WHERE record = ? ORDER BY id', [id])) as string[];
  const values = Object.values(JSON.parse(row.fields) as Record<string, string>);
  (await ctx.q.run('INSERT INTO record_text (rowid, title, notes, fields) VALUES (?, ?, ?, ?)', [id, row.title, notes.join('\n'), values.join('\n')]));
}
