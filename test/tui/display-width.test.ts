/**
 * Cutting, padding and wrapping by the columns text takes on a terminal, as Ink measures it: a
 * CJK title, combining accents and emoji never shift a column; a cut text ends in `…`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { cut, displayWidth, padTo, wrap } from '../../src/person/display-width.js';

const piece = fc.constantFrom('a', 'Z', ' ', 'é', 'e\u0301', '漢', '字', 'ｶ', '😀', '👩‍👩‍👧', '·', '…', 'ﾟ', '\u200d', 'x y z');
const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''));

test('cut and pad give exactly the width asked, by display width, never splitting a grapheme', () => {
  fc.assert(fc.property(text, fc.integer({ min: 1, max: 30 }), (t, width) => {
    const shown = cut(t, width);
    assert.ok(stringWidth(shown) <= width, `${JSON.stringify(shown)} is ${stringWidth(shown)} > ${width}`);
    if (stringWidth(t) <= width) assert.equal(shown, t, 'what fits is left whole');
    else assert.ok(shown.endsWith('…'), 'a cut text ends in …');
    const padded = padTo(t, width);
    assert.equal(stringWidth(padded), width, `${JSON.stringify(padded)} padded to ${width}`);
    const graphemes = [...new Intl.Segmenter().segment(t)].map((s) => s.segment);
    const kept = stringWidth(t) > width ? shown.slice(0, -1) : shown;
    assert.ok(graphemes.join('').startsWith(kept) && [...new Intl.Segmenter().segment(kept)].every((s, i) => s.segment === graphemes[i]), 'cut between graphemes');
  }), { numRuns: 1000 });
  assert.equal(displayWidth('漢字'), 4);
  assert.equal(cut('漢字のタイトル', 7), '漢字の…');
  assert.equal(padTo('漢字', 6), '漢字  ');
  assert.equal(cut('plain text that is long', 10), 'plain tex…');
});

test('wrap: rows no wider than asked, at spaces where it can, nothing lost but the spaces it breaks at', () => {
  fc.assert(fc.property(text, fc.integer({ min: 2, max: 30 }), (t, width) => {
    const rows = wrap(t, width);
    // A grapheme wider than the row (漢 with a combining mark is three columns) has a row of its own.
    const widest = Math.max(0, ...[...new Intl.Segmenter().segment(t)].map((s) => stringWidth(s.segment)));
    for (const row of rows) assert.ok(stringWidth(row) <= Math.max(width, widest), `${JSON.stringify(row)} wider than ${width}`);
    assert.equal(rows.join('').replace(/ /g, ''), t.replace(/ /g, ''));
  }), { numRuns: 1000 });
  assert.deepEqual(wrap('aaa bbb ccc', 8), ['aaa bbb', 'ccc']);
  assert.deepEqual(wrap('漢字漢字漢字', 5), ['漢字', '漢字', '漢字']);
  assert.deepEqual(wrap('one two three four', 9, 7), ['one two', 'three', 'four']);
});
