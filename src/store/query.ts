/**
 * The one query language of `show`, `search` and `ready`, read into terms: words, "exact phrase",
 * key:value, due<date, a leading - that negates a term, terms ANDed, OR between groups (AND binds
 * tighter). Pure: it reads text and returns terms or refuses, pointing at the column; it never
 * builds SQL (query-sql.ts does, with parameters only).
 */
import type { Sentence } from './sentence.js';
import { refusalSaid, type RefusalWords } from './words/index.js';

/** The longest query read; past it the asker is told, never cut silently. */
export const MAX_QUERY = 2000;
/** The most terms a query holds, all groups together. */
export const MAX_TERMS = 32;

export type DueTerm = { op: '<' | '>' | '='; date: string } | { op: 'overdue' | 'today' };

/** One condition of a query, as written. */
export type QueryTerm = { not: boolean } & (
  | { key: 'word'; text: string }
  | { key: 'phrase'; text: string }
  | { key: 'state'; value: string }
  | { key: 'label'; value: string }
  | { key: 'owner'; value: string }
  | { key: 'held'; value: string }
  | { key: 'approved'; value: boolean }
  | { key: 'due'; due: DueTerm }
  | { key: 'field'; name: string; value: string }
  | { key: 'list'; value: string }
  | { key: 'is'; value: 'archived' }
);

/** Groups joined by OR, each a set of terms joined by AND. */
export interface Query { any: QueryTerm[][] }

/** The keys a term may name, in the order a refusal lists them. */
export const QUERY_KEYS = ['state', 'label', 'owner', 'held', 'approved', 'due', 'field', 'list', 'is'] as const;

/** A query that cannot be read: the sentence says at which column, with the query and a caret under it. */
function refuse(query: string, at: number, why: (words: RefusalWords) => string | Sentence): never {
  const shown = query.length > 80 ? query.slice(Math.max(0, at - 40), Math.max(0, at - 40) + 80) : query;
  const caretAt = query.length > 80 ? Math.min(at, 40) : at;
  const caret = `\n  ${shown}\n  ${' '.repeat(caretAt)}^`;
  throw refusalSaid((w) => w.queryAt(at + 1, why(w), caret), 'not-understood');
}

interface Token { at: number; text: string; quoted: boolean; not: boolean }

/** The query split into tokens: runs of non-space, a quoted phrase whole, a leading - kept apart. */
function tokens(query: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < query.length) {
    if (/\s/.test(query[i]!)) { i++; continue; }
    const at = i;
    let not = false;
    if (query[i] === '-' && i + 1 < query.length && !/\s/.test(query[i + 1]!)) { not = true; i++; }
    if (query[i] === '"') {
      const end = query.indexOf('"', i + 1);
      if (end < 0) refuse(query, i, (w) => w.queryQuotePhrase());
      out.push({ at, text: query.slice(i + 1, end), quoted: true, not });
      i = end + 1;
      continue;
    }
    let end = i;
    // A value may be quoted after its key: state:"In review".
    while (end < query.length && !/\s/.test(query[end]!)) {
      if (query[end] === '"') {
        const close = query.indexOf('"', end + 1);
        if (close < 0) refuse(query, end, (w) => w.queryQuoteValue());
        end = close + 1;
      } else end++;
    }
    out.push({ at, text: query.slice(i, end), quoted: false, not });
    i = end;
  }
  return out;
}

const unquote = (v: string): string => (v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function validDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** A key:value (or due<date) token read as its term. */
function keyed(query: string, t: Token, key: string, op: string, raw: string): QueryTerm {
  const valueAt = t.at + (t.not ? 1 : 0) + key.length + op.length;
  const value = unquote(raw);
  const not = t.not;
  if (value.trim() === '') refuse(query, valueAt, (w) => w.queryNoValue(`${key}${op}`));
  if (op !== ':' && key !== 'due') refuse(query, t.at, (w) => w.queryOnlyDue(op, key));
  switch (key) {
    case 'state': case 'label': case 'list': return { not, key, value };
    case 'owner': case 'held': return { not, key, value };
    case 'approved': {
      const v = value.toLowerCase();
      if (['yes', 'oui', 'true'].includes(v)) return { not, key, value: true };
      if (['no', 'non', 'false'].includes(v)) return { not, key, value: false };
      return refuse(query, valueAt, (w) => w.queryApproved());
    }
    case 'is':
      if (value.toLowerCase() === 'archived') return { not, key, value: 'archived' };
      return refuse(query, valueAt, (w) => w.queryIs());
    case 'field': {
      const eq = value.indexOf('=');
      if (eq <= 0 || eq === value.length - 1) refuse(query, valueAt, (w) => w.queryField());
      return { not, key, name: unquote(value.slice(0, eq)), value: unquote(value.slice(eq + 1)) };
    }
    case 'due': {
      const v = value.toLowerCase();
      if (op === ':' && (v === 'overdue' || v === 'today')) return { not, key, due: { op: v } };
      if (!validDate(value)) {
        return refuse(query, valueAt, (w) => w.queryDue());
      }
      return { not, key, due: { op: op === ':' ? '=' : (op as '<' | '>'), date: value } };
    }
    default:
      return refuse(query, t.at + (t.not ? 1 : 0), (w) => w.queryNoKey(key, QUERY_KEYS.join(', ')));
  }
}

function termOf(query: string, t: Token): QueryTerm {
  if (t.quoted) {
    if (t.text.trim() === '') refuse(query, t.at, (w) => w.queryEmptyPhrase());
    return { not: t.not, key: 'phrase', text: t.text };
  }
  const m = /^([A-Za-z]+)(:|<|>)(.*)$/s.exec(t.text);
  if (m) return keyed(query, t, m[1]!.toLowerCase(), m[2]!, m[3]!);
  return { not: t.not, key: 'word', text: t.text };
}

/** The query read into its groups of terms, or a refusal that points at the column. An empty query has no group. */
export function parseQuery(query: string): Query {
  const text = String(query);
  if (text.length > MAX_QUERY) {
    refuse(text, MAX_QUERY, (w) => w.queryTooLong(MAX_QUERY));
  }
  const any: QueryTerm[][] = [];
  let group: QueryTerm[] = [];
  let count = 0;
  let orAt = -1;
  for (const t of tokens(text)) {
    if (!t.quoted && !t.not && t.text === 'OR') {
      if (group.length === 0) refuse(text, t.at, (w) => w.queryOrBefore());
      any.push(group);
      group = [];
      orAt = t.at;
      continue;
    }
    if (++count > MAX_TERMS) refuse(text, t.at, (w) => w.queryTooManyTerms(MAX_TERMS));
    group.push(termOf(text, t));
  }
  if (group.length === 0 && orAt >= 0) refuse(text, orAt, (w) => w.queryOrAfter());
  if (group.length > 0) any.push(group);
  return { any };
}
