/**
 * Keeps the search index in step with a record's title, notes and field values. It never holds a
 * copy of the text, and a record taken out of it leaves no term behind. SQLite: contentless FTS5,
 * a row per record (rowid = record number) with its title, its first notes (ROW_NOTES, ROW_BYTES)
 * and its fields, and a row in `note_text` for each later note (rowid = note number): a note costs
 * its own words, however many the record has, and a search of an everyday record is one match.
 * PostgreSQL: `record_text`, a tsvector per record (title weighted first), in the language of the
 * record's list where it has one, changed in place by a note or an edit.
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

/** Records reindexed at once before a commit. */
const AT_ONCE = 256;

/** PostgreSQL's text search configuration for a list's language. */
export const configOf = (lang: string | null): string => (lang === 'en' ? 'binder_english' : lang === 'fr' ? 'binder_french' : 'binder_simple');

/**
 * The record's terms out of the index now (it is being erased): called before its notes go, whose
 * rows SQLite finds by them. A mark it had stays: if a savepoint undoes the erasing, the record is
 * indexed as it stands at the commit; if not, it is found gone then, and nothing of it is indexed.
 */
export async function unindex(ctx: Context, id: number): Promise<void> {
  // Words a mark holds for it are not written at the commit unless the record still stands then.
  const mark = ctx.unindexed.get(id);
  if (typeof mark === 'object') mark.recheck = true;
  if (ctx.q.dialect === 'postgres') {
    await ctx.q.run('DELETE FROM record_text WHERE record = ?', [id]);
    return;
  }
  // Every note's row, not only those past the row's as they stand now: a note rewritten in this
  // transaction may have moved them, and a row left would keep a deleted record's words.
  await ctx.q.run('DELETE FROM note_text WHERE rowid IN (SELECT id FROM notes WHERE record = ?)', [id]);
  await ctx.q.run('DELETE FROM record_text WHERE rowid = ?', [id]);
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
  if (ctx.q.dialect === 'sqlite') {
    for (const [id, mark] of marked) await indexSqlite(ctx, id, mark);
    return;
  }
  // Asked at once, a few hundred at a time: a server store answers them in one round trip, and
  // an import of a hundred thousand records does not queue them all on one connection.
  for (let at = 0; at < marked.length; at += AT_ONCE) {
    await Promise.all(marked.slice(at, at + AT_ONCE).map(([id, mark]) =>
      (typeof mark === 'object' && !mark.recheck && !mark.edited && !mark.row ? rewrite(ctx, id, mark) : reindex(ctx, id, mark === true))));
  }
}

/** A record's field values as their words are indexed: one per line. */
const valuesOf = (fields: string): string => Object.values(JSON.parse(fields) as Record<string, string>).join('\n');

/**
 * SQLite: a record's row holds its title, its fields and its first notes, in order, as long as
 * they are at most ROW_NOTES and ROW_BYTES of text; each later note has a row of its own. Writing
 * the record's row again then reads a bounded text, however many notes the record has, and a
 * record of few notes is still found by one match of every word. (Migration 15 places the notes
 * of a store made before by the same bounds: changing them needs a migration.)
 */
export const ROW_NOTES = 64;
export const ROW_BYTES = 16_384;

/** Which of the record's first notes are in its row (the rest of the first, and all later, are not). */
async function placeOf(ctx: Context, id: number): Promise<{ inRow: number[]; first: number[] }> {
  const first = await ctx.q.all<{ id: number; bytes: number }>(
    'SELECT id, octet_length(text) AS bytes FROM notes WHERE record = ? ORDER BY id LIMIT ?', [id, ROW_NOTES + 1]);
  const inRow: number[] = [];
  let bytes = 0;
  for (const note of first) {
    bytes += note.bytes;
    if (inRow.length === ROW_NOTES || bytes > ROW_BYTES) break;
    inRow.push(note.id);
  }
  return { inRow, first: first.map((n) => n.id) };
}

/** The record's row written (taken out first unless `isNew`): its title and fields given, or as they stand. */
async function writeRow(ctx: Context, id: number, inRow: number, isNew: boolean, given?: { title: string; values: string }): Promise<void> {
  if (!isNew) await ctx.q.run('DELETE FROM record_text WHERE rowid = ?', [id]);
  const row = given ?? await ctx.q.get<{ title: string; fields: string }>('SELECT title, fields FROM records WHERE id = ?', [id])
    .then((r) => r && { title: r.title, values: valuesOf(r.fields) });
  if (!row) return;
  const notes = inRow === 0 ? [] : await ctx.q.column<string>('SELECT text FROM notes WHERE record = ? ORDER BY id LIMIT ?', [id, inRow]);
  await ctx.q.run('INSERT INTO record_text (rowid, title, notes, fields) VALUES (?, ?, ?, ?)', [id, row.title, notes.join('\n'), row.values]);
}

