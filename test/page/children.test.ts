/**
 * Records under records on the page: a record's panel names its parent as a link (`#/record/N`)
 * and lists its children with their states and how many are done, each opened by a click; the
 * edit form sets the parent (a loop refused with the store's sentence, the form kept; emptied,
 * under none); deleting a parent asks what becomes of its children: nothing deleted, left under
 * nothing, or deleted with it; the list's editor turns children first on and off. Chromium
 * against a real `binder serve --http`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, eventually, serve, signedIn, type Server } from './kit.js';

/** The record as the store has it (null once it is gone): its parent's number and its children's. */
function stored(server: Server, id: number): { parent: number | null; children: number[] } | null {
  const got = server.admin('--json', 'get', String(id));
  if (got.code !== 0) return null;
  const view = JSON.parse(got.out) as { parent?: { id: number }; children?: { id: number }[] };
  return { parent: view.parent?.id ?? null, children: (view.children ?? []).map((c) => c.id) };
}

test('a record\'s panel shows its parent and children, the edit form sets the parent, and deleting a parent asks what becomes of its children', { timeout: 150_000 }, async (t) => {
  const server = await serve(t);
  assert.equal(server.admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  assert.equal(server.admin('add', 'Tasks', 'Ship the release').code, 0);
  assert.equal(server.admin('add', 'Tasks', 'Write the notes', '--state', 'Doing', '--parent', '1').code, 0);
  assert.equal(server.admin('add', 'Tasks', 'Tag the build', '--state', 'Done', '--parent', '1').code, 0);
  assert.equal(server.admin('add', 'Tasks', 'Proofread them', '--parent', '2').code, 0);
  const page = await signedIn(t, server);
  const message = page.locator('.message');
  const panel = page.locator('article.record');

  await page.locator('.card', { hasText: 'Ship the release' }).click();
  await page.getByRole('heading', { name: '#1 Ship the release' }).waitFor();
  const children = panel.locator('section', { has: page.getByRole('heading', { name: 'Under it (1 of 2 done)' }) });
  await children.locator('li', { hasText: '#2 Write the notes' }).getByText('· Doing').waitFor();
  await children.locator('li', { hasText: '#3 Tag the build' }).getByText('· Done').waitFor();
  await axe(page, 'a record with records under it');

  // A child opened by a click: it names its parent as a link to it, and its own child.
  await children.getByRole('link', { name: '#2 Write the notes' }).click();
  await page.getByRole('heading', { name: '#2 Write the notes' }).waitFor();
  const up = panel.getByRole('link', { name: '#1 Ship the release' });
  assert.equal(await up.getAttribute('href'), '#/record/1');
  await panel.getByRole('heading', { name: 'Under it (0 of 1 done)' }).waitFor();

  // The edit form holds the parent: under its own child is refused with the store's sentence, the form kept.
  await page.keyboard.press('e');
  const form = page.getByRole('dialog');
  const under = form.getByLabel('Under', { exact: true });
  await eventually(async () => (await under.inputValue()) === '1', 10_000, 'the form to hold the parent');
  await under.fill('4');
  await under.press('Enter');
  await message.getByText(/#2 cannot go under #4/).waitFor();
  assert.ok(await form.isVisible(), 'the form stays open');
  assert.equal(stored(server, 2)?.parent, 1, 'nothing changed');
  // Emptied, it lies under nothing.
  await under.fill('');
  await under.press('Enter');
  await form.waitFor({ state: 'detached' });
  await up.waitFor({ state: 'detached' });
  assert.equal(stored(server, 2)?.parent, null);
  // Back under #1, typed as #1; its link opens it.
  await page.keyboard.press('e');
  await eventually(async () => (await form.isVisible()) && (await under.inputValue()) === '', 10_000, 'the form, no parent in it');
  await under.fill('#1');
  await under.press('Enter');
  await up.waitFor();
  assert.equal(stored(server, 2)?.parent, 1);
  await up.click();
  await page.getByRole('heading', { name: '#1 Ship the release' }).waitFor();

  // Deleting a parent asks what becomes of its children; Enter alone deletes nothing.
  await page.keyboard.press('D');
  const question = page.getByRole('dialog');
  await question.getByText(/Records lie under it \(#2, #3\): what becomes of them\?/).waitFor();
  await axe(page, 'deleting a record with records under it');
  await page.keyboard.press('Enter');
  await question.waitFor({ state: 'detached' });
  assert.deepEqual(stored(server, 1)?.children, [2, 3], 'nothing deleted');
  // Deleted alone: its children stay, under nothing.
  await page.getByRole('button', { name: /^Delete a record/ }).click();
  await question.getByRole('button', { name: /^Delete it alone/ }).click();
  await message.getByText('Deleted #1 for good').waitFor();
  await page.getByRole('heading', { name: '#1 Ship the release' }).waitFor({ state: 'detached' });
  assert.equal(stored(server, 1), null);
  assert.deepEqual(stored(server, 2), { parent: null, children: [4] }, 'its child stays, under nothing, with its own');

  // Deleted with what lies under it.
  await page.locator('.card', { hasText: 'Write the notes' }).click();
  await page.getByRole('heading', { name: '#2 Write the notes' }).waitFor();
  await page.keyboard.press('D');
  await question.getByText(/Records lie under it \(#4\)/).waitFor();
  await question.getByRole('button', { name: /^Delete them too/ }).click();
  await message.getByText('Deleted #2 and #4 under it for good').waitFor();
  assert.equal(stored(server, 2), null);
  assert.equal(stored(server, 4), null);
  assert.deepEqual(stored(server, 3), { parent: null, children: [] }, 'a record of elsewhere stays');
});

test('the list\'s editor turns children first on, by its box and by c: the parent leaves ready while its child is not done', { timeout: 150_000 }, async (t) => {
  const server = await serve(t);
  assert.equal(server.admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  assert.equal(server.admin('add', 'Tasks', 'Ship the release').code, 0);
  assert.equal(server.admin('add', 'Tasks', 'Write the notes', '--parent', '1').code, 0);
  const ready = (): number[] => {
    const got = server.admin('--json', 'ready', 'Tasks');
    assert.equal(got.code, 0, got.err);
    return (JSON.parse(got.out) as { lists: { records: { id: number }[] }[] }).lists[0]!.records.map((r) => r.id);
  };
  assert.deepEqual(ready(), [1, 2], 'off: the parent is ready as any record');
  const page = await signedIn(t, server);
  await page.locator('.card', { hasText: 'Ship the release' }).waitFor();
  await page.keyboard.press('E');
  await page.getByRole('heading', { name: 'Editing “Tasks”' }).waitFor();
  const box = page.getByRole('checkbox', { name: 'Children first' });
  assert.equal(await box.isChecked(), false);
  assert.match(await page.locator('#editor-children-hint').innerText(), /a parent is ready only once its children are done/);
  await axe(page, 'the list\'s editor with children first');

  await box.click();
  await eventually(() => ready().length === 1, 5000, 'the parent to leave ready');
  assert.deepEqual(ready(), [2]);
  await eventually(async () => box.isChecked(), 5000, 'the box to say so');
  assert.match(server.admin('ready', 'Tasks', '--blocked').out, /#1 Ship the release waits on its children #2/);

  // By its key, once the box no longer holds the focus (a box takes keys as every field): c turns it off again.
  await page.getByRole('heading', { name: 'Editing “Tasks”' }).click();
  await page.keyboard.press('c');
  await eventually(() => ready().length === 2, 5000, 'the parent ready again');
  await eventually(async () => !(await box.isChecked()), 5000, 'the box unchecked');
});
