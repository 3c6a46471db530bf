/**
 * A list in table view sorts by a click (or Enter or Space) on a column's header: its number,
 * title, state, owners, due date and each field; `aria-sort` says which and which way, a second
 * press reverses it, the order holds while an agent adds records, and the keys (j k, the arrows)
 * go over the rows in the order shown, the selection held by its record. The sort itself, without
 * a browser: a choice field in its choices' order, empty values last either way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { List, RecordSummary } from '../../src/store/index.js';
import { sortedRows } from '../../src/page/table-sort.js';
import { START, pageReducer } from '../../src/page/page-state.js';
import { axe, focusHolds, serve, signedIn, agentAdds } from './kit.js';

const LIST = {
  id: 'tasks', title: 'Tasks', view: 'table', archived: false,
  states: [{ id: 'todo', name: 'To do' }, { id: 'doing', name: 'Doing' }, { id: 'done', name: 'Done' }],
  fields: [{ id: 'priority', name: 'Priority', type: 'choice', choices: ['High', 'Normal', 'Low'] }, { id: 'size', name: 'Size', type: 'number' }],
} as unknown as List;
const rec = (id: number, title: string, state: string, fields: Record<string, string> = {}, due: string | null = null) =>
  ({ id, title, state, fields, due, owners: [], approved: null, archived: false, attached: 0, notes: 0, list: 'tasks', created: '', updated: '' }) as RecordSummary;

test('rows sort by each column, a choice in its choices\' order, a number as a number, empty values last', () => {
  const rows = [rec(1, 'beta', 'done', { priority: 'Low', size: '10' }), rec(2, 'Alpha', 'todo', { size: '9' }, '2026-12-01'), rec(3, 'gamma', 'doing', { priority: 'High' }, '2026-11-01')];
  const ids = (key: Parameters<typeof sortedRows>[1]) => sortedRows(rows, key, LIST, (id) => id, 'en').map((r) => r.id);
  assert.deepEqual(ids(null), [1, 2, 3], 'as given when no header was pressed');
  assert.deepEqual(ids({ key: 'title', descending: false }), [2, 1, 3], 'titles without regard to case');
  assert.deepEqual(ids({ key: 'number', descending: true }), [3, 2, 1]);
  assert.deepEqual(ids({ key: 'state', descending: false }), [2, 3, 1], 'in the list\'s order of states');
  assert.deepEqual(ids({ key: 'field:priority', descending: false }), [3, 1, 2], 'High before Low, the empty one last');
  assert.deepEqual(ids({ key: 'field:priority', descending: true }), [1, 3, 2], 'the empty one last the other way too');
  assert.deepEqual(ids({ key: 'field:size', descending: false }), [2, 1, 3], '9 before 10');
  assert.deepEqual(ids({ key: 'due', descending: false }), [3, 2, 1]);
  let s = pageReducer(pageReducer(START, { type: 'open-list', list: 'tasks' }), { type: 'sort', key: 'title' });
  assert.deepEqual(s.sort, { key: 'title', descending: false });
  s = pageReducer(s, { type: 'sort', key: 'title' });
  assert.deepEqual(s.sort, { key: 'title', descending: true }, 'a second press reverses');
  s = pageReducer(s, { type: 'sort', key: 'due' });
  assert.deepEqual(s.sort, { key: 'due', descending: false });
  assert.equal(pageReducer(s, { type: 'open-list', list: 'other' }).sort, null, 'another list opens in its own order');
});

/** The titles of the table's rows, top to bottom. */
const titles = (page: Page) => page.locator('tbody .card .title').allInnerTexts();
const sortOf = (page: Page, name: string) => page.getByRole('columnheader', { name }).getAttribute('aria-sort');

test('a table sorts by a press on a header, keeps its order through an agent\'s adds, and the keys follow the order shown', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  assert.equal(server.admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  assert.equal(server.admin('edit-list', 'Tasks', '--view', 'table').code, 0);
  assert.equal(server.admin('grant', 'tasks', 'Claude', 'write').code, 0);
  for (const [title, priority] of [['Mow', 'Low'], ['Bake', 'High'], ['Wash', 'Normal'], ['Clean', 'Low']]) {
    assert.equal(server.admin('add', 'Tasks', title!, '--field', `Priority=${priority}`).code, 0);
  }
  const page = await signedIn(t, server);
  await page.locator('tbody .card').nth(3).waitFor();
  assert.deepEqual(await titles(page), ['Mow', 'Bake', 'Wash', 'Clean'], 'the list\'s own order first');
  for (const name of ['Number', 'Title', 'State', 'Priority', 'Owners', 'Due']) assert.equal(await sortOf(page, name), 'none', `${name} can sort`);

  await page.getByRole('columnheader', { name: 'Title' }).getByRole('button').click();
  await page.waitForFunction(() => document.querySelector('th[aria-sort="ascending"]')?.textContent === 'Title');
  assert.deepEqual(await titles(page), ['Bake', 'Clean', 'Mow', 'Wash']);
  await page.getByRole('columnheader', { name: 'Title' }).getByRole('button').press('Enter');
  await page.waitForFunction(() => document.querySelector('th[aria-sort="descending"]')?.textContent === 'Title');
  assert.deepEqual(await titles(page), ['Wash', 'Mow', 'Clean', 'Bake'], 'a second press reverses');
  assert.equal(await sortOf(page, 'Number'), 'none');

  // The keys go over the rows as they are shown, from the top.
  const cursor = page.locator('tbody .card.cursor .title');
  await page.keyboard.press('Home');
  await cursor.filter({ hasText: 'Wash' }).waitFor();
  await page.keyboard.press('j');
  await cursor.filter({ hasText: 'Mow' }).waitFor();
  await page.keyboard.press('ArrowDown');
  await cursor.filter({ hasText: 'Clean' }).waitFor();
  await focusHolds(page, /Clean/, 'the focus goes with the cursor');

  // An agent adds records: they take their place in the order, and the selection stays on Clean.
  const token = server.admin('token', 'add', 'Claude').out.split('\n')[0]!;
  for (const title of ['Zest', 'Dust', 'Air']) {
    await agentAdds(server, token, 'tasks', title);
    await page.locator('tbody .card', { hasText: title }).waitFor();
  }
  assert.deepEqual(await titles(page), ['Zest', 'Wash', 'Mow', 'Dust', 'Clean', 'Bake', 'Air'], 'the order kept through the reads');
  assert.equal(await sortOf(page, 'Title'), 'descending');
  assert.deepEqual(await cursor.allInnerTexts(), ['Clean'], 'the selection held by its record');
  await page.keyboard.press('k');
  await cursor.filter({ hasText: 'Dust' }).waitFor();

  // Space on a field's header: Priority in its choices' order, the records without one last.
  await page.getByRole('columnheader', { name: 'Priority' }).getByRole('button').press('Space');
  await page.waitForFunction(() => document.querySelector('th[aria-sort="ascending"]')?.textContent === 'Priority');
  assert.equal(await sortOf(page, 'Title'), 'none');
  assert.deepEqual((await titles(page)).slice(0, 4), ['Bake', 'Wash', 'Mow', 'Clean']);
  await axe(page, 'a table sorted');
});
