/**
 * The screen's own measure of plain rows: every character it counts as one column is one column
 * for `string-width` and a character of its own for `Intl.Segmenter`, and any row it measures has
 * the width `string-width` gives; every other row is left to `string-width`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { styledCharsFromTokens, styledCharsToString, tokenize } from '@alcalzone/ansi-tokenize';
import { ONE_COLUMN, plainCells, plainWidth, styledWidth, unstyledRow } from '../../src/person/text-width.js';

const characters = (): string[] => {
  const out: string[] = [];
  for (const range of ONE_COLUMN.match(/.-.|./gsu) ?? []) {
    const from = range.codePointAt(0)!;
    const to = range.length === 3 ? range.codePointAt(2)! : from;
    for (let cp = from; cp <= to; cp++) out.push(String.fromCodePoint(cp));
  }
  return out;
};

test('every character counted as one column is one column and never joins a neighbour', () => {
  const all = characters();
  assert.ok(all.length > 3000, `${all.length} characters`);
  const segmenter = new Intl.Segmenter();
  const wrong: string[] = [];
  for (const ch of all) {
    const hex = ch.codePointAt(0)!.toString(16);
    if (stringWidth(ch) !== 1) wrong.push(`${hex}: string-width says ${stringWidth(ch)}`);
    if ([...segmenter.segment(ch + ch)].length !== 2) wrong.push(`${hex}: joins itself`);
    if ([...segmenter.segment(`a${ch}a`)].length !== 3) wrong.push(`${hex}: joins a letter`);
    if (plainWidth(ch) !== 1) wrong.push(`${hex}: not measured as one column`);
  }
  assert.deepEqual(wrong, []);
});

test('a row of ASCII and such characters has the width string-width gives it', () => {
  const all = characters();
  const piece = fc.oneof(
    fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }),
    fc.constantFrom(...all),
  );
  fc.assert(fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
    const row = pieces.join('');
    assert.equal(plainWidth(row), stringWidth(row));
  }), { numRuns: 2000 });
  for (const row of ['', 'Binder · Tasks · 10000 records', '▸ Lists', '↓ 4271 more', '⚑ Claude 10:32', '✓ approved', 'Approuvé : #12 « déjà »']) {
    assert.equal(plainWidth(row), stringWidth(row), row);
  }
});

test('a row with colours in it has the width string-width gives it, or is left to it', () => {
  const all = characters();
  const sgr = fc.tuple(fc.array(fc.integer({ min: 0, max: 99_999 }), { maxLength: 4 }), fc.boolean())
    .map(([codes, semis]) => `\u001b[${codes.join(semis ? ';' : ';;')}m`);
  const piece = fc.oneof(
    fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }),
    fc.constantFrom(...all),
    sgr,
    fc.constantFrom('\u001b[31m', '\u001b[39m', '\u001b[1m', '\u001b[22m', '\u001b[38;5;208m', '\u001b[m', '\u001b[?25l', '\u001b]8;;x\u0007', '\u009b31m', '\u001b'),
  );
  fc.assert(fc.property(fc.array(piece, { maxLength: 20 }), (pieces) => {
    const row = pieces.join('');
    const width = styledWidth(row);
    if (width !== undefined) assert.equal(width, stringWidth(row), JSON.stringify(row));
  }), { numRuns: 5000 });
  for (const row of ['\u001b[35mTo do\u001b[39m · 12', '\u001b[1m\u001b[32m✓ Done\u001b[39m\u001b[22m', '\u001b[2m↓ 4271 more\u001b[22m']) {
    assert.equal(styledWidth(row), stringWidth(row), row);
  }
  for (const row of ['\u001b[?25lhidden', '\u001b]8;;https://x\u0007link\u001b]8;;\u0007', '\u001b[31m日本\u001b[39m', '\u001b[12345mx']) {
    assert.equal(styledWidth(row), undefined, JSON.stringify(row));
  }
});

test('any other row is left to string-width', () => {
  for (const row of ['e\u0301', '日本', '👍', 'a\u200db', '\u001b[31mred\u001b[39m', 'tab\there', '🇫🇷', '가', 'x\u{1F3FB}', 'line\nbreak', '\u0915\u094D\u0937']) {
    assert.equal(plainWidth(row), undefined, JSON.stringify(row));
  }
});

test('a plain row\'s cells are the ones ansi-tokenize makes; a row of cells without style is the text it gives; any other row is left to it', () => {
  const all = characters();
  const piece = fc.oneof(
    fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }),
    fc.constantFrom(...all),
  );
  fc.assert(fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
    const row = pieces.join('');
    const cells = plainCells(row);
    assert.deepEqual(cells, styledCharsFromTokens(tokenize(row)));
    assert.equal(unstyledRow(cells!), styledCharsToString(styledCharsFromTokens(tokenize(row))));
  }), { numRuns: 1000 });
  for (const row of ['e\u0301', '日本', '\u001b[31mred\u001b[39m', 'tab\there', 'a\u001bb', '\u0007']) assert.equal(plainCells(row), undefined, JSON.stringify(row));
  const styled = styledCharsFromTokens(tokenize('a\u001b[31mb\u001b[39mc'));
  assert.equal(unstyledRow(styled), undefined, 'a styled row is left to ansi-tokenize');
  assert.equal(unstyledRow(styledCharsFromTokens(tokenize('日本 x'))), styledCharsToString(styledCharsFromTokens(tokenize('日本 x'))));
});
