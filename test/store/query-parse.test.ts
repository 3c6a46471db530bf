/**
 * The query language read into terms: each key, negation, OR binding looser than AND, and queries
 * that cannot be read refused with the column they go wrong at, in English and in French.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_QUERY, parseQuery } from '../../src/store/query.js';
import { Refused } from '../../src/store/refused.js';

function refusal(query: string): Refused {
  try {
    parseQuery(query);
  } catch (e) {
    assert.ok(e instanceof Refused, `a refusal, not ${String(e)}`);
    assert.equal(e.kind, 'not-understood');
    return e;
  }
  assert.fail(`"${query.slice(0, 60)}" was read`);
}

test('words, a phrase and every key are read as terms, ANDed', () => {
  const q = parseQuery('login "dark mode" state:Doing label:bug -label:wontfix owner:me held:me approved:no '
    + 'due<2026-12-10 due>2026-01-01 due:overdue due:today field:Priority=High list:tasks is:archived state:"In review"');
  assert.equal(q.any.length, 1);
  assert.deepEqual(q.any[0], [
    { not: false, key: 'word', text: 'login' },
    { not: false, key: 'phrase', text: 'dark mode' },
    { not: false, key: 'state', value: 'Doing' },
    { not: false, key: 'label', value: 'bug' },
    { not: true, key: 'label', value: 'wontfix' },
    { not: false, key: 'owner', value: 'me' },
    { not: false, key: 'held', value: 'me' },
    { not: false, key: 'approved', value: false },
    { not: false, key: 'due', due: { op: '<', date: '2026-12-10' } },
    { not: false, key: 'due', due: { op: '>', date: '2026-01-01' } },
    { not: false, key: 'due', due: { op: 'overdue' } },
    { not: false, key: 'due', due: { op: 'today' } },
    { not: false, key: 'field', name: 'Priority', value: 'High' },
    { not: false, key: 'list', value: 'tasks' },
    { not: false, key: 'is', value: 'archived' },
    { not: false, key: 'state', value: 'In review' },
  ]);
});

test('OR splits groups, AND binding tighter; a leading - negates words and phrases too', () => {
  const q = parseQuery('state:Doing owner:me OR -"won\'t do" -slow label:bug');
  assert.deepEqual(q.any, [
    [{ not: false, key: 'state', value: 'Doing' }, { not: false, key: 'owner', value: 'me' }],
    [{ not: true, key: 'phrase', text: "won't do" }, { not: true, key: 'word', text: 'slow' }, { not: false, key: 'label', value: 'bug' }],
  ]);
  // "or" in lower case is a word; a lone - is a word too.
  assert.deepEqual(parseQuery('this or that -').any[0]!.map((t) => t.key === 'word' && t.text), ['this', 'or', 'that', '-']);
  assert.deepEqual(parseQuery('   ').any, []);
});

test('an unknown key is refused at its column, naming the keys that exist', () => {
  const e = refusal('login colour:red');
  assert.match(e.message, /column 7/);
  assert.match(e.message, /no key "colour"/);
  assert.match(e.message, /state, label, owner, held, approved, due, field, list, is/);
  assert.match(e.message, /\n {2}login colour:red\n {8}\^$/);
  assert.match(e.fr!, /colonne 7/);
  assert.match(e.fr!, /clé « colour »/);
});

test('unbalanced quotes, a bad date, a bare OR and odd values are refused with where', () => {
  assert.match(refusal('fix "dark mode').message, /column 5: this quote is never closed/);
  assert.match(refusal('state:"In review').message, /column 7: this quote is never closed/);
  assert.match(refusal('due<2026-13-40').message, /column 5: due takes a date/);
  assert.match(refusal('due:soon').message, /due takes a date/);
  assert.match(refusal('state<Doing').message, /only due takes </);
  assert.match(refusal('OR login').message, /column 1: OR stands between two terms; put a term before/);
  assert.match(refusal('login OR').message, /column 7: .*term after/);
  assert.match(refusal('a OR OR b').message, /column 6/);
  assert.match(refusal('approved:maybe').message, /approved is yes or no/);
  assert.match(refusal('is:open').message, /is takes archived/);
  assert.match(refusal('field:Priority').message, /field:Name=Value/);
  assert.match(refusal('state:').message, /needs a value/);
  assert.match(refusal('""').message, /empty phrase/);
});

test('a very long query or one of too many terms is refused, never cut silently', () => {
  const long = refusal('a'.repeat(MAX_QUERY + 1));
  assert.match(long.message, /at most 2000 characters/);
  // The caret line shows the place, not the whole query.
  assert.ok(long.message.length < 400);
  assert.match(refusal(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')).message, /at most 32 terms/);
  // A long run of quotes and dashes is read in one pass, quickly, and refused or read.
  assert.equal(parseQuery(`-${'"x" '.repeat(30)}`.trim()).any[0]!.length, 30);
  assert.match(refusal('"'.repeat(1999)).message, /quote is never closed/);
});
