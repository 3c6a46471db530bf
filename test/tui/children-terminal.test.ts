/**
 * Records under records on the screen, in a real terminal (tmux): a record opened shows what it
 * lies under and what lies under it with how many are done, Enter on one of them opens it; the
 * edit form sets the parent (a loop refused with the store's sentence, emptied: under none); and
 * deleting a parent asks what becomes of the records under it: nothing deleted, left under
 * nothing, or deleted with it; the list editor turns children first on and off. Skipped, saying
 * why, only where tmux is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PERSON } from './harness.js';
import { BINDER as binder, NO_TMUX as why, hasTmux, startScreen, type Terminal } from './tmux-screen.js';

/** The screen's rows as one line: a question wrapped over rows reads whole. */
const flat = (screen: string): string => screen.replace(/\s+/g, ' ');

/** The record as the store has it (null once it is gone): its parent's number and its children's. */
function stored(term: Terminal, id: number): { parent: number | null; children: number[] } | null {
  const got = spawnSync(process.execPath, [binder, 'admin', 'get', String(id), '--json', '--store', join(term.root, 'store')], { encoding: 'utf8' });
  if (got.status !== 0) return null;
  const view = JSON.parse(got.stdout) as { parent?: { id: number }; children?: { id: number }[] };
  return { parent: view.parent?.id ?? null, children: (view.children ?? []).map((c) => c.id) };
}

/** Down until the cursor's row (marked `>` before its indent) holds `text`: a wait on the screen, never a count of rows. */
async function cursorTo(term: Terminal, text: string): Promise<void> {
  const on = (s: string) => s.includes(`>  ${text}`);
  for (let tries = 0; tries < 60; tries++) {
    const before = term.screen();
    if (on(before)) return;
    term.keys('Down');
    await term.until((s) => s !== before, 'the cursor to go down');
  }
  throw new Error(`the cursor never reached ${text}:\n${term.screen()}`);
}