/** A note's own row, for a note never indexed on its own. */
const addNoteRow = (ctx: Context, note: NoteWords): Promise<unknown> =>
  ctx.q.run('INSERT INTO note_text (rowid, text) VALUES (?, ?)', [note.id, note.text]);

/** A note's own row written again from the table; none for a note not there. */
async function writeNote(ctx: Context, id: number, noteId: number): Promise<void> {
  await ctx.q.run('DELETE FROM note_text WHERE rowid = ?', [noteId]);
  const text = await ctx.q.value<string>('SELECT text FROM notes WHERE id = ? AND record = ?', [noteId, id]);
  if (typeof text === 'string') await addNoteRow(ctx, { id: noteId, text });
}

/** SQLite: the rows of the record written where the mark says they changed. */
async function indexSqlite(ctx: Context, id: number, mark: IndexMark): Promise<void> {
  if (typeof mark === 'boolean') {
    // Made in this transaction: nothing of it indexed, unless a search did it (false): taken out first.
    const { inRow } = await placeOf(ctx, id);
    if (mark === false) await ctx.q.run('DELETE FROM note_text WHERE rowid IN (SELECT id FROM notes WHERE record = ?)', [id]);
    await writeRow(ctx, id, inRow.length, mark);
    const spilled = await ctx.q.all<NoteWords>(`SELECT id, text FROM notes WHERE record = ? ORDER BY id LIMIT -1 OFFSET ?`, [id, inRow.length]);
    for (const note of spilled) await addNoteRow(ctx, note);
    return;
  }
  const { inRow, first } = await placeOf(ctx, id);
  if (mark.recheck || mark.edited) {
    // What a savepoint undid, or a search indexed already, is known only from the tables: the row
    // and the marked notes are written from what stands. A note rewritten may also move the
    // record's first notes in or out of its row (their lengths place them): those are settled too.
    await writeRow(ctx, id, inRow.length, false);
    for (const noteId of new Set([...(mark.edited ? first : []), ...mark.notes.map((n) => n.id), ...(mark.edited ?? [])])) {
      if (!inRow.includes(noteId)) await writeNote(ctx, id, noteId);
      else if (mark.edited) await ctx.q.run('DELETE FROM note_text WHERE rowid = ?', [noteId]);
    }
    return;
  }
  // Notes added: in the row while it has room, else a row of their own; the title and fields as given.
  const toRow = mark.notes.some((n) => inRow.includes(n.id));
  if (toRow || mark.row || mark.title !== undefined) {
    await writeRow(ctx, id, inRow.length, false, mark.title !== undefined && !mark.row ? { title: mark.title, values: mark.values ?? '' } : undefined);
  }
  for (const note of mark.notes) {
    if (!inRow.includes(note.id)) await addNoteRow(ctx, note);
  }
}

/** PostgreSQL: the record's row made again whole. `isNew`: it was never indexed, nothing to take out first. */
async function reindex(ctx: Context, id: number, isNew = false): Promise<void> {
  // The record and its notes' text in one look.
  const row = await ctx.q.get<{ title: string; fields: string; list: string; lang: string | null; notes: string | null }>(
    `SELECT r.title, r.fields, r.list, l.lang, (SELECT string_agg(n.text, ? ORDER BY n.id) FROM notes n WHERE n.record = r.id) AS notes
      FROM records r JOIN lists l ON l.id = r.list WHERE r.id = ?`, ['\n', id]);
  if (!row) {
    if (!isNew) await unindex(ctx, id);
    return;
  }
  const notes = row.notes ?? '';
  const values = valuesOf(row.fields);
  const config = configOf(row.lang);
  const [title, fields] = [wordsOf(row.title), wordsOf(values)];
  // The notes' words that surely fit go in with the title's and fields'; the rest is added as
  // notes are, within the bound (the same words kept as when they were added one note at a time).
  const [said, ...rest] = chunks(wordsOf(notes), Math.max(0, CHARS_MAX - title.length - fields.length));
  ctx.q.later(`INSERT INTO record_text (record, list, config, tsv) VALUES (?, ?, ?::regconfig, ${part('A')} || ${part('B')} || ${part('C')})
    ON CONFLICT (record) DO UPDATE SET list = excluded.list, config = excluded.config, tsv = excluded.tsv`,
  [id, row.list, config, config, title, title, config, said ?? '', said ?? '', config, fields, fields]);
  addNoteWords(ctx, id, rest.join(' '));
}

