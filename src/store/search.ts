/**
 * Searching records by the words of their title, notes and field values (FTS5, ranked by
 * bm25), in the lists the asker can read. The asker's text is only ever words: each becomes
 * a quoted prefix term, so no FTS syntax from outside reaches the query.
 */
import { isPerson } from './access.js';
import type { Context } from './context.js';
import { indexMarked } from './text-index.js';
import type { SearchHit, State, Who } from './types.js';

const MAX_WORDS = 16;
const MAX_HITS = 500;
const AROUND = 40;

/** The user's words, each as an FTS5 term: `"word"*`. None when there is no word to find. */
export function searchTerms(text: string): { terms: string[]; words: string[] } {
  // Split as the index's tokenizer does, so `title:alpha` is two words, never a column filter.
  const words = String(text).slice(0, 2000).split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((w) => w !== '')
    .slice(0, MAX_WORDS);
  return { terms: words.map((w) => `"${w.replace(/"/g, '""')}"*`), words };
}

/** Lowercase without accents, a final sigma as any sigma, keeping where each folded character came from. */
function fold(text: string): { folded: string; from: number[] } {
  let folded = '';
  const from: number[] = [];
  let at = 0;
  for (const ch of text) {
    const f = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/ς/g, 'σ');
    for (let i = 0; i < f.length; i++) from.push(at);
    folded += f;
    at += ch.length;
  }
  return { folded, from };
}

function piece(text: string, word: string): string | undefined {
  const target = fold(word).folded;
  if (!target) return undefined;
  const { folded, from } = fold(text);
  const hit = folded.indexOf(target);
  if (hit < 0) return undefined;
  const start = from[hit] ?? 0;
  const a = Math.max(0, start - AROUND);
  const b = Math.min(text.length, start + target.length + AROUND * 2);
  const plain = text.slice(a, b).replace(/\s+/g, ' ').trim();
  return `${a > 0 ? '…' : ''}${plain}${b < text.length ? '…' : ''}`;
}

/**
 * Folded as `fold` does, a whole text at once and keeping no positions: a first look that passes
 * over the notes without the word cheaply (folding a character at a time made a search that hit a
 * record of 5,000 notes take 80 ms).
 */
const roughly = (text: string): string => text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/ς/g, 'σ');

async function snippet(ctx: Context, id: number, title: string, word: string): Promise<string> {
  const inTitle = piece(title, word);
  if (inTitle) return inTitle;
  const notes = (await ctx.q.column('SELECT text FROM notes WHERE record = ? ORDER BY id', [id])) as string[];
  const target = roughly(word);
  for (const text of notes) {
    if (!roughly(text).includes(target)) continue;
    const inNote = piece(text, word);
    if (inNote) return inNote;
  }
  return title.length > AROUND * 3 ? `${title.slice(0, AROUND * 3)}…` : title;
}

interface HitRow { id: number; list: string; listTitle: string; title: string; state: string; states: string; archived: number }

const SELECT = 'SELECT r.id, r.list, l.title AS "listTitle", r.title, r.state, l.states, r.archived';

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
  const shown = (hits: Scored[]): Promise<HitRow[]> => (hits.length === 0 ? Promise.resolve([]) : ctx.q.all<HitRow>(`${SELECT}
      FROM json_each(?) AS h JOIN records r ON r.id = h.value ->> 0 JOIN lists l ON l.id = r.list
      WHERE ${[...visible, '1'].join(' AND ')}
      ORDER BY h.value ->> 1, r.id LIMIT ?`, [JSON.stringify(hits.map((h) => [h.id, h.score])), ...seen, limit]));
  const merged = best(inRows, spilled);
  let rows = await shown(merged.slice(0, first));
  if (rows.length < limit && (inRows.length === first || merged.length > first)) {
    const all = await ctx.q.all<HitRow & { score: number }>(`${SELECT}, bm25(record_text, 4.0, 1.0, 1.0) AS score
        FROM record_text JOIN records r ON r.id = record_text.rowid JOIN lists l ON l.id = r.list
        WHERE ${['record_text MATCH ?', ...visible].join(' AND ')}
        ORDER BY score, r.id LIMIT ?`, [query, ...seen, limit]);
    rows = await shown(best(all, spilled));
  }
  return rows;
}

