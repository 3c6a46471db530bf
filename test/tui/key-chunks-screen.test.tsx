/** Several keys in one chunk of input (a paste, keys sent together): each does what it would do typed alone, in order. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/index.js';
import { AGENT, KEYS, PERSON, batches, openScreen, paste } from './harness.js';

async function three(store: Store): Promise<void> {
  await batches(store);
  for (const title of ['First idea', 'Dark mode', 'Third idea']) await store.add('batches', { title }, AGENT);
}

test('j j Enter in one chunk opens the third row', async (t) => {
  const s = await openScreen(t, { prepare: three });
  await s.until((f) => f.includes('#3 Third idea'), 'the board');
  await s.press(`${KEYS.enter}jj${KEYS.enter}`);
  await s.until((f) => f.includes('Binder · #3 Third idea') && f.includes('History'), 'the third record opened');
});

test('arrows in one chunk are whole keys: down down Enter opens the third row', async (t) => {
  const s = await openScreen(t, { prepare: three });
  await s.until((f) => f.includes('#3 Third idea'), 'the board');
  await s.press(`${KEYS.enter}${KEYS.down}${KEYS.down}${KEYS.enter}`);
  await s.until((f) => f.includes('Binder · #3 Third idea'), 'the third record opened');
  await s.press(KEYS.escape);
  await s.until((f) => f.includes('Proposed (3)'), 'the board again');
  await s.press(`k${KEYS.enter}`);
  await s.until((f) => f.includes('Binder · #2 Dark mode'), 'the second record opened, from where the cursor was');
});

test('/ then words then Enter in one chunk searches, and a second Enter opens the match', async (t) => {
  const s = await openScreen(t, { prepare: three });
  await s.until((f) => f.includes('#3 Third idea'), 'the board');
  await s.press(`/dark${KEYS.enter}${KEYS.enter}`);
  await s.until((f) => f.includes('Binder · #2 Dark mode') && f.includes('History'), 'the match opened');
  await s.press(KEYS.escape);
  await s.until((f) => f.includes('Search: dark') && f.includes('#2 Dark mode'), 'the search, with the words typed');
});

test('a key that opens a form, then its text, then Enter, in one chunk: the record is added with that title', async (t) => {
  const s = await openScreen(t, { prepare: three });
  await s.until((f) => f.includes('#3 Third idea'), 'the board');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('Proposed (3)'), 'the records pane');
  await s.press(`nq jk/x${KEYS.enter}`);
  await s.until((f) => f.includes('#4 q jk/x'), 'the new record on the board');
  assert.equal((await s.store.get(4, PERSON)).record.title, 'q jk/x');
});

test('a paste into a text field stays text, whole: no key in it is a command', async (t) => {
  const s = await openScreen(t, { prepare: three });
  await s.until((f) => f.includes('#3 Third idea'), 'the board');
  await s.press(KEYS.enter, 'n');
  await s.until((f) => f.includes('Title'), 'the add form');
  // A tab or a line break inside a paste is part of the text (kept as a space), not a move to the next field nor Enter.
  await s.press(paste('jjq /? Dn\tx\ry'));
  await s.until((f) => f.includes('jjq /? Dn x y'), 'the pasted words in the title');
  assert.ok(!s.frame().includes('Search:'), 'no search opened');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('#4 jjq /? Dn x y'), 'the record added with the pasted title');
});

test('a chunk that comes before the last key is drawn waits its turn, and every key of it is heard there, in order', async (t) => {
  const s = await openScreen(t, { prepare: three });
  await s.until((f) => f.includes('#3 Third idea'), 'the board');
  await s.settle();
  // Two chunks in the same moment: the second arrives before the search field the first opens is drawn.
  s.stdin.write('/');
  s.stdin.write('idea\t');
  // The words went into the field, and the tab, a key of its own, gave the results the keys.
  await s.until((f) => f.includes('Search: idea') && f.includes('> #1 First idea') && f.includes('#3 Third idea'), 'the words in the field, the results focused');
  s.stdin.write(`j${KEYS.enter}`);
  await s.until((f) => f.includes('Binder · #3 Third idea'), 'j and Enter on the results');
});
