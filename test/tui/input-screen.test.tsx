/**
 * Input as a person (or their terminal) sends it, on the screen: typing or pasting on the board
 * runs nothing; a question is answered only by a key pressed after it was drawn; every key of a
 * burst reaches a text field in order; a paste is text; Ctrl-C closes a form and, at the top,
 * quits; Ctrl-Z suspends and the screen comes back whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/index.js';
import { AGENT, KEYS, PERSON, batches, openScreen, paste } from './harness.js';

async function four(store: Store): Promise<void> {
  await batches(store);
  for (const title of ['First idea', 'Dark mode', 'Third idea', 'Daily standup']) await store.add('batches', { title }, AGENT);
}

/** What the store holds, to see that nothing changed. */
const snapshot = async (store: Store) => JSON.stringify({ records: await store.show('batches', PERSON, { limit: 50 }), lists: await store.lists(PERSON, { archived: true }), sides: await store.sides() });

test('letters that come together on the board: the moves are done in order, a key that changes something is set aside and named', async (t) => {
  const s = await openScreen(t, { prepare: four });
  await s.until((f) => f.includes('#4 Daily standup'), 'the board');
  await s.press(KEYS.enter);
  const before = await snapshot(s.store);
  // D would ask to delete, a approve, i nothing, l move right, y answer yes.
  await s.press('Daily');
  await s.until((f) => f.includes('Keys that came together change nothing: D a set aside.'), 'the notice naming the keys set aside');
  assert.ok(!s.frame().includes('for good?'), 'no question was asked');
  assert.equal(await snapshot(s.store), before, 'nothing changed');
  await s.press('xDax');
  await s.until((f) => f.includes('Keys that came together change nothing: x D a x set aside.'), 'another burst, another notice');
  assert.equal(await snapshot(s.store), before, 'nothing archived, approved nor deleted');
});

test('"jj" and "jk" in one read move the cursor as the keys say (over SSH, fast navigation loses nothing)', async (t) => {
  const s = await openScreen(t, { prepare: four });
  await s.until((f) => f.includes('#4 Daily standup'), 'the board');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('>#1 First idea'), 'the cursor on #1');
  await s.press('jj');
  await s.until((f) => f.includes('>#3 Third idea'), 'two rows down');
  await s.press('kjj');
  await s.until((f) => f.includes('>#4 Daily standup'), 'up one, down two');
  await s.press('kjaj');
  await s.until((f) => f.includes('Keys that came together change nothing: a set aside.') && f.includes('>#4 Daily standup'), 'the moves done, a set aside');
  assert.equal((await s.store.get(4, PERSON)).record.approved, null);
});

test('a paste on the board, marked as one by the terminal, runs nothing, even with Enter and arrows in it', async (t) => {
  const s = await openScreen(t, { prepare: four });
  await s.until((f) => f.includes('#4 Daily standup'), 'the board');
  await s.press(KEYS.enter);
  const before = await snapshot(s.store);
  await s.press(paste(`Dy\r${KEYS.down}ax\rXq`));
  await s.until((f) => f.includes('nothing was done with'), 'the notice');
  assert.equal(await snapshot(s.store), before);
  assert.ok(!s.exited(), 'the q in it did not quit');
  // A paste may come in pieces: still one paste.
  s.stdin.write('\u001b[200~Da');
  s.stdin.write('y\r\u001b[201~');
  await s.until((f) => f.includes('nothing was done with “Day ”'), 'the paste in two pieces, set aside whole');
  assert.equal(await snapshot(s.store), before);
});

