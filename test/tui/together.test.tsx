/** The screen and agents working together: the person's brief (b), claims and leases seen and taken away, the cursor following a moved record, and the screen's own words for what was done. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Brief, Who } from '../../src/store/index.js';
import { shortWhen } from '../../src/person/format.js';
import { AGENT, KEYS, PERSON, batches, openScreen } from './harness.js';

const BOB: Who = { id: 'person:bob', kind: 'person', name: 'bob' };
/** The line of the frame that holds `text`. */
const lineWith = (frame: string, text: string): string => frame.split('\n').find((l) => l.includes(text)) ?? '';

test('b: what changed, newest first with a count of each kind; Enter or L opens a record; it stays unseen until s marks all seen', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      await store.add('batches', { title: 'Dark mode' }, AGENT);
      await store.add('batches', { title: 'Fast search' }, AGENT);
      await store.approve(1, true, BOB);
      await store.add('batches', { title: 'Mine, not news' }, PERSON);
    },
  });
  await s.until((f) => f.includes('3 new (b)'), 'the count of changes waiting, in the status line');
  await s.press('b');
  let f = await s.until((x) => x.includes('What changed since you last looked · 3 changes: 1 approved · 2 added'), 'the brief, counted by kind');
  assert.match(f, /newest first · Enter opens · L the latest change's record · s marks all seen/);
  const rows = f.split('\n');
  const at = (text: string) => rows.findIndex((l) => l.includes(text));
  assert.ok(at('#1 Dark mode — approved by bob') < at('#2 Fast search — added by Agent'), 'the newest first');
  assert.ok(at('#2 Fast search — added by Agent') < at('#1 Dark mode — added by Agent'));
  assert.ok(!f.includes('Mine, not news'), 'the person\'s own doings are not news');

  // The cursor to the second line; Enter opens that record, Esc comes back to the brief.
  await s.press(KEYS.down);
  await s.until((x) => lineWith(x, '#2 Fast search').startsWith('>'), 'the cursor on #2');
  await s.press(KEYS.enter);
  await s.until((x) => x.includes('Binder · #2 Fast search') && x.includes('History'), 'the record opened from the brief');
  await s.press(KEYS.escape);
  await s.until((x) => x.includes('What changed since you last looked'), 'back to the brief');
  // L: the latest change's record, wherever the cursor is.
  await s.press('L');
  await s.until((x) => x.includes('Binder · #1 Dark mode') && x.includes('History'), 'the latest change\'s record');
  await s.press(KEYS.escape);
  await s.until((x) => x.includes('What changed since you last looked'), 'back to the brief');

  // Read is not seen: b again shows them, and another screen of the same person would too.
  assert.equal((await s.store.brief(PERSON, { peek: true })).items.length, 3);
  await s.press('b');
  await s.until((x) => x.includes('3 changes: 1 approved · 2 added'), 'still unseen');
  // A change after the look is not marked by s: it was not shown.
  assert.ok((await s.keeper.act('move', { id: 1, state: 'Approved' }, AGENT)).ok);
  await s.until((x) => x.includes('4 new (b)') && x.includes('#1 was moved to Approved'), 'the move counted, and seen under the cursor');
  await s.press('s');
  await s.until((x) => x.includes('What changed since you last looked · 3 changes marked seen.'), 'marked seen');
  const left = await s.store.brief(PERSON, { peek: true });
  assert.deepEqual(left.items.map((i) => i.kind), ['moved'], 'what came after the look still waits');
  await s.until((x) => x.includes('1 new (b)'), 'one change still waiting');
  await s.press('b');
  f = await s.until((x) => x.includes('moved Proposed → Approved by Agent') && x.includes('1 change: 1 moved'), 'the move in the brief');
  assert.ok(!f.includes('Fast search'), 'what was marked seen is not shown again');
  await s.press('s');
  await s.until((x) => x.includes('· 1 change marked seen.'), 'marked seen');
  await s.until((x) => !x.includes('new (b)'), 'the count gone once marked seen');
  await s.press('b');
  await s.until((x) => x.includes('Nothing changed since you last looked.'), 'nothing new');
  await s.press(KEYS.escape);
  await s.until((x) => x.includes('Approved (1)') && !x.includes('What changed'), 'back to the board');
});

