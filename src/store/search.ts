/**
 * Searching records by their number (`12`, `#12`) and the words of their title, notes and field values, ranked by the engine's
 * index (text-sqlite.ts, text-postgres.ts), in the lists the asker can read. The asker's text is only ever words: each becomes
 * a quoted prefix term, so no FTS syntax from outside reaches the query.
 */
import { isPerson } from './access.js';
import type { Context } from './context.js';
import { HIT_COLUMNS, type HitRow } from './dialect/dialect.js';
import { readRecordNumber } from './record-number.js';
import { indexMarked } from './text-index.js';
import { parseQuery } from './query.js';
import { queryHits, wordsAlone } from './query-run.js';
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

/** One character folded: lowercase without accents, a final sigma as any sigma. */
const foldChar = (ch: string): string => ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/ς/g, 'σ');

/** Nothing but ASCII: folded by lowercase alone, each character where it was. */
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Lowercase without accents, a final sigma as any sigma, keeping where each folded character came
 * from (null: each where it was). Fifty hits' titles were folded a character at a time at every
 * search, most of its JavaScript: ASCII text, most titles, is lowercased whole.
 */
function fold(text: string): { folded: string; from: number[] | null } {
  if (ASCII.test(text)) return { folded: text.toLowerCase(), from: null };
  let folded = '';
  const from: number[] = [];
  let at = 0;
  for (const ch of text) {
    const f = ch.charCodeAt(0) < 0x80 ? ch.toLowerCase() : foldChar(ch);
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
  const start = from ? from[hit] ?? 0 : hit;
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

export async function search(
  ctx: Context, text: string, who: Who, options: { limit?: number; archived?: boolean } = {},
): Promise<SearchHit[]> {
  // Anything but words (a key, a phrase, a -, OR) is a query of the one query language.
  const query = parseQuery(text);
  if (query.any.length > 0 && !wordsAlone(query)) return queryHits(ctx, query, who, options);
  const { terms, words } = searchTerms(text);
  if (terms.length === 0) return [];
  const number = readRecordNumber(text);
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
  // `5301` or `#5301` is first the record of that number (where the asker may see it), then the words.
  const numbered = number === null ? [] : await ctx.q.all<HitRow>(`${HIT_COLUMNS} FROM records r JOIN lists l ON l.id = r.list
      WHERE ${['r.id = ?', ...visible].join(' AND ')}`, [number, ...seen]);
  const ranked = await ctx.q.dialect.text.ranked(ctx, { terms, words }, visible, seen, limit);
  const rows = [...numbered, ...ranked.filter((r) => Number(r.id) !== number)].slice(0, limit);
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
