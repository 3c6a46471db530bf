/**
 * The screen's stand-in for Intl.Segmenter gives the segments the real one gives, by iteration
 * and by `containing`, for rows it cuts itself (every character a grapheme of its own, colours
 * included) and for any other text, which it leaves to the real one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { segmenterWhenNeeded } from '../../src/person/graphemes.js';
import { ONE_COLUMN, eachCharacterAlone } from '../../src/person/text-width.js';

const real = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const stand = segmenterWhenNeeded(undefined, { granularity: 'grapheme' });
const plain = (text: string) => [...text].map((segment, index) => ({ segment, index }));
const cut = (segments: Iterable<{ segment: string; index: number }>) => [...segments].map(({ segment, index }) => ({ segment, index }));

const same = (text: string): void => {
  assert.deepEqual(cut(stand.segment(text)), cut(real.segment(text)), JSON.stringify(text));
  const theirs = real.segment(text);
  const ours = stand.segment(text);
  for (let i = -1; i <= text.length; i++) {
    const a = theirs.containing(i);
    const b = ours.containing(i);
    assert.deepEqual(b && { segment: b.segment, index: b.index, input: b.input }, a && { segment: a.segment, index: a.index, input: a.input }, `${JSON.stringify(text)} at ${i}`);
  }
};

test('rows of ASCII, controls (not CR) and one-column characters are cut one grapheme per character, as the real segmenter cuts them', () => {
  const alphabet = ['\u001b', '[', '3', '1', 'm', ' ', 'a', '\n', '\t', '\u0007', '\u007f', '\u00e9', '\u00b7', '\u25b8', '\u2193', '\u2691', '\u00a0', '\u202f', ...ONE_COLUMN.slice(0, 40)];
  fc.assert(fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (chars) => {
    const text = chars.join('');
    assert.equal(eachCharacterAlone(text), true);
    assert.deepEqual(cut(stand.segment(text)), plain(text));
    same(text);
  }), { numRuns: 1000 });
  same('\u001b[31m#1 title\u001b[39m · ▸ ↓ 42 more');
});

test('any other text is cut by the real segmenter', () => {
  for (const text of ['e\u0301', 'a\r\nb', '👍🏽 ok', '🇫🇷', 'a\u200db', '가각', '\u0915\u094d\u0937']) {
    assert.equal(eachCharacterAlone(text), false, JSON.stringify(text));
    same(text);
  }
  assert.notDeepEqual(cut(stand.segment('e\u0301')), plain('e\u0301'), 'a letter and its accent are one grapheme');
});

test('other granularities are the real segmenter\'s', () => {
  const words = segmenterWhenNeeded('en', { granularity: 'word' });
  assert.deepEqual([...words.segment('two words')].map((s) => s.segment), ['two', ' ', 'words']);
  assert.equal(words.resolvedOptions().granularity, 'word');
});
