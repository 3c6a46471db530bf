/**
 * The search index on SQLite: contentless FTS5, a row per record (rowid = record number) with its
 * title, its first notes (ROW_NOTES, ROW_BYTES, text-index.ts) and its fields, and a row in
 * `note_text` for each later note (rowid = note number): a note costs its own words, however many
 * the record has, and a search of an everyday record is one match. Ranked by bm25. It never holds
 * a copy of the text, and a record taken out of it leaves no term behind.
 */
import type { Context } from './context.js';
import { HIT_COLUMNS, type HitRow, type TextIndex } from './dialect/dialect.js';
import { ROW_BYTES, ROW_NOTES, valuesOf, type IndexMark, type NoteWords } from './text-index.js';


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

interface Scored { id: number; score: number }

/** Each record once, with its best score, best first (bm25: lower is better). */
function best(...lists: Scored[][]): Scored[] {
  const by = new Map<number, number>();
  for (const list of lists) for (const h of list) by.set(h.id, Math.min(h.score, by.get(h.id) ?? Infinity));
  return [...by].map(([id, score]) => ({ id, score })).sort((a, b) => a.score - b.score || a.id - b.id);
}

/**
 * SQLite: the records found through the notes that have rows of their own (past a record's first,
 * text-index.ts), every word in the record's row or in one of those notes. A word in the row is
 * scored there (bm25, summed over the words as bm25 sums them); a word only in such notes scores
 * little, a bit more the more of them hold it: scoring each of tens of thousands of notes took
 * most of a search's time. None where no such note holds a word searched for, at the cost of one
 * match a word: a record of few notes has them all in its row.
 */
async function spilledHits(ctx: Context, terms: string[]): Promise<Scored[]> {
  const inNotes: Map<number, number>[] = [];
  for (const term of terms) {
    const rows = await ctx.q.all<{ id: number; n: number }>(`SELECT n.record AS id, count(*) AS n
        FROM note_text JOIN notes n ON n.id = note_text.rowid WHERE note_text MATCH ? GROUP BY n.record`, [term]);
    inNotes.push(new Map(rows.map((r) => [r.id, -Math.min(r.n, 100) / 1000])));
  }
  const candidates = new Set(inNotes.flatMap((m) => [...m.keys()]));
  if (candidates.size === 0) return [];
  const hits: Scored[] = [];
  const scores = new Map([...candidates].map((id) => [id, 0]));
  for (const [w, term] of terms.entries()) {
    if (scores.size === 0) break;
    // The rows matched whole, the candidates kept in SQL: FTS5 looks a prefix term up again for
    // each rowid it is asked about (about a millisecond each at 100,000 records).
    const inRow = new Map((await ctx.q.all<Scored>(`WITH m AS MATERIALIZED (SELECT rowid AS id, bm25(record_text, 4.0, 1.0, 1.0) AS score
        FROM record_text WHERE record_text MATCH ?) SELECT m.id, m.score FROM m JOIN json_each(?) AS c ON c.value = m.id`,
    [term, JSON.stringify([...scores.keys()])])).map((r) => [r.id, r.score]));
    for (const [id, total] of scores) {
      const score = Math.min(inNotes[w]!.get(id) ?? Infinity, inRow.get(id) ?? Infinity);
      if (score === Infinity) scores.delete(id);
      else scores.set(id, total + score);
    }
  }
  for (const [id, score] of scores) hits.push({ id, score });
  return hits;
}

/**
 * SQLite (FTS5, bm25): the best hits are ranked by the index alone first, and only those are
 * looked up: looking up every hit's record to filter it is what costs at a million records. The
 * answer is the same as ranking all of them whenever enough of the best hits can be shown; else
 * all are ranked.
 */
async function rankedSqlite(ctx: Context, terms: string[], visible: string[], seen: string[], limit: number): Promise<HitRow[]> {
  const first = limit * 4;
  const query = terms.join(' AND ');
  const spilled = await spilledHits(ctx, terms);
  const inRows = await ctx.q.all<Scored>(`SELECT rowid AS id, bm25(record_text, 4.0, 1.0, 1.0) AS score FROM record_text
      WHERE record_text MATCH ? ORDER BY score, rowid LIMIT ?`, [query, first]);
  const shown = (hits: Scored[]): Promise<HitRow[]> => (hits.length === 0 ? Promise.resolve([]) : ctx.q.all<HitRow>(`${HIT_COLUMNS}
      FROM json_each(?) AS h JOIN records r ON r.id = h.value ->> 0 JOIN lists l ON l.id = r.list
      WHERE ${[...visible, '1'].join(' AND ')}
      ORDER BY h.value ->> 1, r.id LIMIT ?`, [JSON.stringify(hits.map((h) => [h.id, h.score])), ...seen, limit]));
  const merged = best(inRows, spilled);
  let rows = await shown(merged.slice(0, first));
  if (rows.length < limit && (inRows.length === first || merged.length > first)) {
    const all = await ctx.q.all<HitRow & { score: number }>(`${HIT_COLUMNS}, bm25(record_text, 4.0, 1.0, 1.0) AS score
        FROM record_text JOIN records r ON r.id = record_text.rowid JOIN lists l ON l.id = r.list
        WHERE ${['record_text MATCH ?', ...visible].join(' AND ')}
        ORDER BY score, r.id LIMIT ?`, [query, ...seen, limit]);
    rows = await shown(best(all, spilled));
  }
  return rows;
}

export const sqliteText: TextIndex = {
  async unindex(ctx, id) {
    // Every note's row, not only those past the row's as they stand now: a note rewritten in this
    // transaction may have moved them, and a row left would keep a deleted record's words.
    await ctx.q.run('DELETE FROM note_text WHERE rowid IN (SELECT id FROM notes WHERE record = ?)', [id]);
    await ctx.q.run('DELETE FROM record_text WHERE rowid = ?', [id]);
  },
  async index(ctx, marked) {
    for (const [id, mark] of marked) await indexSqlite(ctx, id, mark);
  },
  ranked: (ctx, { terms }, visible, seen, limit) => rankedSqlite(ctx, terms, visible, seen, limit),
  holds(words, phrase) {
    // FTS5's own phrase, or each word a prefix term: the words quoted, never read as syntax.
    const quoted = words.map((w) => w.replace(/"/g, '""'));
    const match = phrase ? `"${quoted.join(' ')}"` : quoted.map((w) => `"${w}"*`).join(' AND ');
    return {
      sql: `(r.id IN (SELECT rowid FROM record_text WHERE record_text MATCH ?)
        OR r.id IN (SELECT n.record FROM note_text JOIN notes n ON n.id = note_text.rowid WHERE note_text MATCH ?))`,
      params: [match, match],
    };
  },
};
