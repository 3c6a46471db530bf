/** The screen on a real store and keeper: what a person does, and what they see, frame by frame. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../src/store/index.js';
import { AGENT, KEYS, PERSON, batches, openScreen } from './harness.js';

test('a first run offers the templates; the first list made opens to the agent folder, visibly', async (t) => {
  const s = await openScreen(t);
  await s.until((f) => f.includes('Welcome to Binder') && f.includes('Batches') && f.includes('Roadmap'), 'the welcome');
  await s.press(KEYS.enter);
  // The board of the new list is shown, with the line saying the agent got write access.
  await s.until((f) => f.includes('may now read and change “Batches”') && f.includes('Proposed'), 'the board and the line saying the agent got write access');
  assert.equal((await s.store.list('batches', PERSON)).access[AGENT.id], 'write');
});

test('an agent\'s record appears at once, the person approves it, and the agent may then move it past the gate', async (t) => {
  const s = await openScreen(t, { prepare: (store) => batches(store) });
  await s.until((f) => f.includes('Batches') && f.includes('Proposed (0)'), 'the empty board');
  const added = await s.keeper.act('add', { list: 'batches', title: 'Dark mode' }, AGENT);
  assert.ok(added.ok, added.text);
  await s.until((f) => f.includes('#1 Dark mode'), 'the agent\'s record on the board');
  assert.equal((await s.keeper.act('move', { id: 1, state: 'Approved' }, AGENT)).ok, false);
  await s.press(KEYS.enter, 'a');
  await s.until((f) => f.includes('✓ approved') && f.includes('Approved #1'), 'the approval');
  assert.ok((await s.store.get(1, PERSON)).record.approved);
  const moved = await s.keeper.act('move', { id: 1, state: 'Approved' }, AGENT);
  assert.ok(moved.ok, moved.text);
  await s.until((f) => f.includes('Approved (1)'), 'the record in Approved');
});

test('past the gate: the agent is refused and nothing moves; a refusal to the person shows in the message line', async (t) => {
  const s = await openScreen(t, { prepare: async (store) => { await batches(store); await store.add('batches', { title: 'Not yet' }, AGENT); } });
  await s.until((f) => f.includes('#1 Not yet'), 'the record');
  const refused = await s.keeper.act('move', { id: 1, state: 'Doing' }, AGENT);
  assert.equal(refused.ok, false);
  assert.match(refused.text, /not approved/);
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('Proposed (1)') && f.includes('Doing (0)'), 'the record where it was');
  // An archived record cannot move: the store's sentence is the message line.
  await s.store.archive(1, true, PERSON);
  await s.press('A');
  await s.until((f) => f.includes('#1 Not yet') && f.includes('archived'), 'the archived records');
  await s.press('>');
  await s.until((f) => f.includes('#1 is archived: restore it first'), 'the refusal in the message line');
  assert.equal((await s.store.get(1, PERSON)).record.state, 'proposed');
  // The person's own move past the gate approves, on screen.
  await s.press('x');
  await s.until((f) => f.includes('Restored') || f.includes('restored'), 'the record restored');
  await s.press('A');
  await s.until((f) => f.includes('Proposed (1)'), 'the live records');
  await s.press('>');
  await s.until((f) => f.includes('Approved (1)'), 'the record past the gate');
  assert.ok((await s.store.get(1, PERSON)).record.approved, 'a person\'s move past the gate approves');
});

test('delete asks first, says what will be lost for good, and only y deletes', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      await store.add('batches', { title: 'Old idea', note: 'first thought' }, AGENT);
      await store.attach(1, { kind: 'link', ref: 'https://example.org' }, AGENT);
    },
  });
  await s.until((f) => f.includes('#1 Old idea'), 'the record');
  await s.press(KEYS.enter, 'D');
  await s.until((f) => f.includes('Delete #1 “Old idea” for good?') && f.includes('1 note') && f.includes('1 attached thing'), 'the confirmation');
  await s.press('n');
  await s.until((f) => !f.includes('for good?'), 'the confirmation gone');
  assert.equal((await s.store.get(1, PERSON)).record.title, 'Old idea');
  await s.press('D');
  await s.until((f) => f.includes('for good?'), 'the confirmation again');
  await s.press('y');
  await s.until((f) => !f.includes('#1 Old idea') && f.includes('Proposed (0)'), 'the record gone from the board');
  await assert.rejects(async () => s.store.get(1, PERSON));
});

test('--lang fr: a list made with L has the template\'s French states and fields', async (t) => {
  const s = await openScreen(t, { lang: 'fr', prepare: (store) => store.createList({ template: 'batches', lang: 'fr' }, PERSON) });
  await s.until((f) => f.includes('Lots'), 'the first list');
  await s.press('L');
  await s.until((f) => f.includes('À partir de quel modèle ?'), 'the templates');
  await s.press(KEYS.down);
  await s.until((f) => f.includes('> Tâches'), 'Tâches picked');
  await s.press(KEYS.enter, KEYS.enter);
  await s.until((f) => f.includes('À faire'), 'the new list shown in French');
  const made = await s.store.list('Tâches', PERSON);
  assert.deepEqual(made.states.map((x) => x.name), ['À faire', 'En cours', 'En relecture', 'Fait']);
  assert.deepEqual(made.fields.map((x) => x.name), ['Priorité', 'Branche']);
});

test('grant: the agents and their access to the list, changed with the arrows', async (t) => {
  const s = await openScreen(t, { prepare: (store) => store.createList({ template: 'tasks', lang: 'en' }, PERSON) });
  await s.until((f) => f.includes('Tasks'), 'the list');
  await s.press('p');
  await s.until((f) => f.includes('Agents\' access to “Tasks”') && f.includes('[none]'), 'the grant screen');
  await s.press(KEYS.right);
  await s.until((f) => f.includes('[read]'), 'read access');
  assert.equal((await s.store.list('tasks', PERSON)).access[AGENT.id], 'read');
  await s.press(KEYS.right);
  await s.until((f) => f.includes('[write]'), 'write access');
  assert.equal((await s.store.list('tasks', PERSON)).access[AGENT.id], 'write');
  await s.press(KEYS.left, KEYS.left);
  await s.until((f) => f.includes('[none]'), 'no access again');
  assert.equal((await s.store.list('tasks', PERSON)).access[AGENT.id], undefined);

  // Two quick ← from write, as one read of input: a revoke, not a stop at read.
  await s.press(KEYS.right, KEYS.right);
  await s.until((f) => f.includes('[write]'), 'write access again');
  await s.settle();
  s.stdin.write(KEYS.left + KEYS.left);
  await s.until((f) => f.includes('[none]'), 'no access after ← ←');
  assert.equal((await s.store.list('tasks', PERSON)).access[AGENT.id], undefined);
});

test('a new list from a template: pick it, name it, see it', async (t) => {
  const s = await openScreen(t, { prepare: (store) => batches(store) });
  await s.until((f) => f.includes('Batches'), 'the first list');
  await s.press('L');
  await s.until((f) => f.includes('Make a list from which template?'), 'the templates');
  await s.press(KEYS.down);
  await s.until((f) => f.includes('> Tasks'), 'Tasks picked');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('Make a list') && f.includes('Title'), 'the title form');
  await s.press(' for the site');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('Tasks for the site') && f.includes('To do'), 'the new list shown');
  assert.equal((await s.store.list('Tasks for the site', PERSON)).states[0]?.name, 'To do');
});

test('search is live as one types, across lists, and opens a record', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      await store.createList({ template: 'tasks', lang: 'en' }, PERSON);
      await store.add('batches', { title: 'Dark mode for the login page' }, PERSON);
      await store.add('tasks', { title: 'Fix the dark header' }, PERSON);
      await store.add('tasks', { title: 'Unrelated' }, PERSON);
    },
  });
  await s.until((f) => f.includes('Batches'), 'the lists');
  await s.press('/');
  await s.until((f) => f.includes('Search:'), 'the search');
  await s.press('d', 'a', 'r');
  await s.until((f) => f.includes('#1 Dark mode') && f.includes('#2 Fix the dark header') && !f.includes('Unrelated'), 'both lists\' matches');
  await s.press(' ', 'h');
  await s.until((f) => f.includes('1 match') && f.includes('#2 Fix the dark header') && !f.includes('#1 Dark mode'), 'one match for "dar h"');
  await s.press('zz');
  await s.until((f) => f.includes('Nothing matches'), 'no match');
  await s.press('\u007f', '\u007f');
  await s.until((f) => f.includes('1 match'), 'the match again, after erasing');
  await s.press(KEYS.tab, KEYS.enter);
  await s.until((f) => f.includes('Binder · #2 Fix the dark header') && f.includes('History'), 'the record opened from the results');
  await s.press(KEYS.escape, KEYS.escape);
  await s.until((f) => !f.includes('Search') && f.includes('Lists'), 'back to the lists');
});

test('search finds a record by its number (12 or #12), says when it cut its matches and how to narrow them, and never "Nothing matches" while it looks', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      for (let i = 1; i <= 205; i++) await store.add('batches', { title: `Batch number ${i}` }, PERSON);
      await store.add('batches', { title: 'See 17 first' }, PERSON);
    },
  });
  await s.until((f) => f.includes('Batches'), 'the lists');
  await s.press('/');
  await s.until((f) => f.includes('Type to search every list.'), 'the search');
  const from = s.frames.length;
  await s.press('b', 'a', 't');
  let f = await s.until((x) => x.includes('The first 200 matches, and more: add words to narrow them, or s only one state, M only mine.'), 'the matches said to be cut, and how to narrow them');
  assert.ok(!s.frames.slice(from).some((x) => x.includes('Nothing matches')), 'no "Nothing matches" while the search looked');
  for (const given of ['#17', '17']) {
    await s.press(KEYS.ctrlU, ...given);
    f = await s.until((x) => /\n> ?#17 Batch number 17|\n {0,2}#17 Batch number 17/.test(x) && x.includes('See 17 first'), `"${given}": record 17, then what holds 17`);
    const rows = f.split('\n');
    assert.ok(rows.findIndex((l) => l.includes('#17 Batch number 17')) < rows.findIndex((l) => l.includes('See 17 first')), 'the record of that number first');
  }
  await s.press(KEYS.tab, KEYS.enter);
  await s.until((x) => x.includes('Binder · #17 Batch number 17') && x.includes('History'), 'the record opened by its number');
});

test('a change by another process on the same store shows within a poll', async (t) => {
  const s = await openScreen(t, { prepare: (store) => batches(store) });
  await s.until((f) => f.includes('Proposed (0)'), 'the empty board');
  const other = openStore(s.store.path.replace(/\/[^/]+$/, ''));
  t.after(() => other.close());
  await other.add('batches', { title: 'From elsewhere' }, PERSON);
  await s.until((f) => f.includes('#1 From elsewhere'), 'the other process\'s record');
});

test('a record opened shows its fields, notes with author, what is attached, owners, due and history', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await store.createList({ template: 'tasks', lang: 'en' }, PERSON);
      await store.add('tasks', { title: 'Write docs', owners: ['me'], due: '2030-01-02', note: 'start with the protocol', fields: { Priority: 'High' } }, PERSON);
      await store.attach(1, { kind: 'branch', ref: 'site:docs', title: 'the work' }, PERSON);
    },
  });
  await s.until((f) => f.includes('#1 Write docs'), 'the record');
  await s.press(KEYS.enter, KEYS.enter);
  const f = await s.until((x) => x.includes('History'), 'the record opened');
  for (const piece of ['Priority: High', 'Owners: ann', 'Due: 2030-01-02', 'start with the protocol', 'ann ·', 'branch site:docs — the work', 'add']) {
    assert.ok(f.includes(piece), `the record shows ${piece}:\n${f}`);
  }
});

test('--lang fr: the screen speaks French', async (t) => {
  const s = await openScreen(t, { lang: 'fr' });
  await s.until((f) => f.includes('Bienvenue dans Binder'), 'the French welcome');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('peut maintenant lire et modifier'), 'the French line about access');
  assert.ok(!s.frame().includes('Welcome'));
});

test('a long column scrolls: the window follows the cursor and shows exactly the records around it', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await batches(store);
      await store.transaction(async (tx) => { for (let i = 1; i <= 60; i++) await tx.add('batches', { title: `Item ${i}` }, PERSON); });
    },
  });
  await s.until((f) => f.includes('Proposed (60)'), 'the long column');
  await s.press(KEYS.enter, '\u001b[F');
  let f = await s.until((x) => x.includes('>#60 Item 60'), 'the last record selected');
  const shown = () => [...s.frame().matchAll(/#(\d+) Item/g)].map((m) => Number(m[1]));
  const ids = shown();
  assert.deepEqual(ids, ids.map((_, i) => ids[0]! + i), 'a contiguous window');
  assert.equal(ids.at(-1), 60);
  assert.ok(f.includes('↑ ') && !f.includes('↓ '), 'more above, none below');
  for (let i = 0; i < 25; i++) await s.press(KEYS.up);
  f = await s.until((x) => x.includes('>#35 Item 35'), 'the cursor 25 up');
  const again = shown();
  assert.deepEqual(again, again.map((_, i) => again[0]! + i));
  assert.equal(again[0], 35, 'the window starts at the cursor when scrolling up');
  await s.press('\u001b[6~');
  await s.until((x) => /> ?#\d+ Item/.test(x) && !x.includes('>#35 '), 'a page down');
});