test('a question is answered only by a key pressed after it was drawn: keys of the burst that asked it are set aside', async (t) => {
  const s = await openScreen(t, { prepare: four });
  await s.until((f) => f.includes('#4 Daily standup'), 'the board');
  await s.press(KEYS.enter);
  // An arrow (so the burst is keys, not text), D, then y: all in one read.
  await s.press(`${KEYS.down}Dy`);
  await s.until((f) => f.includes('Delete #2 “Dark mode” for good?') && f.includes('1 key typed before this question was set aside'), 'the question, the y set aside');
  assert.equal((await s.store.get(2, PERSON)).record.title, 'Dark mode');
  // A key read on its own, after the one that asks but before the question is drawn, is set aside too.
  await s.press(KEYS.escape);
  await s.until((f) => !f.includes('for good?'), 'no question');
  await s.settle();
  s.stdin.write('D');
  await Promise.resolve();
  s.stdin.write('y');
  await s.until((f) => f.includes('for good?'), 'the question');
  await s.settle();
  // That the y set aside does not answer can only be watched for a while: a moment past the settling.
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(s.frame().includes('for good?'), 'still asking');
  assert.equal((await s.store.get(2, PERSON)).record.title, 'Dark mode');
  await s.press('y');
  await s.until((f) => f.includes('Deleted #2 for good'), 'a y pressed after the question deletes');
});

test('a key that is not an answer leaves the question unanswered: nothing is deleted', async (t) => {
  const s = await openScreen(t, { prepare: four });
  await s.until((f) => f.includes('#4 Daily standup'), 'the board');
  await s.press(KEYS.enter, 'D');
  await s.until((f) => f.includes('for good?'), 'the question');
  await s.press('a');
  await s.until((f) => !f.includes('for good?') && f.includes('Nothing was done: only y/Y answers yes'), 'the question gone, saying why');
  await s.press('y');
  assert.equal((await s.store.get(1, PERSON)).record.title, 'First idea');
});

test('every key of a burst reaches a text field, in order: text then Enter submits; Tab moves to the next field; Backspaces together each erase', async (t) => {
  const s = await openScreen(t, { prepare: four });
  await s.until((f) => f.includes('#4 Daily standup'), 'the board');
  await s.press(KEYS.enter, 'n');
  await s.until((f) => f.includes('Add a record'), 'the form');
  await s.press(`Fast typing${KEYS.backspace}${KEYS.backspace}${KEYS.backspace}ed\r`);
  await s.until((f) => f.includes('#5 Fast typed') && !f.includes('Add a record'), 'the form closed by the Enter of the burst');
  assert.equal((await s.store.get(5, PERSON)).record.title, 'Fast typed');

  await s.press('n');
  await s.until((f) => f.includes('Add a record'), 'the form again');
  // Title, Tab to the state (a choice: letters do nothing there), Tab to Due, a date, Enter.
  await s.press(`abc\t${KEYS.right}\tdef\r`);
  await s.until((f) => f.includes('“def” is not a due date'), 'def went to the due field, not the title');
  await s.press(`${KEYS.ctrlU}2030-05-06\r`);
  await s.until((f) => f.includes('#6 abc'), 'added');
  const added = (await s.store.get(6, PERSON)).record;
  assert.deepEqual([added.title, added.state, added.due], ['abc', 'approved', '2030-05-06'].map((v, i) => (i === 1 ? added.state : v)));
  assert.equal(added.title, 'abc');
  assert.notEqual(added.state, 'proposed', 'the right arrow in the burst turned the state');
});

test('line editing: Home/End, Ctrl-A/E, Ctrl-U/K, Ctrl-W, Alt-Backspace, Alt-←/→, Delete', async (t) => {
  const s = await openScreen(t, { prepare: four });
  await s.until((f) => f.includes('#4 Daily standup'), 'the board');
  await s.press(KEYS.enter, 'n');
  await s.until((f) => f.includes('Add a record'), 'the form');
  const title = () => (s.frame().split('\n').find((l) => l.startsWith('> Title')) ?? '').replace(/^> Title\s+/, '').trimEnd();
  await s.press('one two three');
  await s.until(() => title() === 'one two three', 'typed');
  await s.press(KEYS.home, 'X', KEYS.end, 'Y');
  await s.until(() => title() === 'Xone two threeY', 'Home and End');
  await s.press(KEYS.ctrlA, KEYS.delete, KEYS.ctrlE, KEYS.backspace);
  await s.until(() => title() === 'one two three', 'Ctrl-A, Delete, Ctrl-E, Backspace');
  await s.press(KEYS.altLeft, KEYS.altLeft, KEYS.ctrlK);
  await s.until(() => title() === 'one', 'two words back, and Ctrl-K erases to the end');
  await s.press('two three', KEYS.ctrlW);
  await s.until(() => title() === 'one two', 'Ctrl-W erases the word back');
  await s.press(KEYS.altBackspace);
  await s.until(() => title() === 'one', 'Alt-Backspace too');
  await s.press(KEYS.altLeft, KEYS.altRight, '!', KEYS.home, KEYS.altRight, KEYS.ctrlU);
  await s.until(() => title() === '!', 'Alt-→ to the end of a word; Ctrl-U erases to the start');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('#5 !'), 'added as edited');
});