test('a claim shows on the card and the record with its lease; r takes it away as the person, and the agent\'s brief says so', async (t) => {
  const s = await openScreen(t, { prepare: async (store) => { await batches(store); await store.add('batches', { title: 'Dark mode' }, AGENT); } });
  await s.until((f) => f.includes('#1 Dark mode'), 'the record');
  const taken = await s.keeper.act('take', { id: 1 }, AGENT);
  assert.ok(taken.ok, taken.text);
  const until = (await s.store.get(1, PERSON)).record.lease!.until;
  const d = new Date(until);
  const hhmm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  // `10:32` today, `12-02 00:25` when the lease ends tomorrow (half an hour before midnight): cut on the card.
  const onCard = shortWhen(until, Date.now()).slice(0, 7);
  await s.until((f) => f.includes(`⚑ Agent ${onCard}`), 'the holder and the end of the lease on the card');
  await s.press(KEYS.enter, KEYS.enter);
  const f = await s.until((x) => x.includes('Claim: Agent until'), 'the claim on the record');
  assert.match(lineWith(f, 'Claim:'), new RegExp(`Agent until \\d{4}-\\d\\d-\\d\\d ${hhmm} \\(in (29|30) min\\) · r takes it away`));

  await s.press('r');
  // A claim taken away cannot be given back: asked first, in a person's words.
  await s.until((x) => x.includes('Take #1 “Dark mode” away from Agent?'), 'the question');
  assert.ok((await s.store.get(1, PERSON)).record.lease, 'nothing is done before the answer');
  await s.press('y');
  await s.until((x) => x.includes('Took #1 away from Agent; it is free'), 'the screen\'s words for it');
  await s.until((x) => lineWith(x, 'Claim:').includes('none (ann ended Agent\'s at'), 'the record says who ended the claim');
  const record = await s.store.get(1, PERSON);
  assert.equal(record.record.lease, undefined);
  const release = record.history.findLast((h) => h.op === 'release');
  assert.equal(release?.by.id, PERSON.id, 'released as the person, through the keeper');

  // The agent's next brief says who took it: the store's, then as `binder brief` reads it.
  const items = (await s.store.brief(AGENT, { peek: true })).items;
  assert.ok(items.some((i) => i.kind === 'taken-away' && i.record === 1 && i.by.id === PERSON.id && i.holder?.id === AGENT.id), JSON.stringify(items));
  const brief = await s.keeper.act('brief', {}, AGENT);
  assert.ok(brief.ok, brief.text);
  assert.ok((brief.data as Brief).items.some((i) => i.kind === 'taken-away'));
  assert.match(brief.text, /#1 Dark mode: ann took your claim away/);
});

test('a lease that runs out shows as lapsed on the card, then on the record once freed', async (t) => {
  const s = await openScreen(t, { prepare: async (store) => { await batches(store); await store.add('batches', { title: 'Short claim' }, AGENT); } });
  await s.until((f) => f.includes('#1 Short claim'), 'the record');
  assert.ok((await s.keeper.act('take', { id: 1, for: '1s' }, AGENT)).ok);
  await s.until((f) => f.includes('⚑ Agent lapsed'), 'the claim shown lapsed once its time is past', 8000);
  await s.store.lapse();
  await s.press(KEYS.enter, KEYS.enter);
  await s.until((f) => lineWith(f, 'Claim:').includes('Agent\'s lapsed at'), 'the record says the claim lapsed');
  assert.equal((await s.store.get(1, PERSON)).record.lease, undefined);
});

test('the cursor follows a record moved with > < and m, on a board and in a table', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await store.createList({ template: 'tasks', lang: 'en' }, PERSON);
      for (const title of ['One', 'Two', 'Three', 'Four']) await store.add('tasks', { title }, PERSON);
      await store.add('tasks', { title: 'Five', state: 'Doing' }, PERSON);
      await store.add('tasks', { title: 'Zero', state: 'Doing' }, PERSON);
    },
  });
  await s.until((f) => f.includes('To do (4)') && f.includes('Doing (2)'), 'the board');
  await s.press(KEYS.enter, KEYS.down, KEYS.down);
  await s.until((f) => f.includes('>#3 Three'), 'the cursor on #3');
  await s.press('>');
  let f = await s.until((x) => x.includes('Doing (3)') && x.includes('>#3 Three'), 'the cursor with #3 in Doing');
  assert.ok(f.includes('Moved #3 to Doing'), 'the screen\'s words');
  // Now the cursor is in Doing: j moves within it (#3 is before #5 there).
  await s.press(KEYS.down);
  await s.until((x) => x.includes('>#5 Five'), 'the cursor moves on within Doing');
  await s.press('<');
  await s.until((x) => x.includes('To do (4)') && x.includes('>#5 Five'), 'the cursor with #5 back in To do, at its place');
  await s.press('m');
  await s.until((x) => x.includes('Move to which state?'), 'the states to pick');
  await s.press(KEYS.down, KEYS.down, KEYS.down, KEYS.enter);
  f = await s.until((x) => x.includes('Moved #5 to Done') && x.includes('>#5 Five'), 'the cursor with #5 in Done');
  assert.equal((await s.store.get(5, PERSON)).record.state, 'done');

  // A table: the row follows too. Rows are `> #1     One …` right of the lists pane.
  const rows = (frame: string) => frame.split('\n').flatMap((l) => {
    const m = [...l.matchAll(/([> ]) (#\d+) {2,}/g)].at(-1);
    return m ? [`${m[1]}${m[2]}`] : [];
  });
  await s.store.editList('tasks', { view: 'table' }, PERSON);
  // The list shown as a table now: the cursor is still on the record it held.
  await s.until((x) => rows(x).includes('>#5'), 'the table, the cursor still on #5');
  await s.press(KEYS.home);
  await s.until((x) => rows(x).includes('>#1'), 'the cursor on the first row');
  await s.press('>');
  f = await s.until((x) => x.includes('Moved #1 to Doing') && rows(x).includes('>#1'), 'the cursor on #1 in its new place');
  assert.deepEqual(rows(f), [' #2', ' #4', '>#1', ' #3', ' #6', ' #5'], 'the table in state order, #1 among Doing, the cursor on it');
});

test('--lang fr: what was done is said in French, in the screen\'s words', async (t) => {
  const s = await openScreen(t, { lang: 'fr', prepare: async (store) => { await batches(store); await store.add('batches', { title: 'Dark mode' }, AGENT); } });
  await s.until((f) => f.includes('#1 Dark mode'), 'the record');
  await s.press(KEYS.enter, 'a');
  await s.until((f) => f.includes('Approuvé : #1'), 'approved, in French');
  await s.press('a');
  await s.until((f) => f.includes('Retirer votre approbation de #1 « Dark mode » ?'), 'asked first, in French');
  await s.press('o');
  await s.until((f) => f.includes('Approbation retirée : #1, dans Proposed'), 'withdrawn, in French');
  await s.press('b');
  await s.until((f) => f.includes('Ce qui a changé depuis votre dernier regard') && f.includes('ajoutée par Agent dans Proposed'), 'the brief, in French');
  // A refusal is the keeper's sentence, asked for in French.
  await s.store.archive(1, true, PERSON);
  await s.press(KEYS.escape, 'A');
  await s.until((f) => f.includes('#1 Dark mode') && f.includes('archivées'), 'the archived records');
  await s.press('>');
  await s.until((f) => f.includes('La fiche #1 est archivée : restaurez-la d\'abord'), 'the refusal, in French');
});
