/** The screen's own text fields, pure: keys read into what was pressed, line editing, the window around the cursor, input as events. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { decodeKey } from '../../src/person/keys.js';
import { charCount, editLine, lineAt, lineView, type LineEdit } from '../../src/tui/line-edit.js';
import { InputReader, mouseOf, oneLine, textOfBurst } from '../../src/tui/input-events.js';

test('keys: named keys with their modifiers, Ctrl and Alt with a character, text', () => {
  const is = (sequence: string, expect: Partial<ReturnType<typeof decodeKey>>) => {
    const key = decodeKey(sequence);
    for (const [k, v] of Object.entries(expect)) assert.equal(key[k as keyof typeof key], v, `${JSON.stringify(sequence)}.${k}`);
  };
  is('\u001b[A', { name: 'up', ctrl: false, meta: false });
  is('\u001bOB', { name: 'down' });
  is('\u001b[1;3D', { name: 'left', meta: true });
  is('\u001b[1;5C', { name: 'right', ctrl: true });
  is('\u001b\u001b[D', { name: 'left', meta: true });
  is('\u001b[H', { name: 'home' });
  is('\u001b[1~', { name: 'home' });
  is('\u001b[7~', { name: 'home' });
  is('\u001b[4~', { name: 'end' });
  is('\u001bOF', { name: 'end' });
  is('\u001b[3~', { name: 'delete' });
  is('\u001b[5~', { name: 'pageUp' });
  is('\u001b[Z', { name: 'tab', shift: true });
  is('\t', { name: 'tab', shift: false });
  is('\r', { name: 'return' });
  is('\u007f', { name: 'backspace' });
  is('\u001b\u007f', { name: 'backspace', meta: true });
  is('\u001b', { name: 'escape' });
  is('\u0001', { name: null, text: 'a', ctrl: true });
  is('\u001a', { name: null, text: 'z', ctrl: true });
  is('\u001bb', { name: null, text: 'b', meta: true });
  is('é', { name: null, text: 'é', ctrl: false, meta: false });
  is('😀', { name: null, text: '😀' });
  is('G', { name: null, text: 'G', shift: true });
  // Nothing a command could match: a paste marker alone, an unknown sequence, a C1 code.
  for (const junk of ['\u001b[200~', '\u001b[99~', '\u009b', 'ab']) assert.deepEqual([decodeKey(junk).name, decodeKey(junk).text], [null, ''], JSON.stringify(junk));
});

const EDITS: LineEdit[] = [
  { do: 'left' }, { do: 'right' }, { do: 'wordLeft' }, { do: 'wordRight' }, { do: 'home' }, { do: 'end' },
  { do: 'backspace' }, { do: 'delete' }, { do: 'wordBack' }, { do: 'killStart' }, { do: 'killEnd' },
];
const piece = fc.constantFrom('a', 'b', ' ', 'é', 'e\u0301', '漢', '😀', '👩‍👩‍👧', '-', 'x y');
const edit = fc.oneof(fc.constantFrom(...EDITS), fc.array(piece, { maxLength: 4 }).map((p): LineEdit => ({ do: 'insert', text: p.join('') })));

test('line editing, whatever the keys: never past the limit, the cursor always between graphemes, text kept but for what was erased', () => {
  const segmenter = new Intl.Segmenter();
  fc.assert(fc.property(fc.array(edit, { maxLength: 30 }), fc.integer({ min: 0, max: 20 }), (edits, max) => {
    let line = lineAt('');
    for (const e of edits) {
      const before = line;
      const done = editLine(line, e, max);
      line = done.line;
      assert.ok(charCount(line.value) <= Math.max(max, charCount(before.value)), 'within the limit');
      const bounds = new Set([...segmenter.segment(line.value)].map((s) => s.index).concat(line.value.length));
      assert.ok(bounds.has(line.cursor), `cursor ${line.cursor} between graphemes of ${JSON.stringify(line.value)}`);
      if (e.do === 'insert') assert.equal(done.cut, charCount(line.value) - charCount(before.value) < charCount(e.text));
      if (e.do !== 'insert' && ['left', 'right', 'wordLeft', 'wordRight', 'home', 'end'].includes(e.do)) assert.equal(line.value, before.value, 'moving changes no text');
    }
  }), { numRuns: 400 });
});

test('line editing: the keys of the issue', () => {
  const run = (value: string, cursor: number, ...edits: LineEdit[]) => edits.reduce((l, e) => editLine(l, e, 300).line, { value, cursor });
  assert.deepEqual(run('one two three', 13, { do: 'wordBack' }), { value: 'one two ', cursor: 8 });
  assert.deepEqual(run('one two three', 13, { do: 'wordLeft' }, { do: 'wordLeft' }), { value: 'one two three', cursor: 4 });
  assert.deepEqual(run('one two three', 0, { do: 'wordRight' }), { value: 'one two three', cursor: 3 });
  assert.deepEqual(run('one two three', 4, { do: 'killEnd' }), { value: 'one ', cursor: 4 });
  assert.deepEqual(run('one two three', 4, { do: 'killStart' }), { value: 'two three', cursor: 0 });
  assert.deepEqual(run('abc', 1, { do: 'delete' }), { value: 'ac', cursor: 1 });
  assert.deepEqual(run('abc', 1, { do: 'backspace' }), { value: 'bc', cursor: 0 });
  // A grapheme of several code points is one step and one erase.
  assert.deepEqual(run('ae\u0301b', 3, { do: 'backspace' }), { value: 'ab', cursor: 1 });
  assert.deepEqual(run('a👩‍👩‍👧b', 1, { do: 'right' }), { value: 'a👩‍👩‍👧b', cursor: 9 });
  const cut = editLine({ value: 'x'.repeat(298), cursor: 298 }, { do: 'insert', text: 'abcdef' }, 300);
  assert.deepEqual([cut.line.value.length, cut.cut], [300, true]);
  assert.equal(editLine(lineAt('a'), { do: 'insert', text: 'b' }, 300).cut, false);
});

test('the window of a field: never wider than the field, the cursor always in it, … where text is hidden', () => {
  fc.assert(fc.property(fc.array(piece, { maxLength: 60 }), fc.nat(), fc.integer({ min: 4, max: 40 }), (pieces, at, width) => {
    const value = pieces.join('');
    const bounds = [...new Intl.Segmenter().segment(value)].map((s) => s.index).concat(value.length);
    const cursor = bounds[at % bounds.length]!;
    const view = lineView({ value, cursor }, width);
    const shown = view.before + view.at + view.after;
    assert.ok(stringWidth(shown) <= width, `${stringWidth(shown)} > ${width}: ${JSON.stringify(view)}`);
    assert.equal(view.column, stringWidth(view.before));
    const under = cursor === value.length ? ' ' : [...new Intl.Segmenter().segment(value.slice(cursor))][0]!.segment;
    assert.equal(view.at, under, 'the cell under the cursor is the grapheme at it');
    if (stringWidth(value) + 1 <= width) assert.equal(view.before + (cursor === value.length ? '' : view.at) + view.after, value, 'all of it when it fits');
  }), { numRuns: 500 });
  // Moving a little within the window does not slide the text under the cursor.
  const long = 'abcdefghij'.repeat(5);
  assert.equal(lineView({ value: long, cursor: 30 }, 20).before.slice(0, 3), lineView({ value: long, cursor: 29 }, 20).before.slice(0, 3));
});

test('input as events: a paste is one event however many reads it spans; mouse reports; the rest keys, whole', () => {
  const reader = new InputReader();
  assert.deepEqual(reader.read('j\u001b[200~Da'), [{ kind: 'key', sequence: 'j', key: decodeKey('j') }]);
  assert.equal(reader.inPaste, true);
  assert.deepEqual(reader.read('y\r\u001b[A'), []);
  assert.deepEqual(reader.read('\u001b[201~k').map((e) => (e.kind === 'text' ? e.text : e.kind === 'key' ? e.sequence : 'mouse')), ['Day\r\u001b[A', 'k']);
  assert.deepEqual(mouseOf('\u001b[<0;11;5M'), { button: 'left', x: 10, y: 4, press: true });
  assert.deepEqual(mouseOf('\u001b[<0;11;5m'), { button: 'left', x: 10, y: 4, press: false });
  assert.equal(mouseOf('\u001b[<64;1;1M')?.button, 'wheelUp');
  assert.equal(mouseOf('\u001b[<65;1;1M')?.button, 'wheelDown');
  assert.equal(mouseOf('\u001b[<32;1;1M')?.button, 'other', 'a drag is not a click');
  assert.equal(mouseOf('\u001b[A'), null);
  assert.equal(new InputReader().read('\u001b[<0;3;4M')[0]?.kind, 'mouse');
  assert.equal(oneLine('a\r\nb\tc\nd'), 'a b c d');
});

test('a burst of letters is text; keys, one key held, or anything with Enter or an arrow is keys', () => {
  const burst = (chunk: string) => textOfBurst(new InputReader().read(chunk));
  assert.equal(burst('Daily'), 'Daily');
  assert.equal(burst('xD'), 'xD');
  for (const keys of ['j', 'jjjj', 'gg', 'jj\r', '\u001b[BDy', 'Daily\r', '\u001b[A\u001b[A']) assert.equal(burst(keys), null, JSON.stringify(keys));
});
