/**
 * The screen's filters on the page: `s` one state (picked with j k and Enter), `M` only mine,
 * `f` only the records holding some words (the store's search kept to the list), said in the
 * list's head and cleared; and in search, `s`, `M` and `A` as the screen's search has them.
 * axe finds nothing serious on the filtered list and the filter dialogs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, eventually, focusHolds, serve, shot, signedIn } from './kit.js';

test('one state, only mine, by words, and every record again', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('grant', 'batches', 'Claude', 'write');
  assert.equal(server.admin('add', 'Batches', 'Alpha report', '--owner', 'me').code, 0);
  assert.equal(server.agent('add', 'Batches', 'Beta report').code, 0);
  assert.equal(server.admin('add', 'Batches', 'Gamma task', '--state', 'Doing').code, 0);
  const page = await signedIn(t, server);
  const card = (title: string) => page.locator('.card', { hasText: title });
  const shown = async () => (await page.locator('.card .title').allInnerTexts()).sort();
  await card('Gamma task').waitFor();

  await page.keyboard.press('s');
  const pick = page.getByRole('dialog', { name: 'Show which state?' });
  await pick.waitFor();
  await axe(page, 'one state, picked');
  for (let i = 0; i < 3; i++) await page.keyboard.press('j');
  await focusHolds(page, /^Doing$/);
  await page.keyboard.press('Enter');
  await page.getByText('Shown: state Doing.').waitFor();
  assert.equal(await page.locator('.column').count(), 1, 'the state alone');
  assert.deepEqual(await shown(), ['Gamma task']);

  await page.getByRole('button', { name: 'Show every record' }).click();
  await eventually(async () => (await page.locator('.column').count()) === 4, 10_000, 'every state again');

  await page.keyboard.press('M');
  await page.getByText('Shown: mine.').waitFor();
  await eventually(async () => JSON.stringify(await shown()) === '["Alpha report"]', 10_000, 'only Ann\'s record');
  await page.keyboard.press('M');
  await eventually(async () => (await shown()).length === 3, 10_000, 'every record again');

  await page.keyboard.press('f');
  await page.getByRole('dialog', { name: 'Filter the list' }).waitFor();
  await axe(page, 'the filter by words');
  await page.getByLabel('Words').fill('report');
  await page.keyboard.press('Enter');
  await page.getByText('Shown: words “report”.').waitFor();
  await eventually(async () => JSON.stringify(await shown()) === '["Alpha report","Beta report"]', 10_000, 'the two reports');
  await page.keyboard.press('M');
  await page.getByText('Shown: mine · words “report”.').waitFor();
  await eventually(async () => JSON.stringify(await shown()) === '["Alpha report"]', 10_000, 'Ann\'s report');
  await shot(page, '22-filtered');
  await axe(page, 'the list filtered');
  await page.getByLabel('Language').selectOption('fr');
  await page.getByText('Affichées : les miennes · mots « report ».').waitFor();
  await page.getByRole('button', { name: 'Voir toutes les fiches' }).waitFor();
  await page.getByRole('button', { name: 'un seul état' }).waitFor();
  await shot(page, '22-filtered-fr');
  await axe(page, 'the list filtered, in French');
  await page.getByLabel('Langue').selectOption('en');
  await page.getByText('Shown: mine · words “report”.').waitFor();

  // An agent's record that comes to hold the words shows at once.
  assert.equal(server.admin('edit', '3', '--title', 'Gamma report', '--owner', 'me').code, 0);
  await eventually(async () => JSON.stringify(await shown()) === '["Alpha report","Gamma report"]', 10_000, 'the change seen live');

  await page.keyboard.press('f');
  await page.getByLabel('Words').fill('');
  await page.keyboard.press('Enter');
  await page.keyboard.press('M');
  await eventually(async () => (await shown()).length === 3, 10_000, 'every record again');
  assert.equal(await page.locator('.filters').count(), 0, 'no filter said');
});

test('search: one state, only mine, the archived ones', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('grant', 'batches', 'Claude', 'write');
  server.admin('add', 'Batches', 'Alpha report', '--owner', 'me');
  server.agent('add', 'Batches', 'Beta report');
  server.admin('add', 'Batches', 'Gamma report', '--state', 'Doing');
  server.admin('add', 'Batches', 'Delta report');
  server.admin('archive', '4');
  const page = await signedIn(t, server);
  await page.locator('.card').first().waitFor();
  await page.keyboard.press('/');
  await page.getByRole('searchbox').fill('report');
  await page.getByText('3 matches').waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('M');
  await page.getByText('1 match').waitFor();
  assert.match(await page.locator('.hits').innerText(), /Alpha report/);
  await page.keyboard.press('M');
  await page.getByText('3 matches').waitFor();
  await page.keyboard.press('A');
  await page.getByText('4 matches').waitFor();
  assert.match(await page.locator('.hits').innerText(), /Delta report.*archived/);
  await page.keyboard.press('s');
  await page.getByRole('dialog', { name: 'Show which state?' }).getByRole('button', { name: 'Doing' }).click();
  await page.getByText('1 match').waitFor();
  assert.match(await page.locator('.hits').innerText(), /Gamma report/);
  await shot(page, '23-search-filtered');
  await axe(page, 'search, filtered');
  // The list's own buttons, with the search in front, filter the list, not the search.
  await page.locator('.list-head').getByRole('button', { name: 'only mine' }).click();
  await page.locator('main').getByText('Shown: mine.').waitFor();
  await page.locator('.list-head').getByRole('button', { name: 'only one state' }).click();
  await page.getByRole('dialog', { name: 'Show which state?' }).getByRole('button', { name: 'Proposed' }).click();
  await page.locator('main').getByText('Shown: state Proposed · mine.').waitFor();
  assert.match(await page.locator('.panel .filters').innerText(), /Shown: state Doing · archived\./, 'the search\'s filters as they were');
  await page.locator('.panel .hits li').first().focus();
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: /#3 Gamma report/ }).waitFor();
});
