/**
 * The sanitizer every face prints agent-written text through: each C0 and C1 control, DEL,
 * each ESC sequence of the kit (CSI, OSC 0/2/8/52, DCS, SOS/PM/APC, `CSI 6n`, `ESC c`, 8-bit
 * forms), an unterminated OSC and the bidi controls, one by one and fuzzed together. Nothing of
 * them is left, the text around them is, and making safe twice changes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { terminalSafe } from '../../src/keeper/terminal-safe.js';
import { fuzzSeed } from './fuzz-kit.js';
import { CONTROLS, PAYLOADS, SEQUENCES, UNTERMINATED, hostileLine, hostileNote, leaks } from './terminal-kit.js';

const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

test('each sequence of the kit is taken out whole, the text around it kept', () => {
  for (const [name, seq] of Object.entries(SEQUENCES)) {
    for (const multiline of [false, true]) {
      const safe = terminalSafe(`before${seq}after`, { multiline });
      assert.doesNotMatch(safe, UNSAFE, name);
      assert.ok(safe.startsWith('before') && safe.endsWith('after'), `${name}: ${JSON.stringify(safe)}`);
      for (const word of PAYLOADS) assert.ok(!safe.includes(word), `${name} left ${word}: ${JSON.stringify(safe)}`);
    }
  }
});

test('each C0 control, DEL and each C1 control is taken out (a tab and a line end become a space in one line)', () => {
  // Those that begin a sequence take what follows as part of it (ESC b, CSI b, an unended DCS).
  const introducers = ['\u001b', '\u0090', '\u0098', '\u009b', '\u009d', '\u009e', '\u009f'];
  for (const c of CONTROLS) {
    const one = terminalSafe(`a${c}b`);
    const many = terminalSafe(`a${c}b`, { multiline: true });
    assert.doesNotMatch(one, UNSAFE, JSON.stringify(c));
    assert.doesNotMatch(many, UNSAFE, JSON.stringify(c));
    const allowed = introducers.includes(c) ? ['a'] : ['ab', 'a b'];
    assert.ok(allowed.includes(one), `${JSON.stringify(c)} → ${JSON.stringify(one)}`);
    assert.ok([...allowed, 'a\nb'].includes(many), `${JSON.stringify(c)} → ${JSON.stringify(many)}`);
  }
  assert.equal(terminalSafe('a\nb'), 'a b');
  assert.equal(terminalSafe('a\nb', { multiline: true }), 'a\nb');
});

test('an unterminated OSC, DCS… takes itself and the rest of its line, nothing before, no other line', () => {
  assert.equal(terminalSafe(`keep this ${UNTERMINATED} and this is eaten`), 'keep this ');
  assert.equal(terminalSafe('keep \u009d0;PWNOPEN'), 'keep ');
  assert.equal(terminalSafe('keep \u001bP1$tPWNOPEN'), 'keep ');
  // Found by the commands in a terminal: an owner ending in an open OSC made `binder get` and
  // `binder admin show` lose every line after it (fields, notes, other records) up to some BEL.
  assert.equal(terminalSafe(`keep\nowner ${UNTERMINATED}\nnext line\u0007 stays\n`, { multiline: true }), 'keep\nowner \nnext line stays\n');
  assert.equal(terminalSafe(`a ${UNTERMINATED}\r\nb`, { multiline: true }), 'a \nb');
  assert.equal(terminalSafe('a \u0090open DCS\nb \u009d0;open OSC\nc', { multiline: true }), 'a \nb \nc');
  assert.equal(terminalSafe(`a ${UNTERMINATED}\nb`), 'a  b', 'in one line, the line end is a space');
});

test('the kit\'s hostile line and note, made safe, leak nothing', () => {
  const line = terminalSafe(hostileLine('Title'));
  const note = terminalSafe(hostileNote('Note'), { multiline: true });
  assert.deepEqual(leaks(line), []);
  assert.deepEqual(leaks(note), []);
  assert.ok(line.startsWith('Title {q0') && note.startsWith('Note\n<0'), 'the text itself stays');
  // The check can fail: raw, everything is caught.
  assert.ok(leaks(hostileLine('Title')).length >= 10);
  assert.ok(leaks(hostileNote('Note')).length >= 3);
});

test('fuzz: any mix of controls, escapes, their pieces and text comes out with no control, and is stable', () => {
  const piece = fc.oneof(
    fc.constantFrom(...Object.values(SEQUENCES), ...CONTROLS, UNTERMINATED),
    fc.constantFrom('\u001b', '[', ']', 'P', '\\', '\u0007', '\u009c', ';', '0', '6n', '2J', 'm', '?', '\u001b\\', 'X', '^', '_', 'c'),
    fc.string({ maxLength: 4 }),
    fc.string({ unit: 'binary', maxLength: 3 }),
  );
  const seed = fuzzSeed();
  let runs = 0;
  fc.assert(fc.property(fc.array(piece, { maxLength: 24 }).map((parts) => parts.join('')), fc.boolean(), (text, multiline) => {
    runs++;
    const safe = terminalSafe(text, { multiline });
    assert.doesNotMatch(safe, UNSAFE);
    assert.ok(!safe.includes('\u001b'));
    if (!multiline) assert.ok(!safe.includes('\n'));
    assert.equal(terminalSafe(safe, { multiline }), safe, 'making safe twice changes nothing');
  }), { numRuns: 20_000, seed, includeErrorInReport: true });
  assert.equal(runs, 20_000);
});
