/**
 * What a person reads: a record whole (its title and every field wrapped, its history in words,
 * people and agents by name), columns that hold with CJK titles, cards of the rows they need,
 * the pane with the keys plain to see, forms that fit the screen, a terminal too small said so,
 * messages that do not outlive what they speak of, and words that fit the case.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import stringWidth from 'string-width';
import type { Who } from '../../src/store/index.js';
import { historyText } from '../../src/person/history-words.js';
import { namesFrom } from '../../src/person/names.js';
import { wordsFor } from '../../src/person/words.js';
import { AGENT, KEYS, PERSON, batches, openScreen, plain } from './harness.js';

const BOB: Who = { id: 'agent:bob', kind: 'agent', name: 'Bob' };
const lineWith = (frame: string, text: string): string => frame.split('\n').find((l) => l.includes(text)) ?? '';

test('a record opened: its whole title and every field wrapped, its history in words, everyone by name', async (t) => {
  const long = `A title that goes on ${'and on '.repeat(30)}to its very end`;
  const s = await openScreen(t, {
    prepare: async (store) => {
      await store.createList({ template: 'tasks', lang: 'en' }, PERSON);
      await store.addSide(join(store.path, '..', 'bob'), 'Bob', PERSON);
      await store.grant('tasks', BOB.id, 'write', PERSON);
      await store.add('tasks', { title: long, fields: { Branch: `feature/${'x'.repeat(150)}-last` }, note: 'first words of a note that says a lot more than fits' }, PERSON);
      await store.edit(1, { owners: ['agent:bob'] }, PERSON);
      await store.take(1, { id: 'agent:bob', kind: 'agent', name: 'Bob' }, { for: '30m' } as never);
    },
  });
  await s.until((f) => f.includes('#1 A title'), 'the board');
  await s.press(KEYS.enter, KEYS.enter);
  const first = await s.until((x) => x.includes('List: Tasks'), 'the record opened');
  await s.press('G');
  const last = await s.until((x) => x.includes('History (') && x.includes('claimed until'), 'its end');
  const f = `${first}\n${last}`;
  const body = first.split('\n').slice(1).join('\n');
  assert.ok(body.replace(/\n\s*/g, ' ').includes(`#1 ${long}`), 'the whole title, wrapped');
  assert.ok(body.includes('-last'), 'the whole field value, wrapped');
  assert.ok(lineWith(f, 'owners:').includes('owners: Bob added'), `owners in words:\n${f}`);
  // `14:30` today, `12-02 00:25` when the claim ends tomorrow (begun half an hour before midnight).
  assert.match(f, /Bob · claimed until (\d\d-\d\d )?\d\d:\d\d/);
  assert.match(f, /note n1: first words of a note that says a lot…/);
  assert.ok(!/[{}[\]"]/.test(last.slice(last.indexOf('History'))), `no JSON in the history:\n${last}`);
  assert.ok(!f.includes('agent:bob') && !f.includes('person:ann'), 'names, never ids');
  assert.ok(lineWith(f, 'Owners:').includes('Owners: Bob'));
});

test('history: an operation the screen has no sentence for is still said in words', () => {
  const words = wordsFor('en');
  const nameOf = namesFrom([{ id: 'agent:bob', name: 'Bob' }]);
  const lookup = { words, stateName: (id: string) => (id === 'todo' ? 'To do' : id), fieldName: (id: string) => id, nameOf, noteText: () => null, now: Date.now() };
  const row = (op: string, change: unknown) => ({ id: 1, at: '2030-01-01T10:00:00Z', by: BOB, op, list: 'l', record: 1, change });
  assert.equal(historyText(row('withdraw-approval', { reason: 'edited by an agent', fields: ['title', 'priority'], by: 'agent:bob' }), lookup),
    'withdraw approval: reason: edited by an agent; fields: title, priority; by: Bob');
  assert.equal(historyText(row('approve', { approved: false, because: 'edited' }), lookup), 'approval withdrawn · because: edited');
  assert.equal(historyText(row('edit', { owners: [['person:ann'], ['person:ann', 'agent:bob']], approved: false }), lookup), 'owners: Bob added · approval withdrawn');
  assert.equal(historyText(row('move', { from: 'todo', to: 'done' }), lookup), 'moved To do → done');
  assert.equal(historyText(row('release', { holder: { id: 'agent:bob', kind: 'agent', name: 'Bob' } }), lookup), 'gave the claim back');
  assert.equal(historyText({ ...row('release', { holder: BOB }), by: PERSON }, lookup), 'took the claim away from Bob');
  assert.equal(historyText(row('mystery', null), lookup), 'mystery');
});

