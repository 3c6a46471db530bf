/**
 * Keeps the search index in step with a record's title, notes and field values: what changed in a
 * transaction is marked as it changes, and the engine's index (text-sqlite.ts, text-postgres.ts)
 * brought in step once, before the commit. It never holds a copy of the text, and a record taken
 * out of it leaves no term behind.
 */
import type { Context } from './context.js';

/** A note whose words are to be indexed: its number and its text. */
export interface NoteWords { id: number; text: string }

/**
 * What changed in a record's words since it was indexed, known from the change itself: its new
 * title and field values (absent: as they were), the notes added and the notes rewritten. Neither
 * store reads all of a record's notes again to bring its words in step (SQLite reads at most the
 * first ones, of its row), however many the record has.
 */
export interface Words {
  title?: string;
  values?: string;
  notes: NoteWords[];
  /** Notes rewritten by their author, by number: their text is read at the commit. */
  edited?: number[];
  /** The record's fields changed where its title was not read: its row is written from the table. */
  row?: true;
  /**
   * A savepoint was undone meanwhile, or a search indexed these words already: which of them
   * stand is read from the tables at the commit (SQLite), or the record indexed whole (PostgreSQL).
   */
  recheck?: true;
}

/**
 * What a record's index waits for until the commit: `true`, made in this transaction (nothing of
 * it indexed yet); `false`, indexed again whole, from what stands then; Words, only those words.
 */
export type IndexMark = boolean | Words;

/**
 * The record's terms out of the index now (it is being erased): called before its notes go, whose
 * rows SQLite finds by them. A mark it had stays: if a savepoint undoes the erasing, the record is
 * indexed as it stands at the commit; if not, it is found gone then, and nothing of it is indexed.
 */
export async function unindex(ctx: Context, id: number): Promise<void> {
  // Words a mark holds for it are not written at the commit unless the record still stands then.
  const mark = ctx.unindexed.get(id);
  if (typeof mark === 'object') mark.recheck = true;
  await ctx.q.dialect.text.unindex(ctx, id);
}

/**
 * The record's index is brought in step once, just before its transaction commits, however often
 * it changed in it: reindexed inside each ask's savepoint, SQLite's FTS5 wrote a segment of the
 * index at each savepoint and merged them (a savepoint's release took 13–15 µs, not 2). Whatever
 * the savepoints undid, the record is indexed as it stands then. `isNew`: made in this transaction.
 */
export function reindexLater(ctx: Context, id: number, isNew = false): void {
  const mark = ctx.unindexed.get(id);
  ctx.unindexed.set(id, isNew && (mark === undefined || mark === true));
}

/** A note was added to the record: its words are added to the record's at the commit. */
export function notedLater(ctx: Context, id: number, note: NoteWords): void {
  const mark = ctx.unindexed.get(id);
  if (mark === undefined) ctx.unindexed.set(id, { notes: [note] });
  else if (typeof mark === 'object') mark.notes.push(note);
  // Otherwise indexed whole at the commit, this note with the others.
}

/**
 * A note of the record was rewritten: SQLite indexes that note's row again; PostgreSQL, whose row
 * for the record cannot take one note's words out, indexes the record whole.
 */
export function noteEditedLater(ctx: Context, id: number, noteId: number): void {
  const mark = ctx.unindexed.get(id);
  if (mark === undefined) ctx.unindexed.set(id, { notes: [], edited: [noteId] });
  else if (typeof mark === 'object') (mark.edited ??= []).push(noteId);
}

/** The record's fields were changed (its title is not at hand): its row is written again. */
export function rowLater(ctx: Context, id: number): void {
  const mark = ctx.unindexed.get(id);
  if (mark === undefined) ctx.unindexed.set(id, { notes: [], row: true });
  else if (typeof mark === 'object') mark.row = true;
}

/** The record's title and fields were changed to these: its notes' words stay as they are. */
export function editedLater(ctx: Context, id: number, title: string, fields: Record<string, string>): void {
  const values = Object.values(fields).join('\n');
  const mark = ctx.unindexed.get(id);
  if (mark === undefined) ctx.unindexed.set(id, { title, values, notes: [] });
  else if (typeof mark === 'object') Object.assign(mark, { title, values });
}

/**
 * A savepoint was undone: what it changed is gone, and which marked words were its changes' is not
 * kept. Every record marked with words is checked at the commit against what stands then.
 */
export function undoneWords(unindexed: Map<number, IndexMark>): void {
  for (const mark of unindexed.values()) if (typeof mark === 'object') mark.recheck = true;
}

/**
 * Indexes the records marked so far. A search calls it with `keep` (it must find what its own
 * transaction changed, and a savepoint undone around it would take that indexing back): the
 * marks stay for the commit's. Before the commit, they are done and dropped.
 */
export async function indexMarked(ctx: Context, keep = false): Promise<void> {
  if (ctx.unindexed.size === 0) return;
  // A search's indexing may be undone by a savepoint around it and its marks stay for the commit:
  // what it does must be right done twice (rows taken out before they are written, words not
  // added again), so the marks it leaves say to check.
  if (keep) undoneWords(ctx.unindexed);
  const marked = [...ctx.unindexed];
  if (keep) {
    // Indexed now: at the commit, a record made in this transaction has its rows to take out.
    for (const [id, mark] of marked) if (mark === true) ctx.unindexed.set(id, false);
  } else {
    ctx.unindexed.clear();
  }
  await ctx.q.dialect.text.index(ctx, marked);
}

/**
 * SQLite: a record's row holds its title, its fields and its first notes, in order, as long as
 * they are at most ROW_NOTES and ROW_BYTES of text; each later note has a row of its own. Writing
 * the record's row again then reads a bounded text, however many notes the record has, and a
 * record of few notes is still found by one match of every word. (Migration 15 places the notes
 * of a store made before by the same bounds: changing them needs a migration.)
 */
export const ROW_NOTES = 64;
export const ROW_BYTES = 16_384;

/** A record's field values as their words are indexed: one per line. */
export const valuesOf = (fields: string): string => Object.values(JSON.parse(fields) as Record<string, string>).join('\n');
