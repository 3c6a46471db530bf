/**
 * Deleting, a person's alone, for good: a record and everything of it, or a list and all its
 * records. The record's history is emptied down to who and when, its needs go both ways (with
 * the rows, by the schema's cascade), its terms leave the search index, answers that may quote it are dropped, and the write-ahead log is folded back so no
 * byte of it survives in the files. It must never leave a copy of a deleted record's text.
 */
import { findList, findRecord } from './access.js';
import type { Context } from './context.js';
import { tellFreed, waitingFor } from './needs.js';
import { unindex } from './text-index.js';
import type { Who } from './types.js';
import { refusal } from './words/index.js';

/** The records under `id`, and under those, each with how deep it lies (1: a child). */
async function descendants(ctx: Context, id: number): Promise<{ id: number; depth: number }[]> {
  const out: { id: number; depth: number }[] = [];
  let wave = [id];
  for (let depth = 1; wave.length > 0; depth++) {
    const next = await ctx.q.column<number>(`SELECT record FROM parents WHERE parent IN (${wave.map(() => '?').join(', ')}) ORDER BY record`, wave);
    wave = next.map(Number).filter((n) => n !== id && !out.some((o) => o.id === n));
    out.push(...wave.map((n) => ({ id: n, depth })));
  }
  return out;
}

/** What a deletion took with it, for the person's answer. */
export interface Erased { notes: number; attachments: number }

async function erase(ctx: Context, id: number): Promise<Erased> {
  // First: SQLite finds the rows of the record's notes in its index by the notes.
  await unindex(ctx, id);
  const notes = (await ctx.q.run('DELETE FROM notes WHERE record = ?', [id])).changes;
  const attachments = (await ctx.q.run('DELETE FROM attachments WHERE record = ?', [id])).changes;
  (await ctx.q.run('DELETE FROM records WHERE id = ?', [id]));
  (await ctx.q.run("UPDATE log SET op = 'erased', change = NULL WHERE record = ?", [id]));
  // A webhook's deliveries quote the record: those not sent yet are told no more, those sent kept no longer.
  (await ctx.q.run('DELETE FROM hook_deliveries WHERE queue = ?', [`record:${id}`]));
  return { notes, attachments };
}

/** Answers kept for crash recovery may quote what was deleted; delivered ones are needed no more. */
async function forgetAnswers(ctx: Context): Promise<void> {
  (await ctx.q.run('UPDATE asks SET answer = NULL WHERE delivered = 1 AND answer IS NOT NULL'));
}

/**
 * After the deletions. SQLite: secure-delete takes a record's terms out of the index's leaves,
 * but the segment directory keeps the terms that begin its pages; only a merge rewrites it; the
 * write-ahead log is folded back after the commit. PostgreSQL: the tables that held the text are
 * rewritten after the commit (the engine's afterDelete), since a deleted row's bytes stay in
 * its pages until then.
 */
async function tidy(ctx: Context): Promise<void> {
  for (const statement of ctx.q.dialect.afterErase) await ctx.q.run(statement);
  ctx.checkpointAfterCommit();
}

/**
 * Deletes a record. One with records under it says what becomes of them: `orphan` leaves them
 * where they are, with no parent; `delete` deletes them too, and theirs. Without it, refused.
 */
export async function deleteRecord(
  ctx: Context, ref: number | string, who: Who, options: { children?: 'orphan' | 'delete' } = {},
): Promise<{ id: number; list: string; children?: number[] } & Erased> {
  const { record } = await findRecord(ctx, ref, who, 'write');
  const under = await descendants(ctx, record.id);
  if (under.length > 0 && options.children !== 'orphan' && options.children !== 'delete') {
    throw refusal('childrenWhat', [record.id, under.filter((u) => u.depth === 1).map((u) => `#${u.id}`).join(', ')], 'not-understood');
  }
  const gone = options.children === 'delete' ? under.map((u) => u.id) : [];
  const waiting = await waitingFor(ctx, record.id);
  for (const id of gone) waiting.push(...await waitingFor(ctx, id));
  const erased = await erase(ctx, record.id);
  const lists = new Map<number, string>();
  for (const id of gone) lists.set(id, (await ctx.q.value<string>('SELECT list FROM records WHERE id = ?', [id]))!);
  for (const id of [...gone].reverse()) {
    const one = await erase(ctx, id);
    erased.notes += one.notes;
    erased.attachments += one.attachments;
  }
  await forgetAnswers(ctx);
  await ctx.log(who, 'delete', record.list, record.id, null);
  for (const id of gone) await ctx.log(who, 'delete', lists.get(id)!, id, null);
  await tellFreed(ctx, waiting.filter((w) => !gone.includes(w)), record.id, 'deleted', who);
  await tidy(ctx);
  return { id: record.id, list: record.list, ...(gone.length ? { children: gone } : {}), ...erased };
}

export async function deleteList(ctx: Context, ref: string, who: Who): Promise<{ id: string; title: string; records: number } & Erased> {
  const { list } = await findList(ctx, ref, who, 'write');
  const ids = (await ctx.q.column('SELECT id FROM records WHERE list = ?', [list.id])) as number[];
  const waiting: number[] = [];
  for (const id of ids) waiting.push(...await waitingFor(ctx, id));
  const erased: Erased = { notes: 0, attachments: 0 };
  for (const id of ids) {
    const one = await erase(ctx, id);
    erased.notes += one.notes;
    erased.attachments += one.attachments;
  }
  (await ctx.q.run('DELETE FROM access WHERE list = ?', [list.id]));
  (await ctx.q.run('DELETE FROM lists WHERE id = ?', [list.id]));
  (await ctx.q.run("UPDATE log SET op = 'erased', change = NULL WHERE list = ? AND record IS NULL", [list.id]));
  // A list's id is made from its title: no row of the history keeps it, the deletion's own neither.
  (await ctx.q.run('UPDATE log SET list = NULL WHERE list = ?', [list.id]));
  await forgetAnswers(ctx);
  await ctx.log(who, 'delete-list', null, null, { records: ids.length });
  await tellFreed(ctx, waiting, null, 'deleted', who);
  await tidy(ctx);
  return { id: list.id, title: list.title, records: ids.length, ...erased };
}
