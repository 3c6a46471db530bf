/**
 * Records that wait on others on the screen (cards, table rows, and a record's needs and what
 * needs it, each opened with Enter), an approval withdrawn by an agent's change said in the
 * history in both languages, a folder registered again said as bound again, and a record read
 * whole however long its history.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { historyText } from '../../src/person/history-words.js';
import { namesFrom } from '../../src/person/names.js';
import { readRecord } from '../../src/person/reading.js';
import { recordLines } from '../../src/person/record-lines.js';
import { wordsFor, type Lang } from '../../src/person/words.js';
import { AGENT, KEYS, PERSON, batches, openScreen, type Screen } from './harness.js';

const lineWith = (frame: string, text: string): string => frame.split('\n').find((l) => l.includes(text)) ?? '';

/** Presses `key` until the cursor's mark is on a line that matches `on`. */
async function cursorTo(s: Screen, on: RegExp, key = 'j'): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if (s.frame().split('\n').some((l) => new RegExp(`> *${on.source}`).test(l))) return;
    await s.press(key);
  }
  throw new Error(`the cursor never came to ${on}; the screen showed:\n${s.frame()}`);
}

test('history: an approval withdrawn by an agent\'s change, needs added and taken away, and a record freed, in words', () => {
  const row = (op: string, change: unknown) => ({ id: 1, at: '2030-01-01T10:00:00Z', by: AGENT, op, list: 'l', record: 1, change });
  const said = (lang: Lang, op: string, change: unknown) => historyText(row(op, change), {
    words: wordsFor(lang),
    stateName: (id) => ({ proposed: lang === 'fr' ? 'Proposé' : 'Proposed' }[id] ?? id),
    fieldName: (id) => ({ f1: lang === 'fr' ? 'Priorité' : 'Priority' }[id] ?? id),
    nameOf: namesFrom([]),
    noteText: () => null,
    now: Date.parse('2030-01-01T10:00:00Z'),
  });
  const withdraw = { approved: false, title: true, fields: ['f1'], from: 'approved', to: 'proposed' };
  assert.equal(said('en', 'withdraw', withdraw), 'approval withdrawn: title, Priority changed, back in Proposed');
  assert.equal(said('fr', 'withdraw', withdraw), 'approbation retirée (modifié : titre, Priorité), revenue dans Proposé');
  assert.equal(said('fr', 'withdraw', { ...withdraw, to: undefined, from: undefined }), 'approbation retirée (modifié : titre, Priorité)');
  assert.equal(said('en', 'withdraw', { approved: false, fields: ['f1'] }), 'approval withdrawn: Priority changed');
  assert.equal(said('en', 'needs', { add: [2, 3] }), 'needs #2, #3');
  assert.equal(said('en', 'needs', { remove: [2] }), 'no longer needs #2');
  assert.equal(said('fr', 'needs', { add: [2] }), 'a besoin de #2');
  assert.equal(said('en', 'unblocked', { need: 5, because: 'done', tell: ['agent:agent'] }), 'waits on nothing more (#5 done)');
  assert.equal(said('fr', 'unblocked', { need: 5, because: 'deleted', tell: [] }), 'n\'attend plus rien (#5 supprimée)');
});

