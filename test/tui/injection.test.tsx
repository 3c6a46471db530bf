/** Text written by agents is shown, never obeyed: no escape, OSC, C1 code or bidi override from a record reaches the terminal. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT, KEYS, PERSON, batches, openScreen } from './harness.js';
import { EVIL, leaks } from './hostile.js';

test('hostile record text is shown made safe on the board, the table, the record, search and dialogs', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      await store.add('batches', { title: EVIL, note: `${EVIL}\nsecond line ${EVIL}`, owners: [EVIL] }, AGENT);
      await store.attach(1, { kind: 'link', ref: EVIL, title: EVIL }, AGENT);
      await store.add('batches', { title: `Due ${EVIL}`, due: '2001-01-01' }, AGENT);
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
  await s.store.editList('batches', { view: 'table' }, PERSON);
  await s.until((f) => f.includes('Title') && f.includes('#1') && f.includes('Evil'), 'the table');

  const written = s.frames.join('');
  assert.ok(written.includes('Evil') && written.includes('end'), 'the text itself is shown');
  assert.deepEqual(leaks(written), []);
});

test('the leak check can fail: raw text would be caught', () => {
  assert.notDeepEqual(leaks(EVIL), []);
  assert.deepEqual(leaks('plain \u001b[1mbold\u001b[22m text'), []);
});