test('in a real terminal, a record shows its parent and children, the edit form sets the parent, and deleting a parent asks what becomes of its children', { skip: hasTmux ? false : why, timeout: 120_000 }, async (t) => {
  const term = await startScreen(t, {
    prepare: async (store) => {
      await store.createList({ template: 'tasks', lang: 'en' }, PERSON);
      await store.add('tasks', { title: 'Ship the release' }, PERSON);
      await store.add('tasks', { title: 'Write the notes', state: 'Doing', parent: 1 }, PERSON);
      await store.add('tasks', { title: 'Tag the build', state: 'Done', parent: 1 }, PERSON);
      await store.add('tasks', { title: 'Proofread them', parent: 2 }, PERSON);
    },
  });
  await term.until((s) => s.includes('#1 Ship the release'), 'the board');
  term.keys('Enter', 'Enter');
  await term.until((s) => s.includes('Binder · #1 Ship the release') && s.includes('Under it (1 of 2 done)')
    && s.includes('#2 Write the notes · Doing') && s.includes('#3 Tag the build · Done'), 'record #1 with its children and the count');

  // Enter on a child opens it: it names its parent, and its own child.
  await cursorTo(term, '#2 Write the notes');
  term.keys('Enter');
  await term.until((s) => s.includes('Binder · #2 Write the notes') && s.includes('Under: #1 Ship the release · To do')
    && s.includes('Under it (0 of 1 done)') && s.includes('#4 Proofread them'), 'record #2 under #1');

  // The edit form holds the parent: under its own child is refused with the store's sentence, the form kept.
  term.keys('e');
  await term.until((s) => s.includes('Edit a record #2') && /Under\s+1\b/.test(s), 'the edit form, its parent in it');
  // Its field is the last: ↑ from the first goes round to it.
  term.keys('Up', 'BSpace');
  term.literal('4');
  await term.until((s) => /Under\s+4\b/.test(s), 'the parent typed');
  term.keys('Enter');
  await term.until((s) => s.includes('#2 cannot go under #4') && s.includes('Edit a record #2'), 'the loop refused, the form still open');
  assert.equal(stored(term, 2)?.parent, 1, 'nothing changed');
  // Emptied, it lies under nothing.
  term.keys('BSpace', 'Enter');
  await term.until((s) => !s.includes('Edit a record') && s.includes('Binder · #2 Write the notes') && !s.includes('Under: #1'), 'under nothing now');
  assert.equal(stored(term, 2)?.parent, null);
  // And back under #1, typed as #1.
  term.keys('e', 'Up');
  term.literal('#1');
  term.keys('Enter');
  await term.until((s) => s.includes('Under: #1 Ship the release'), 'under #1 again');
  assert.equal(stored(term, 2)?.parent, 1);

  // Deleting a parent asks what becomes of its children; Enter alone deletes nothing.
  term.keys('Escape');
  await term.until((s) => s.includes('Binder · #1 Ship the release'), 'record #1 again');
  term.keys('D');
  await term.until((s) => flat(s).includes('Records lie under it (#2, #3)') && s.includes('> Cancel: delete nothing'), 'the question, on cancel');
  term.keys('Enter');
  await term.until((s) => !flat(s).includes('Records lie under it'), 'the question gone');
  assert.deepEqual(stored(term, 1)?.children, [2, 3], 'nothing deleted');
  // Deleted alone: its children stay, under nothing.
  term.keys('D');
  await term.until((s) => s.includes('> Cancel: delete nothing'), 'the question again');
  term.keys('Up', 'Up');
  await term.until((s) => s.includes('> Delete it alone'), 'on: delete it alone');
  term.keys('Enter');
  // The screen leaves the record deleted (its message goes with it, as every message of a record gone).
  await term.until((s) => !s.includes('Binder · #1') && s.includes('#1 is gone'), 'deleted, the record left');
  assert.equal(stored(term, 1), null);
  assert.deepEqual(stored(term, 2), { parent: null, children: [4] }, 'its child stays, under nothing, with its own');
  assert.deepEqual(stored(term, 3), { parent: null, children: [] });

  // Deleted with what lies under it: reached by its number.
  term.keys('#');
  await term.until((s) => s.includes('Go to the record numbered'), 'the go-to form');
  term.literal('2');
  term.keys('Enter');
  await term.until((s) => s.includes('Binder · #2 Write the notes') && !s.includes('Under: #'), 'record #2, under nothing');
  term.keys('D');
  await term.until((s) => flat(s).includes('Records lie under it (#4)'), 'the question for #2');
  term.keys('Up');
  await term.until((s) => s.includes('> Delete them too'), 'on: delete them too');
  term.keys('Enter');
  await term.until((s) => !s.includes('Binder · #2') && !s.includes('#4 Proofread them'), 'both deleted, the record left');
  assert.equal(stored(term, 2), null);
  assert.equal(stored(term, 4), null);
  assert.deepEqual(stored(term, 3), { parent: null, children: [] }, 'a record of elsewhere stays');
  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the end');
});

/** The numbers of the records `binder admin ready` lists for the list: what may start now. */
function ready(term: Terminal): number[] {
  const got = spawnSync(process.execPath, [binder, 'admin', 'ready', 'tasks', '--json', '--store', join(term.root, 'store')], { encoding: 'utf8' });
  assert.equal(got.status, 0, got.stderr);
  return (JSON.parse(got.stdout) as { lists: { records: { id: number }[] }[] }).lists[0]!.records.map((r) => r.id);
}

test('in a real terminal, the list editor turns children first on and off: the parent leaves ready while its child is not done', { skip: hasTmux ? false : why, timeout: 120_000 }, async (t) => {
  const term = await startScreen(t, {
    prepare: async (store) => {
      await store.createList({ template: 'tasks', lang: 'en' }, PERSON);
      await store.add('tasks', { title: 'Ship the release' }, PERSON);
      await store.add('tasks', { title: 'Write the notes', parent: 1 }, PERSON);
    },
  });
  await term.until((s) => s.includes('#1 Ship the release'), 'the board');
  assert.deepEqual(ready(term), [1, 2], 'off: the parent is ready as any record');
  term.keys('E');
  await term.until((s) => s.includes('Editing “Tasks”') && s.includes('Children first: off') && s.includes('c children first on / off'), 'the list editor, children first off');
  term.keys('c');
  await term.until((s) => s.includes('Children first: on'), 'children first on');
  assert.deepEqual(ready(term), [2], 'the parent waits on its child');
  // Enter on its row turns it off again, as on the view's.
  term.keys('Down', 'Down');
  await term.until((s) => s.includes('> Children first: on'), 'the cursor on the row');
  term.keys('Enter');
  await term.until((s) => s.includes('> Children first: off'), 'children first off');
  assert.deepEqual(ready(term), [1, 2]);
  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the end');
});
