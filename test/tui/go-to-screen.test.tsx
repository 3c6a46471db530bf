/**
 * Going to a record by its number from anywhere: `#` (or `:`) asks for the number (`12` or
 * `#12`), opens that record over whatever was shown, and Esc comes back; what is not a number is
 * said, and a number no record holds says the record is not there — never, while its read is on
 * its way, that a record is gone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT, KEYS, batches, openScreen } from './harness.js';

test('# and : then a number open that record from anywhere; a word is refused, said', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      for (let i = 1; i <= 3; i++) await store.add('batches', { title: `Item ${i}` }, AGENT);
    },
  });
  await s.until((f) => f.includes('#1 Item 1'), 'the board');
  await s.press('#');
  await s.until((f) => f.includes('Go to the record numbered'), 'the go-to form');
  await s.press('3', KEYS.enter);
  await s.until((f) => f.includes('Binder · #3 Item 3'), 'record #3 opened');
  // From the record opened too, with `:` and a number written as #N.
  await s.press(':');
  await s.until((f) => f.includes('Go to the record numbered'), 'the go-to form again');
  await s.press('#', '2', KEYS.enter);
  await s.until((f) => f.includes('Binder · #2 Item 2'), 'record #2 opened');
  await s.press(KEYS.escape);
  await s.until((f) => f.includes('Binder · #3 Item 3'), 'back to #3');

  await s.press('#');
  await s.until((f) => f.includes('Go to the record numbered'), 'the form');
  await s.press('x', 'y', KEYS.enter);
  await s.until((f) => f.includes('“xy” is not a record\'s number'), 'a word refused');
  await s.press(KEYS.escape);
  await s.press('#');
  await s.until((f) => f.includes('Go to the record numbered'), 'the form');
  const before = s.frames.length;
  await s.press('9', '9', KEYS.enter);
  await s.until((f) => f.includes('There is no record #99 you can see.'), 'a number no record holds');
  // Never said gone while its read was on its way (nor was #2 or #3 above).
  assert.equal(s.frames.slice(before).filter((f) => f.includes('This record is no longer there.')).length, 0);
});
