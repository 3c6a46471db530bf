/**
 * The cursor holds a record of the list shown. A record never changes list: when the person looks
 * at another list (or a read for the list shown a moment ago lands late), nothing is said of the
 * record held in the other one. The screen said "#1 went to another list" — wrong, and in place of
 * what the person had just been told (acting.test.tsx needed a rerun once for it: "Undone:" gone).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT, PERSON, batches, openScreen } from './harness.js';
import { whereHeld } from '../../src/tui/holding.js';
import { NO_FILTERS } from '../../src/person/screen-state.js';
import type { ListWindow } from '../../src/person/reading.js';

/** The screen on Batches (#1 Dark mode, held) beside People (#2 Ann Example). */
const twoLists = (t: TestContext) => openScreen(t, {
  prepare: async (store) => {
    await batches(store);
    await store.createList({ template: 'people', lang: 'en' }, PERSON);
    await store.add('batches', { title: 'Dark mode' }, AGENT);
    await store.add('people', { title: 'Ann Example' }, PERSON);
  },
});

test('the record held is in one list, the person looks at another: nothing is said of it', async (t) => {
  const s = await twoLists(t);
  await s.until((f) => f.includes('#1 Dark mode'), 'the board of Batches, #1 held');
  await s.press('j');
  await s.until((f) => f.includes('Ann Example'), 'the table of People');
  assert.doesNotMatch(s.frame(), /#1 (went|is|was)/, 'nothing said of #1');
  await s.press('k');
  await s.until((f) => f.includes('#1 Dark mode'), 'the board of Batches again');
  assert.doesNotMatch(s.frame(), /#\d+ (went|is no longer|was)/, 'nothing said of a record');
});

test('the list of the record held is archived from the screen: the archive is said, not that #1 went to another list', async (t) => {
  const s = await twoLists(t);
  await s.until((f) => f.includes('#1 Dark mode'), 'the board of Batches, #1 held');
  await s.press('X');
  await s.until((f) => f.includes('Ann Example'), 'Batches archived, the table of People shown');
  assert.match(s.frame(), /Archived the list “Batches” · u undoes it/);
  assert.doesNotMatch(s.frame(), /#1 (went|is no longer)/, 'nothing said of #1');
  await s.press('u');
  await s.until((f) => f.includes('#1 Dark mode'), 'Batches again');
  assert.match(s.frame(), /Undone: Archived the list/);
});

test('a window of another list than the record held says nothing of it: a record never changes list', async (t) => {
  const s = await twoLists(t);
  const people = await s.store.list('people', PERSON);
  // The window of People, as a read for it gives while #1 of Batches is held (none of its rows read).
  const window = { kind: 'table', list: people, records: [], cursor: { at: 0, scroll: 0 } } as unknown as ListWindow;
  assert.deepEqual(await whereHeld(s.store, PERSON, window, NO_FILTERS, 1, 0, 10, null), { kind: 'here' });
});
