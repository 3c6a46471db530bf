/**
 * What a record needs, made and taken away on the screen: `n` in a record opened shows the
 * numbers it needs in a field; numbers added are needs made, numbers taken out are needs removed,
 * each through the keeper; the record shows what it needs, and the one needed what needs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT, KEYS, PERSON, batches, openScreen } from './harness.js';

test('n in a record picks what it needs: added and taken away, shown both ways', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      for (const title of ['Dark mode', 'The spec', 'The tests']) await store.add('batches', { title }, AGENT);
    },
  });
  await s.until((f) => f.includes('#1 Dark mode'), 'the board');
  await s.press(KEYS.enter, KEYS.enter);
  await s.until((f) => f.includes('#1 Dark mode') && f.includes('History'), 'record #1');
  await s.press('n');
  await s.until((f) => f.includes('Needs #1'), 'the needs form');
  await s.press('2', ' ', '#', '3', KEYS.enter);
  await s.until((f) => f.includes('Needs (2)') && f.includes('#2 The spec') && f.includes('#3 The tests'), 'two needs shown');
  assert.deepEqual(((await s.store.get(1, PERSON)).needs ?? []).map((l) => l.id), [2, 3]);

  // Taken away: the field holds what it needs; the number erased is a need removed.
  await s.press('n');
  await s.until((f) => f.includes('Needs #1') && f.includes('2 3'), 'the form with what it needs');
  await s.press(KEYS.backspace, KEYS.enter);
  await s.until((f) => f.includes('Needs (1)') && !f.includes('#3 The tests'), 'one need left');
  assert.deepEqual(((await s.store.get(1, PERSON)).needs ?? []).map((l) => l.id), [2]);

  // The other way: #2 says what needs it.
  await s.press(KEYS.escape);
  await s.until((f) => f.includes('#2 The spec') && !f.includes('History'), 'the board again');
  await s.store.get(2, PERSON);
  await s.press(KEYS.down, KEYS.enter);
  await s.until((f) => f.includes('Needed by (1)') && f.includes('#1 Dark mode'), '#2 needed by #1');

  // A record cannot need itself: the refusal is said and the form stays.
  await s.press('n');
  await s.until((f) => f.includes('Needs #2'), 'the needs form of #2');
  await s.press('2', KEYS.enter);
  await s.until((f) => f.includes('cannot need itself'), 'refused, said');
  assert.deepEqual((await s.store.get(2, PERSON)).needs ?? [], []);
});
