/** What a person changes from the screen beyond approving: records through forms, notes, attachments, a list's shape, lists and folders. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT, KEYS, PERSON, batches, openScreen } from './harness.js';

test('a record added and edited through forms; a note added, and only one\'s own note edited; attach and detach', async (t) => {
  const s = await openScreen(t, { prepare: async (store) => { await store.createList({ template: 'tasks', lang: 'en' }, PERSON); await store.grant('tasks', AGENT.id, 'write', PERSON); } });
  await s.until((f) => f.includes('To do (0)'), 'the empty board');
  await s.press(KEYS.enter, 'n');
  await s.until((f) => f.includes('Add a record') && f.includes('Priority'), 'the add form, with the list\'s fields');
  await s.press('Write the docs', KEYS.tab, KEYS.right, KEYS.tab, '2031-02-03', KEYS.tab, 'me');
  await s.press(KEYS.tab, KEYS.tab, KEYS.right);
  await s.until((f) => f.includes('‹ High ›'), 'a choice turned');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('Doing (1)') && f.includes('#1 Write the docs'), 'the record added in the state chosen');
  const added = (await s.store.get(1, PERSON)).record;
  assert.deepEqual([added.state, added.due, added.owners, added.fields.priority], ['doing', '2031-02-03', [PERSON.id], 'High']);

  await s.press(KEYS.right, 'e');
  await s.until((f) => f.includes('Edit a record #1'), 'the edit form');
  await s.press('!', KEYS.enter);
  await s.until((f) => f.includes('Changed #1'), 'the title changed');
  assert.equal((await s.store.get(1, PERSON)).record.title, 'Write the docs!');
  assert.equal((await s.store.get(1, PERSON)).history.filter((h) => h.op === 'edit').length, 1);

  assert.ok((await s.keeper.act('note', { id: 1, text: 'from the agent' }, AGENT)).ok);
  await s.press(KEYS.enter, 'N');
  await s.until((f) => f.includes('Add a note #1'), 'the note form');
  await s.press('mine', KEYS.enter);
  await s.until((f) => f.includes('Notes (2)') && f.includes('    mine'), 'my note on the record');
  // The cursor to the agent's note: E refuses; to mine: E edits.
  const lineOf = (text: string) => s.frame().split('\n').findIndex((l) => l.includes(text));
  while (!s.frame().split('\n')[lineOf('from the agent')]?.startsWith('>')) await s.press(KEYS.down);
  await s.press('E');
  await s.until((f) => f.includes('Only its author may edit a note'), 'the refusal for another\'s note');
  while (!s.frame().split('\n')[lineOf('    mine')]?.startsWith('>')) await s.press(KEYS.down);
  await s.press('E');
  await s.until((f) => f.includes('Edit the note'), 'the note form');
  await s.press(' and more', KEYS.enter);
  await s.until((f) => f.includes('mine and more') && f.includes('edited'), 'the note rewritten');

  await s.press('t');
  await s.until((f) => f.includes('Attach #1') && f.includes('‹ message ›'), 'the attach form');
  await s.press(KEYS.right, KEYS.tab, 'docs/protocol.md', KEYS.tab, 'the protocol', KEYS.enter);
  await s.until((f) => f.includes('Attached (1)') && f.includes('file docs/protocol.md — the protocol'), 'the file attached');
  while (!s.frame().split('\n')[lineOf('file docs/protocol.md')]?.startsWith('>')) await s.press(KEYS.down);
  await s.press('T');
  await s.until((f) => f.includes('Attached (0)'), 'the file detached');
});

test('a list\'s shape: renamed, a state added, a second gate refused, the gate moved to it, moved, removed; board to table', async (t) => {
  const s = await openScreen(t, { prepare: (store) => batches(store) });
  await s.until((f) => f.includes('Batches'), 'the list');
  await s.press('E');
  await s.until((f) => f.includes('Editing “Batches”') && f.includes('State 2. Approved · gate'), 'the list editor');
  await s.press('e');
  await s.until((f) => f.includes('Edit a list'), 'the title form');
  await s.press(' of work', KEYS.enter);
  await s.until((f) => f.includes('Editing “Batches of work”'), 'renamed');
  await s.press('n');
  await s.until((f) => f.includes('New state'), 'the state form');
  await s.press('Review', KEYS.tab, KEYS.right);
  await s.until((f) => f.includes('‹ at the end, after Done ›'), 'the end chosen');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('State 5. Review'), 'the state added at the end, as said');
  for (let i = 0; i < 7; i++) await s.press(KEYS.down);
  await s.until((f) => f.includes('> State 5. Review'), 'the cursor on Review');
  await s.press('g');
  await s.until((f) => f.includes('A list has one gate'), 'a second gate refused, saying why');
  assert.ok(!s.frame().includes('Review · gate'));
  // The gate moved instead: Approved's taken off, then Review's put on.
  await s.press(KEYS.up, KEYS.up, KEYS.up);
  await s.until((f) => f.includes('> State 2. Approved · gate'), 'the cursor on Approved');
  await s.press('g');
  await s.until((f) => f.includes('> State 2. Approved') && !f.includes('Approved · gate'), 'Approved no longer a gate');
  await s.press(KEYS.down, KEYS.down, KEYS.down);
  await s.until((f) => f.includes('> State 5. Review'), 'the cursor on Review again');
  await s.press('g');
  await s.until((f) => f.includes('State 5. Review · gate'), 'Review made the gate');
  await s.press('<');
  await s.until((f) => f.includes('> State 4. Review · gate'), 'Review moved earlier, the cursor with it');
  await s.press('D');
  await s.until((f) => f.includes('Remove the state “Review” from the list?'), 'asked first');
  await s.press('y');
  await s.until((f) => !f.includes('Review'), 'Review removed');
  await s.press(KEYS.up, KEYS.up, KEYS.up, KEYS.up, 'v');
  await s.until((f) => f.includes('View: table'), 'the view changed');
  await s.press(KEYS.escape);
  await s.until((f) => f.includes('Title') && f.includes('State') && !f.includes('Editing'), 'the list as a table');
  assert.equal((await s.store.list('batches', PERSON)).title, 'Batches of work');
});

test('a new state goes before the list\'s last state unless the person says where, never silently after Done', async (t) => {
  const s = await openScreen(t, { prepare: (store) => batches(store) });
  await s.until((f) => f.includes('Batches'), 'the list');
  await s.press('E');
  await s.until((f) => f.includes('Editing “Batches”') && f.includes('State 4. Done'), 'the list editor');
  await s.press('n');
  await s.until((f) => f.includes('New state') && f.includes('Where') && f.includes('‹ before Done ›'), 'the state form, its place before Done');
  await s.press('Checked', KEYS.enter);
  await s.until((f) => f.includes('State 4. Checked') && f.includes('State 5. Done'), 'added before Done');
  await s.press('n');
  await s.until((f) => f.includes('‹ before Done ›'), 'the form again');
  await s.press('Triage', KEYS.tab);
  for (let i = 0; i < 4; i++) await s.press(KEYS.left);
  await s.until((f) => f.includes('‹ before Proposed ›'), 'the first place chosen');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('State 1. Triage') && f.includes('State 2. Proposed') && f.includes('State 6. Done'), 'put where the person said');
  assert.deepEqual((await s.store.list('batches', PERSON)).states.map((x) => x.name), ['Triage', 'Proposed', 'Approved', 'Doing', 'Checked', 'Done']);
});

test('a list is deleted only when its title is typed; archived lists come back with A', async (t) => {
  const s = await openScreen(t, { prepare: async (store) => { await batches(store); await store.createList({ template: 'people', lang: 'en' }, PERSON); await store.add('people', { title: 'Zoe' }, PERSON); } });
  await s.until((f) => f.includes('People'), 'the lists');
  await s.press(KEYS.down);
  await s.until((f) => f.includes('> People'), 'People selected');
  await s.press('D');
  await s.until((f) => f.includes('Delete the list “People” and its 1 record for good?') && f.includes('Type the list\'s title'), 'the typed confirmation');
  await s.press('Peple', KEYS.enter);
  await s.until((f) => f.includes('nothing was deleted'), 'a wrong title deletes nothing');
  assert.equal((await s.store.list('people', PERSON)).title, 'People');
  await s.press('X');
  await s.until((f) => !f.includes('People') || f.includes('Archived the list'), 'the list archived');
  await s.press('A');
  await s.until((f) => f.includes('Archived lists') && f.includes('People') && f.includes('archived'), 'archived lists shown');
  await s.press(KEYS.down, 'D');
  await s.until((f) => f.includes('Type the list\'s title'), 'the confirmation again');
  await s.press('people', KEYS.enter);
  await s.until((f) => f.includes('Deleted the list “People” and its 1 record for good'), 'deleted');
  await assert.rejects(async () => s.store.list('people', PERSON));
});

test('agent folders: one added under a name, shown, then removed', async (t) => {
  const s = await openScreen(t, { prepare: (store) => batches(store) });
  await s.until((f) => f.includes('Batches'), 'the list');
  await s.press('S');
  await s.until((f) => f.includes('Agent folders') && f.includes('Agent'), 'the folders screen');
  await s.press('n');
  await s.until((f) => f.includes('Add an agent folder'), 'the form');
  const dir = join(s.root, 'claude', '.binder');
  await s.press(dir, KEYS.tab, 'Claude', KEYS.enter);
  // A folder that is not there is refused, unless the form is told to make it.
  await s.until((f) => f.includes(`${dir} does not exist`) && f.includes('Make it'), 'the folder refused, the form still open');
  assert.equal((await s.store.sides()).length, 0);
  await s.press(KEYS.right, KEYS.enter);
  await s.until((f) => f.includes(`Made the folder ${dir}`) && f.includes('Agent folders'), 'the folder made and registered');
  // Made by the keeper, the folder is the person's own OS user's: told so, with the fix.
  await s.until((f) => f.includes('Claude runs as you: it can act as you unless it runs in binder sandbox'), 'the warning');
  assert.equal((await s.store.sides())[0]?.name, 'Claude');
  assert.ok(existsSync(dir));
  while (!s.frame().split('\n').some((l) => l.startsWith('>') && l.includes('Claude'))) await s.press(KEYS.down);
  await s.press('D');
  await s.until((f) => f.includes('no longer reads') && f.includes('u undoes it'), 'removed, with an undo offered');
  assert.equal((await s.store.sides()).length, 0);
  await s.press('u');
  await s.until((f) => f.includes('Undone:'), 'taken back');
  assert.equal((await s.store.sides())[0]?.name, 'Claude', 'registered again under its name');
  assert.equal((await s.store.sides())[0]?.dir, dir);
});