/** The configurations a record's text may be indexed in (one per list language, and none). */
const CONFIGS = ['binder_english', 'binder_french', 'binder_simple'] as const;

/**
 * PostgreSQL's own full-text search: each word a prefix term (`'word':*`, the words being letters
 * and digits alone, never syntax), stemmed in the configuration the record was indexed in,
 * ranked by ts_rank with the title weighted first.
 */
async function rankedPostgres(ctx: Context, words: string[], visible: string[], seen: string[], limit: number): Promise<HitRow[]> {
  // A word as PostgreSQL lowercases the text it indexes, a character at a time: a capital sigma is
  // σ there, where JavaScript makes a final one ς (ΟΔΟΣ would never be found); a ς written as such
  // stays ς in the index, so a word with one is looked for both ways.
  const forms = words.map((w) => [...new Set([w.toLowerCase(), w.toLowerCase().replace(/ς/g, 'σ')])].map((f) => `'${f}':*`));
  // Every word, stemmed in the configuration or as written (the index holds both).
  const query = (config: string): string => forms
    .map((ways) => `(${ways.map(() => `to_tsquery(${config}, ?) || to_tsquery('binder_simple', ?)`).join(' || ')})`).join(' && ');
  const twice = forms.flatMap((ways) => ways.flatMap((t) => [t, t]));
  const match = CONFIGS.map((c) => `(t.config = '${c}'::regconfig AND t.tsv @@ (${query(`'${c}'`)}))`).join(' OR ');
  return ctx.q.all<HitRow>(`${SELECT}
      FROM record_text t JOIN records r ON r.id = t.record JOIN lists l ON l.id = r.list
      WHERE (${match}) ${visible.map((v) => `AND ${v}`).join(' ')}
      ORDER BY ts_rank('{0.1, 0.2, 0.4, 1.0}', t.tsv, ${query('t.config')}) DESC, r.id LIMIT ?`,
  [...CONFIGS.flatMap(() => twice), ...seen, ...twice, limit]);
}

export async function search(
  ctx: Context, text: string, who: Who, options: { limit?: number; archived?: boolean } = {},
): Promise<SearchHit[]> {
  const { terms, words } = searchTerms(text);
  if (terms.length === 0) return [];
  // What this transaction changed so far is found too.
  await indexMarked(ctx, true);
  const limit = Math.max(1, Math.min(MAX_HITS, Math.floor(options.limit ?? 50)));
  const archived = options.archived === true;
  // Who may see which hit: the same conditions whether the hits come ranked by the index or not.
  const visible = [
    archived ? '' : 'r.archived = 0',
    isPerson(who) ? (archived ? '' : 'l.archived = 0') : 'l.archived = 0 AND l.id IN (SELECT list FROM access WHERE agent = ?)',
  ].filter((w) => w !== '');
  const seen = isPerson(who) ? [] : [who.id];
  const rows = ctx.q.dialect === 'sqlite'
    ? await rankedSqlite(ctx, terms, visible, seen, limit)
    : await rankedPostgres(ctx, words, visible, seen, limit);
  const hits: SearchHit[] = [];
  for (const row of rows) {
    const states = JSON.parse(row.states) as State[];
    hits.push({
      id: row.id,
      list: row.list,
      listTitle: row.listTitle,
      title: row.title,
      state: row.state,
      stateName: states.find((s) => s.id === row.state)?.name ?? row.state,
      archived: row.archived === 1,
      snippet: await snippet(ctx, row.id, row.title, words[0]!),
    });
  }
  return hits;
}
