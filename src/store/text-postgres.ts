/**
 * The search index on PostgreSQL: `record_text`, a tsvector per record (title weighted first), in
 * the language of the record's list where it has one, changed in place by a note or an edit, and
 * searched by PostgreSQL's own full-text search. It never holds a copy of the text, and a record
 * taken out of it leaves no term behind.
 */
import type { Context } from './context.js';
import { HIT_COLUMNS, type HitRow, type TextIndex } from './dialect/dialect.js';
import { unindex, valuesOf, type Words } from './text-index.js';

/** Records reindexed at once before a commit. */
const AT_ONCE = 256;

/** PostgreSQL's text search configuration for a list's language. */
export const configOf = (lang: string | null): string => (lang === 'en' ? 'binder_english' : lang === 'fr' ? 'binder_french' : 'binder_simple');

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
  return ctx.q.all<HitRow>(`${HIT_COLUMNS}
      FROM record_text t JOIN records r ON r.id = t.record JOIN lists l ON l.id = r.list
      WHERE (${match}) ${visible.map((v) => `AND ${v}`).join(' ')}
      ORDER BY ts_rank('{0.1, 0.2, 0.4, 1.0}', t.tsv, ${query('t.config')}) DESC, r.id LIMIT ?`,
  [...CONFIGS.flatMap(() => twice), ...seen, ...twice, limit]);
}

export const postgresText: TextIndex = {
  async unindex(ctx, id) {
    await ctx.q.run('DELETE FROM record_text WHERE record = ?', [id]);
  },
  async index(ctx, marked) {
    // Asked at once, a few hundred at a time: a server store answers them in one round trip, and
    // an import of a hundred thousand records does not queue them all on one connection.
    for (let at = 0; at < marked.length; at += AT_ONCE) {
      await Promise.all(marked.slice(at, at + AT_ONCE).map(([id, mark]) =>
        (typeof mark === 'object' && !mark.recheck && !mark.edited && !mark.row ? rewrite(ctx, id, mark) : reindex(ctx, id, mark === true))));
    }
  },
  ranked: (ctx, { words }, visible, seen, limit) => rankedPostgres(ctx, words, visible, seen, limit),
  holds(words, phrase) {
    if (phrase) {
      // As written, one word after another (the index holds every word unstemmed too).
      return { sql: `r.id IN (SELECT t.record FROM record_text t WHERE t.tsv @@ phraseto_tsquery('binder_simple', ?))`, params: [words.join(' ')] };
    }
    const forms = words.map((w) => [...new Set([w.toLowerCase(), w.toLowerCase().replace(/ς/g, 'σ')])].map((f) => `'${f}':*`));
    const query = (config: string): string => forms
      .map((ways) => `(${ways.map(() => `to_tsquery(${config}, ?) || to_tsquery('binder_simple', ?)`).join(' || ')})`).join(' && ');
    const twice = forms.flatMap((ways) => ways.flatMap((t) => [t, t]));
    const match = CONFIGS.map((c) => `(t.config = '${c}'::regconfig AND t.tsv @@ (${query(`'${c}'`)}))`).join(' OR ');
    return { sql: `r.id IN (SELECT t.record FROM record_text t WHERE ${match})`, params: CONFIGS.flatMap(() => twice) };
  },
};