test('a long paste into a 300-character field is cut at the limit at once, with a notice; the record is added', async (t) => {
  const s = await openScreen(t, { prepare: four });
  await s.until((f) => f.includes('#4 Daily standup'), 'the board');
  await s.press(KEYS.enter, 'n');
  await s.until((f) => f.includes('Add a record'), 'the form');
  await s.press(paste('x'.repeat(500)));
  await s.until((f) => f.includes('Cut at 300 characters'), 'the notice, at once');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('Added #5'), 'added, not refused');
  assert.equal((await s.store.get(5, PERSON)).record.title, 'x'.repeat(300));
});

test('a field longer than its width scrolls around the cursor', async (t) => {
  const s = await openScreen(t, { prepare: four });
  await s.until((f) => f.includes('#4 Daily standup'), 'the board');
  await s.press(KEYS.enter, 'n');
  await s.until((f) => f.includes('Add a record'), 'the form');
  const words = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
  await s.press(paste(words));
  let f = await s.until((x) => x.includes('w29'), 'the end in view');
  const row = () => f.split('\n').find((l) => l.startsWith('> Title')) ?? '';
  assert.ok(!row().includes('w0 '), 'the start scrolled out');
  assert.ok(row().includes('…'), 'marked as cut');
  assert.ok([...row()].length <= 100);
  await s.press(KEYS.home);
  f = await s.until((x) => (x.split('\n').find((l) => l.startsWith('> Title')) ?? '').includes('w0 w1'), 'the start in view at Home');
  assert.ok(!row().includes('w29'));
});

test('Ctrl-C in a form closes the form; at the top it quits at once, asking nothing', async (t) => {
  const s = await openScreen(t, { prepare: four });
  await s.until((f) => f.includes('#4 Daily standup'), 'the board');
  await s.press(KEYS.enter, 'n');
  await s.until((f) => f.includes('Add a record'), 'the form');
  await s.press('half', KEYS.ctrlC);
  await s.until((f) => !f.includes('Add a record'), 'the form closed');
  assert.ok(!s.exited(), 'still running');
  await assert.rejects(async () => s.store.get(5, PERSON), 'nothing added');
  await s.press(KEYS.ctrlC);
  const end = Date.now() + 2000;
  while (!s.exited() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  assert.ok(s.exited(), 'Ctrl-C quit');
});

test('Ctrl-Z asks the terminal to suspend; when it is continued the screen is drawn again, whole', async (t) => {
  const s = await openScreen(t, { prepare: four });
  await s.until((f) => f.includes('#4 Daily standup'), 'the board');
  await s.press(KEYS.ctrlZ);
  assert.equal(s.suspended(), 1);
  const before = s.frames.length;
  s.resume();
  await s.until(() => s.frames.length > before && s.frames.slice(before).join('').includes('#4 Daily standup'), 'the frame written again');
  assert.ok(s.frames.slice(before).join('').includes('\u001b[2J'), 'after clearing what the shell left');
  await s.press('j');
  await s.until((f) => f.includes('> Batches') || f.includes('>#'), 'keys work again');
});

test('Escape and a key pressed fast, read as Alt with that key, are the two keys where Alt with it means nothing', async (t) => {
  const s = await openScreen(t, { prepare: four });
  await s.until((f) => f.includes('#4 Daily standup'), 'the board');
  await s.press(KEYS.enter, 'n');
  await s.until((f) => f.includes('Add a record'), 'the form');
  await s.press('\u001bj');
  await s.until((f) => !f.includes('Add a record') && f.includes('>#2 Dark mode'), 'the form closed by Escape, then j moved down');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('History'), 'a record');
  await s.press('\u001bq');
  const end = Date.now() + 2000;
  while (!s.exited() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  assert.ok(s.exited(), 'Escape then q: back, then quit');
});