/**
 * PostgreSQL: notes' words added to the record's row, a chunk at a time, each only while the row
 * stays within the bound (WORDS_MAX): past it, a record's later notes add no word.
 */
function addNoteWords(ctx: Context, id: number, words: string): void {
  for (const chunk of chunks(words, CHARS_MAX)) {
    ctx.q.later(`UPDATE record_text SET tsv = tsv || ${part('B', 'config')}
      WHERE record = ? AND octet_length(tsv::text) <= ?`, [chunk, chunk, id, WORDS_MAX - BYTES_A_CHAR * chunk.length]);
  }
}

/**
 * PostgreSQL: the record's words changed in place, in the configuration it was indexed in: a new
 * title and fields replace the old ones' (weights A and C), the notes' words (B) are kept, and new
 * notes' words are added. A record erased meanwhile has no row to change.
 */
async function rewrite(ctx: Context, id: number, words: Words): Promise<void> {
  // Each kept within the tsvector's bound: the words already there are measured by their text
  // (octet_length of tsv::text: about their size or more), what is added by BYTES_A_CHAR.
  if (words.title !== undefined) {
    const [title, fields] = [wordsOf(words.title), wordsOf(words.values ?? '')];
    // Changed in place while the notes' words fit beside the new title and fields. A row too full
    // for them (its notes' words near the bound) is made again whole instead, which keeps as many of
    // its notes' words as fit, in order, not none of them. Waited for: what is done next depends on it.
    const changed = await ctx.q.value<number>(`UPDATE record_text SET tsv = ${part('A', 'config')} || ts_filter(tsv, '{b}') || ${part('C', 'config')}
      WHERE record = ? AND octet_length(ts_filter(tsv, '{b}')::text) <= ? RETURNING 1`,
    [title, title, fields, fields, id, WORDS_MAX - BYTES_A_CHAR * (title.length + fields.length)]);
    // The whole row made again holds every note there is now, this transaction's new ones too.
    if (changed === undefined) return reindex(ctx, id);
  }
  if (words.notes.length) addNoteWords(ctx, id, wordsOf(words.notes.map((n) => n.text).join('\n')));
}

/**
 * PostgreSQL keeps a record's words in one tsvector of at most 1 MB: past it, every change to the
 * record would fail, so an agent could freeze a record with a few dozen notes of made-up words.
 * Words are added only within WORDS_MAX bytes (a margin under the bound), a character of text
 * counted as BYTES_A_CHAR bytes of tsvector at most (measured: 2.2 for words of six letters, 4.9
 * for CJK words of two characters, both stemmed and as written).
 */
const WORDS_MAX = 1_000_000;
const BYTES_A_CHAR = 7;
/** The characters of words made into a tsvector at once at most: what surely fits an empty row. */
const CHARS_MAX = Math.floor(WORDS_MAX / BYTES_A_CHAR);

/**
 * Words (wordsOf's: separated by spaces) in chunks of at most `first` characters for the first and
 * CHARS_MAX for the others, cut between words (a word longer than a chunk, never half of a
 * character outside the BMP). None for no words.
 */
function chunks(words: string, first: number): string[] {
  const out: string[] = [];
  let rest = words.trim();
  let max = first;
  while (rest.length > max) {
    let cut = rest.lastIndexOf(' ', max);
    if (cut <= 0) cut = /[\uD800-\uDBFF]/.test(rest[max - 1] ?? '') ? max - 1 : max;
    if (cut <= 0) {
      out.push('');
    } else {
      out.push(rest.slice(0, cut));
      rest = rest.slice(cut).trimStart();
    }
    max = CHARS_MAX;
  }
  if (rest) out.push(rest);
  return out;
}

// Words alone, as the asker's are read (search.ts) and as SQLite's tokenizer splits them: no
// paths, URLs or hyphenated forms taken whole by PostgreSQL's parser.
const wordsOf = (text: string): string => text.replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ');
/** A part of a record's words, both stemmed in the list's language and as written (a stop word is a word too). */
const part = (weight: string, config = '?::regconfig'): string =>
  `setweight(to_tsvector(${config}, ?) || to_tsvector('binder_simple', ?), '${weight}')`;
