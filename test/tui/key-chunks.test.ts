/** A chunk of input cut into the keys a person pressed: whole escape sequences, nothing lost; and where a text field has the keys. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { keysOf } from '../../src/tui/key-chunks.js';
import { INITIAL, typingIn, type ScreenState } from '../../src/person/screen-state.js';
import { START } from '../../src/person/window.js';

/** Keys as terminals send them, each of which must come back whole. */
const SEQUENCES = [
  '\u001b[A', '\u001b[B', '\u001b[C', '\u001b[D', '\u001bOA', '\u001bOB', '\u001b[H', '\u001b[F',
  '\u001b[5~', '\u001b[6~', '\u001b[3~', '\u001b[1;5C', '\u001b[Z', '\u001b[[A', '\u001b[[5~', '\u001b[a',
  '\u001b\u001b[A', '\u001b\u001bOB', '\u001b[97;5u', '\u001b[13u', '\u001bj', '\u001bx', '\u001b\r', '\u001b\u007f',
];
const CONTROLS = ['\r', '\n', '\t', '\u007f', '\b', '\u0003', '\u0001'];
const printable = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xd7ff }), fc.integer({ min: 0x10000, max: 0x10ffff }))
  .map((code) => String.fromCodePoint(code));
const key = fc.oneof(printable, fc.constantFrom(...CONTROLS), fc.constantFrom(...SEQUENCES));
/** Keys pressed one after another; a lone Escape can only be last (followed by a key, a terminal sends Alt with that key). */
const pressed = fc.tuple(fc.array(key, { maxLength: 30 }), fc.boolean()).map(([keys, escape]) => (escape ? [...keys, '\u001b'] : keys));
/** Strings heavy in what escape sequences are made of, whole or broken. */
const jumble = fc.array(fc.constantFrom('\u001b', '[', 'O', '1', ';', '5', '~', 'A', 'j', '\r', '\u007f', '😀', ' ', 'é'), { maxLength: 40 }).map((a) => a.join(''));

test('keys pressed one after another come back as the same keys, escape sequences whole', () => {
  fc.assert(fc.property(pressed, (keys) => {
    assert.deepEqual(keysOf(keys.join('')), keys);
  }), { numRuns: 500 });
});

test('nothing is lost or moved: the keys of any chunk, joined, are the chunk', () => {
  fc.assert(fc.property(fc.oneof(jumble, fc.string({ unit: 'binary', maxLength: 40 })), (chunk) => {
    const keys = keysOf(chunk);
    assert.equal(keys.join(''), chunk);
    assert.ok(keys.every((k) => k.length > 0));
  }), { numRuns: 1000 });
});

test('the chunks of the brief', () => {
  assert.deepEqual(keysOf('jj\r'), ['j', 'j', '\r']);
  assert.deepEqual(keysOf('\u001b[B\u001b[Bj\r'), ['\u001b[B', '\u001b[B', 'j', '\r']);
  assert.deepEqual(keysOf('/dark mode\r'), ['/', 'd', 'a', 'r', 'k', ' ', 'm', 'o', 'd', 'e', '\r']);
  assert.deepEqual(keysOf('a😀b'), ['a', '😀', 'b']);
  // Cut short, a sequence is one key still: never ESC, '[' and a letter heard as three.
  assert.deepEqual(keysOf('j\u001b[1;'), ['j', '\u001b[1;']);
});

test('a text field has the keys in a form on a text field, a typed confirmation, and the search words; not elsewhere', () => {
  const form = (focus: number): ScreenState => ({
    ...INITIAL,
    dialog: {
      kind: 'form', title: 'Add', describe: '', values: {}, initial: {}, focus, caret: 0, intent: { do: 'add', list: 'l' },
      fields: [{ name: 'title', label: 'Title', hint: '', kind: 'text' }, { name: 'state', label: 'State', hint: '', kind: 'choice', choices: [] }],
    },
  });
  assert.equal(typingIn(INITIAL), false);
  assert.equal(typingIn(form(0)), true);
  assert.equal(typingIn(form(1)), false);
  assert.equal(typingIn({ ...INITIAL, dialog: { kind: 'confirm', text: '?', typed: { expect: 'x', value: '', caret: 0 }, intent: { do: 'delete-list', list: 'l' } } }), true);
  assert.equal(typingIn({ ...INITIAL, dialog: { kind: 'confirm', text: '?', typed: null, intent: { do: 'delete', id: 1 } } }), false);
  const search = (focus: 'input' | 'results'): ScreenState => ({ ...INITIAL, stack: [{ kind: 'search', text: '', caret: 0, focus, cursor: START, filters: { state: null, mine: false, archived: false, text: '' } }] });
  assert.equal(typingIn(search('input')), true);
  assert.equal(typingIn(search('results')), false);
});
