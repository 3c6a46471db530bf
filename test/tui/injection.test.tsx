/** Text written by agents is shown, never obeyed: no escape, OSC, C1 code or bidi override from a record reaches the terminal. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT, KEYS, PERSON, batches, openScreen } from './harness.js';

/** Clearing the screen, OSC 52 (clipboard), OSC 8 (a link), OSC 0 (the window title), 8-bit CSI and NEL, bidi overrides, BEL, backspace. */
export const EVIL = 'Evil\u001b[2J\u001b]52;c;c2VjcmV0\u0007\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\\u001b]0;pwned-title\u0007\u009b31m\u0085\u202eesrever\u2066iso\u2069\u200f\u0007\u0008end';

/** What the screen itself may write: colours and styles (SGR). Anything else escaping is a leak. */
export function leaks(bytes: string): string[] {
  const found: string[] = [];
  const rest = bytes.replace(/\u001b\[[0-9;]*m/g, '');
  if (/\u001b/.test(rest)) found.push(`an escape: ${JSON.stringify(rest.slice(rest.indexOf('\u001b'), rest.indexOf('\u001b') + 12))}`);
  if (/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(rest)) found.push('a control character');
  if (/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(rest)) found.push('a bidi control');
  for (const payload of ['c2VjcmV0', 'evil.example', 'pwned-title']) if (rest.includes(payload)) found.push(`the payload ${payload}`);
  return found;
}

test('hostile record text is shown made safe on the board, the table, the record, search and dialogs', async (t) => {
  const s = openScreen(t, {
    prepare: (store) => {
      batches(store);
      store.add('batches', { title: EVIL, note: `${EVIL}\nsecond line ${EVIL}`, owners: [EVIL] }, AGENT);
      store.attach(1, { kind: 'link', ref: EVIL, title: EVIL }, AGENT);
      store.add('batches', { title: `Due ${EVIL}`, due: '2001-01-01' }, AGENT);
    },
  });
  await s.until((f) => f.includes('#1 Evil') && f.includes('Due: #2'), 'the board and the due notice');
  await s.press(KEYS.enter, KEYS.enter);
  await s.until((f) => f.includes('History') && f.includes('second line'), 'the record opened');
  await s.press('D');
  await s.until((f) => f.includes('for good?'), 'the delete confirmation naming it');
  await s.press(KEYS.escape, KEYS.escape, '/');
  await s.until((f) => f.includes('Search:'), 'the search');
  await s.press('evil');
  await s.until((f) => f.includes('#1 Evil'), 'the search result');
  await s.press(KEYS.escape);
  // The table view too.
  s.store.editList('batches', { view: 'table' }, PERSON);
  await s.until((f) => f.includes('Title') && f.includes('#1') && f.includes('Evil'), 'the table');

  const written = s.frames.join('');
  assert.ok(written.includes('Evil') && written.includes('end'), 'the text itself is shown');
  assert.deepEqual(leaks(written), []);
});

test('the leak check can fail: raw text would be caught', () => {
  assert.notDeepEqual(leaks(EVIL), []);
  assert.deepEqual(leaks('plain \u001b[1mbold\u001b[22m text'), []);
});