test('a record that waits on others says so on its card, in the table, and in the record, whose needs open with Enter', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      await store.add('batches', { title: 'Build the base' }, PERSON);
      await store.add('batches', { title: 'Paint the walls' }, PERSON);
      await store.add('batches', { title: 'Hang the pictures' }, PERSON);
      await store.needs(3, [1, 2], PERSON);
      await store.move(2, 'Done', PERSON);
    },
  });
  let f = await s.until((x) => x.includes('#3 Hang'), 'the board');
  assert.match(lineWith(f.split('#3 Hang')[1] ?? '', 'waits on'), /waits on 1/, `the card says it waits:\n${f}`);
  assert.ok(!/waits on/.test(f.split('#3 Hang')[0]!.split('\n').slice(-1)[0]!), 'the others do not');
  await s.press(KEYS.enter);
  await cursorTo(s, /#3 Hang/);
  await s.press(KEYS.enter);
  f = await s.until((x) => x.includes('Needs (2)') && x.includes('List: Batches'), 'the record with its needs');
  assert.match(lineWith(f, 'State:'), /Proposed · waits on 1/);
  assert.match(lineWith(f, '#1 Build'), /#1 Build the base · Proposed/);
  assert.match(lineWith(f, '#2 Paint'), /#2 Paint the walls · Done · done/);
  // Enter on a need's line opens that record; Escape comes back.
  await cursorTo(s, /#1 Build/);
  await s.press(KEYS.enter);
  f = await s.until((x) => x.includes('Needed by (1)') && x.includes('#1 Build the base') && !x.includes('Needs ('), 'the record needed, with what needs it');
  assert.match(lineWith(f, '#3 Hang'), /#3 Hang the pictures · Proposed/);
  await s.press(KEYS.escape);
  await s.until((x) => x.includes('Needs (2)'), 'back on the record that needs it');
  await s.press(KEYS.escape);
  await s.store.editList('batches', { view: 'table' }, PERSON);
  f = await s.until((x) => x.includes('Waits on'), 'the table');
  assert.match(lineWith(f, 'Hang the pictures'), /Hang the pictures\s+Proposed\s+1\b/, `the table says how many it waits on:\n${f}`);
  assert.doesNotMatch(lineWith(f, 'Build the base'), /Proposed\s+\d/);
});

test('--lang fr: a record that waits says it in French', async (t) => {
  const s = await openScreen(t, {
    lang: 'fr',
    prepare: async (store) => {
      const list = await store.createList({ template: 'batches', lang: 'fr' }, PERSON);
      await store.add(list.id, { title: 'Base' }, PERSON);
      await store.add(list.id, { title: 'Murs' }, PERSON);
      await store.needs(2, [1], PERSON);
    },
  });
  await s.until((x) => x.includes('#2 Murs') && x.includes('attend 1'), 'the card');
  await s.press(KEYS.enter);
  await cursorTo(s, /#2 Murs/);
  await s.press(KEYS.enter);
  const f = await s.until((x) => x.includes('A besoin de (1)'), 'the record');
  assert.match(lineWith(f, '#1 Base'), /#1 Base · Proposé/);
});

test('an approval an agent\'s change withdrew reads in the record\'s history', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      await store.add('batches', { title: 'Old title' }, PERSON);
      await store.approve(1, true, PERSON);
      await store.move(1, 'Doing', PERSON);
      await store.edit(1, { title: 'New title' }, AGENT);
    },
  });
  await s.until((x) => x.includes('#1 New title'), 'the board');
  await s.press(KEYS.enter, KEYS.enter, 'G');
  const f = await s.until((x) => x.includes('approval withdrawn:'), 'the history');
  assert.match(lineWith(f, 'approval withdrawn:'), /Agent · approval withdrawn: title changed, back in Proposed/);
});

test('the record view reads every note and the whole history, however many', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      await store.add('batches', { title: 'Long lived' }, PERSON);
      for (let i = 1; i <= 250; i++) await store.note(1, `note ${i}`, AGENT);
    },
  });
  const read = await readRecord(s.store, PERSON, 1);
  assert.ok(read.ok);
  assert.equal(read.value.record.notes.length, 250);
  assert.equal(read.value.history.length, read.value.counts.history);
  assert.equal(read.value.history.length, 251);
  const lines = recordLines(read.value, wordsFor('en'), Date.now(), 80, 'r', namesFrom([]));
  assert.ok(lines.some((l) => l.text === 'History (251)'), 'every row counted in the view');
  assert.ok(lines.some((l) => / · Ann · added in Proposed$/i.test(l.text)), 'down to the first');
  await s.until((x) => x.includes('#1 Long lived'), 'the board');
  await s.press(KEYS.enter, KEYS.enter);
  await s.until((x) => x.includes('Notes (250)'), 'every note');
});

test('a folder registered again is said to be bound again', async (t) => {
  const s = await openScreen(t, { prepare: (store) => batches(store) });
  const dir = join(s.root, 'claude', '.binder');
  mkdirSync(dir, { recursive: true });
  await s.store.addSide(dir, 'Claude', PERSON);
  await s.until((f) => f.includes('Batches'), 'the list');
  await s.press('S');
  await s.until((f) => f.includes('Agent folders') && f.includes('Claude'), 'the folders screen');
  await s.press('n');
  await s.until((f) => f.includes('Add an agent folder'), 'the form');
  await s.press(dir, KEYS.tab, 'Claude', KEYS.enter);
  await s.until((f) => f.includes(`The keeper reads ${dir} as Claude again`), 'bound again');
  assert.equal((await s.store.sides()).length, 1);
});