test('a CJK or combining title keeps the table\'s columns where they are', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      await store.editList('batches', { view: 'table' }, PERSON);
      for (const title of ['Plain title', '漢字のタイトルです、とても長い題名がここにあります', 'Cafe\u0301 au lait', '👩‍👩‍👧 family']) await store.add('batches', { title, due: '2030-01-02' }, AGENT);
    },
  });
  const f = await s.until((x) => x.includes('#4'), 'the table');
  const rows = f.split('\n').filter((l) => /#\d /.test(l));
  assert.equal(rows.length, 4);
  const stateAt = rows.map((l) => stringWidth(l.slice(0, l.indexOf('Proposed'))));
  assert.deepEqual(new Set(stateAt).size, 1, `the State column starts at the same column on every row:\n${rows.join('\n')}`);
  const dueAt = rows.map((l) => stringWidth(l.slice(0, l.indexOf('2030-01-02'))));
  assert.deepEqual(new Set(dueAt).size, 1, 'and so does Due');
  assert.ok(rows[1]!.includes('…'), 'the long title cut with …');
  for (const row of f.split('\n')) assert.ok(stringWidth(row) <= 100, `no row wider than the terminal: ${row}`);
});

test('cards take the rows they need; the pane and column with the keys are highlighted', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      for (const title of ['One', 'Two', 'Three']) await store.add('batches', { title }, AGENT);
      await store.add('batches', { title: 'Four', due: '2030-01-02' }, AGENT);
    },
  });
  let f = await s.until((x) => x.includes('#4 Four'), 'the board');
  const rows = f.split('\n');
  const at = (text: string) => rows.findIndex((l) => l.includes(text));
  assert.deepEqual([at('#2 Two') - at('#1 One'), at('#3 Three') - at('#2 Two'), at('#4 Four') - at('#3 Three')], [1, 1, 1], 'no empty row under a card with nothing more to say');
  assert.ok(rows[at('#4 Four') + 1]!.includes('2030-01-02'), 'a second row where there is');
  // Marked here (the highlight itself, a colour, is checked in a real terminal: terminal-input.test.ts).
  assert.ok(lineWith(f, 'Lists').includes('▸ Lists'), 'the lists pane has the keys');
  await s.press(KEYS.enter);
  f = await s.until((x) => x.includes('▸ Proposed'), 'the records have the keys');
  assert.ok(!f.includes('▸ Lists'));
});

test('a form taller than the screen shows the field in focus; a terminal too small says what it needs', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await store.createList({ template: 'tasks', lang: 'en' }, PERSON);
      await store.editList('tasks', { fields: [...(await store.list('tasks', PERSON)).fields, ...['A1', 'A2', 'A3', 'A4', 'A5', 'A6'].map((name) => ({ name, type: 'text' as const }))] }, PERSON);
    },
  });
  await s.until((f) => f.includes('To do (0)'), 'the board');
  s.resize(60, 14);
  await s.press(KEYS.enter, 'n');
  let f = await s.until((x) => x.includes('Add a record'), 'the form');
  assert.ok(f.split('\n').length <= 14);
  assert.match(f, /↓ \d+ more/);
  for (let i = 0; i < 20 && !/> A6/.test(s.frame()); i++) await s.press(KEYS.tab);
  f = await s.until((x) => /> A6/.test(x), 'the last field in view, in focus');
  assert.match(f, /↑ \d+ more/);
  assert.ok(f.split('\n').length <= 14 && f.split('\n').every((l) => stringWidth(l) <= 60));
  s.resize(30, 8);
  f = await s.until((x) => x.includes('needs 40×12'), 'the terminal too small');
  assert.match(plain(f).replace(/\n/g, ' '), /The terminal is 30×8; Binder needs 40×12 at least/);
  s.resize(100, 30);
  await s.until((x) => x.includes('Add a record'), 'the form again at a size that works');
});

test('a message goes with the record it speaks of; an archived list is not "no list"; the example date is tomorrow', async (t) => {
  const s = await openScreen(t, { prepare: async (store) => { await batches(store); await store.add('batches', { title: 'Dark mode' }, AGENT); await store.add('batches', { title: 'Other' }, AGENT); } });
  await s.until((f) => f.includes('#1 Dark mode'), 'the board');
  await s.press(KEYS.enter, 'e', '!', KEYS.enter);
  await s.until((f) => f.includes('Changed #1'), 'the message');
  await s.store.delete(1, PERSON);
  await s.until((f) => !f.includes('Changed #1') && !f.includes('#1 Dark mode'), 'the message gone with the record');

  await s.press('n');
  const tomorrow = new Date(Date.now() + 86_400_000);
  const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
  await s.press('x', KEYS.tab, KEYS.tab);
  await s.until((f) => f.includes(`${day} or "${day} 09:00"`), 'the hint, with tomorrow');
  await s.press('next week', KEYS.enter);
  await s.until((f) => f.includes(`“next week” is not a due date: write ${day}`), 'the refusal, with tomorrow');
  await s.press(KEYS.escape, KEYS.escape);

  await s.store.archiveList('batches', true, PERSON);
  await s.until((f) => f.replace(/\n\s*/g, ' ').includes('Every list is archived (1): A shows them.'), 'said as it is');
  assert.ok(!s.frame().includes('No list yet'));
});
