/**
 * The screen started with --http shows a one-time login link to the web page on W (a link made in
 * the store, which opens one session); without --http it says how to have one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PERSON, batches, openScreen } from './harness.js';

test('W shows a login link to the page when the screen answers over HTTP, and says how otherwise', async (t) => {
  let key = '';
  const s = await openScreen(t, {
    prepare: batches,
    loginLink: async () => {
      key = (await s.store.addLoginLink(PERSON.name, PERSON)).key;
      return `http://127.0.0.1:4180/#login=${key}`;
    },
  });
  await s.until((f) => f.includes('Batches'), 'the lists');
  await s.press('W');
  const frame = await s.until((f) => f.includes('Your page, one use within 10 minutes'), 'the link');
  assert.match(frame.replace(/\s+/g, ''), new RegExp(`#login=${key}`));
  const session = await s.store.useLoginLink(key, 'test');
  assert.equal(session.person, PERSON.name, 'the link shown opens a session for the person at the screen');

  const plain = await openScreen(t, { prepare: batches });
  await plain.until((f) => f.includes('Batches'), 'the lists');
  await plain.press('W');
  await plain.until((f) => f.includes('binder tui --http'), 'how to have one');
});
