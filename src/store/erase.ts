/**
 * Deleting, a person's alone, for good: a record and everything of it, or a list and all its
 * records. The record's history is emptied down to who and when, its needs go both ways (with
 * the rows, by the schema's cascade), its terms leave the search index, answers that may quote it are dropped, and the write-ahead log is folded back so no
 * byte of it survives in the files. It must never leave a copy of a deleted record's text.
 */
import { findList, findRecord, personOnly } from './access.js';
import type { Context } from './context.js';
import { tellFreed, waitingFor } from './needs.js';
import { unindex } from './text-index.js';
import type { Who } from './types.js';

function erase(ctx: Context, id: number): void {
  ctx.db.prepare('DELETE FROM notes WHERE record = ?').run(id);
  ctx.db.prepare('DELETE FROM attachments WHERE record = ?').run(id);
  ctx.db.prepare('DELETE FROM records WHERE id = ?').run(id);
  ctx.db.prepare("UPDATE log SET op = 'erased', change = NULL WHERE record = ?").run(id);
  unindex(ctx, id);
}

/** Answers kept for crash recovery may quote what was deleted; delivered ones are needed no more. */
function forgetAnswers(ctx: Context): void {
  ctx.db.prepare('UPDATE asks SET answer = NULL WHERE delivered = 1 AND answer IS NOT NULL').run();
}

/**
 * After the deletions: secure-delete takes a record's terms out of the index's leaves, but the
 * segment directory keeps the terms that begin its pages; only a merge rewrites it.
 */
function tidy(ctx: Context): void {
  ctx.db.prepare("INSERT INTO record_text (record_text) VALUES ('optimize')").run();
  ctx.checkpointAfterCommit();
}

export function deleteRecord(ctx: Context, ref: number | string, who: Who): { id: number; list: string } {
  personOnly(who, 'delete a record', 'delete', 'supprimer une fiche');
  const { record } = findRecord(ctx, ref, who, 'write');
  const waiting = waitingFor(ctx, record.id);
  erase(ctx, record.id);
  forgetAnswers(ctx);
  ctx.log(who, 'delete', record.list, record.id, null);
  tellFreed(ctx, waiting, record.id, 'deleted', who);
  tidy(ctx);
  return { id: record.id, list: record.list };
}

export function deleteList(ctx: Context, ref: string, who: Who): { id: string; title: string; records: number } {
  personOnly(who, 'delete a list', 'delete-list', 'supprimer une liste');
  const { list } = findList(ctx, ref, who, 'write');
  const ids = ctx.db.prepare('SELECT id FROM records WHERE list = ?').pluck().all(list.id) as number[];
  const waiting = ids.flatMap((id) => waitingFor(ctx, id));
  for (const id of ids) erase(ctx, id);
  ctx.db.prepare('DELETE FROM access WHERE list = ?').run(list.id);
  ctx.db.prepare('DELETE FROM lists WHERE id = ?').run(list.id);
  ctx.db.prepare("UPDATE log SET op = 'erased', change = NULL WHERE list = ? AND record IS NULL").run(list.id);
  // A list's id is made from its title: no row of the history keeps it, the deletion's own neither.
  ctx.db.prepare('UPDATE log SET list = NULL WHERE list = ?').run(list.id);
  forgetAnswers(ctx);
  ctx.log(who, 'delete-list', null, null, { records: ids.length });
  tellFreed(ctx, waiting, null, 'deleted', who);
  tidy(ctx);
  return { id: list.id, title: list.title, records: ids.length };
}
