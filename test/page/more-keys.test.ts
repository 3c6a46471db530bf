/**
 * The rest of the screen's keys on the page: a question answered with `y` or `n`; what changed
 * gone over with j and opened with Enter, and `b` again for what changed since; agents' access
 * given with l and taken with h; `n` among the folders; the list's editor by its keys (a gate,
 * a state moved, a field removed after a question, the view); the table's columns as the
 * screen's; and `?` listing them. axe finds nothing serious on each view.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, eventually, serve, shot, signedIn } from './kit.js';

test('y and n answer a question; what changed by keys, and b again; h and l give access', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('grant', 'batches', 'Claude', 'write');
  assert.equal(server.agent('add', 'Batches', 'Made by the agent').code, 0);
  server.admin('add', 'Batches', 'Mine to delete');
  const page = await signedIn(t, server);
  const message = page.locator('.message');
  const card = (title: string) => page.locator('.card', { hasText: title });
  await card('Mine to delete').waitFor();

  await page.keyboard.press('j');
  await page.keyboard.press('D');
  const question = page.getByRole('dialog', { name: 'Confirm' });
  await question.getByText(/Delete #2 “Mine to delete” for good\?/).waitFor();
  await page.keyboard.press('q');
  assert.equal(await question.count(), 1, 'a key that is neither yes nor no answers nothing');
  await page.keyboard.press('n');
  await question.waitFor({ state: 'detached' });
  assert.equal(server.admin('get', '2').code, 0, 'not deleted');
  await page.keyboard.press('D');
  await question.waitFor();
  await page.keyboard.press('y');
  await message.getByText('Deleted #2 for good').waitFor();
  await card('Mine to delete').waitFor({ state: 'detached' });
  assert.equal(server.admin('get', '2').code, 1);

  await page.keyboard.press('b');
  const brief = page.locator('.panel');
  await brief.getByText(/#1 Made by the agent/).waitFor();
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: '#1 Made by the agent' }).waitFor();
  // Read is not seen: b again shows it still, until the person marks all seen.
  await page.keyboard.press('b');
  await brief.getByText(/#1 Made by the agent/).waitFor();
  await brief.getByRole('button', { name: 'mark all seen' }).click();
  await brief.getByText('Nothing changed since you last looked.').waitFor();
  assert.equal(server.agent('note', '1', 'a new word').code, 0);
  await page.keyboard.press('b');
  await brief.getByText(/note by Claude: a new word/).waitFor();
  await axe(page, 'what changed since');
  await page.keyboard.press('Escape');

  await page.keyboard.press('p');
  await page.getByRole('heading', { name: 'Agents\' access to “Batches”' }).waitFor();
  await page.getByRole('radio', { name: 'Claude: write', checked: true }).waitFor();
  await page.keyboard.press('h');
  await message.getByText('Claude may now read “Batches”').waitFor();
  await page.keyboard.press('h');
  await message.getByText('Claude has no access to “Batches” now').waitFor();
  await page.keyboard.press('l');
  await message.getByText('Claude may now read “Batches”').waitFor();
  assert.match(server.admin('show', 'Batches', '--json').out, /"agent:claude":"read"/);
  await shot(page, '26-access-by-keys');
  await axe(page, 'agents\' access by keys');
  await page.keyboard.press('Escape');

  await page.keyboard.press('S');
  await page.getByRole('heading', { name: 'Agent folders' }).waitFor();
  // The folder is the keeper's own OS user's: the person is told, with the fix.
  await page.getByRole('note').getByText('Claude runs as you: it can act as you unless it runs in binder sandbox -- COMMAND or its tool\'s sandbox.').waitFor();
  await page.keyboard.press('n');
  await page.getByRole('dialog', { name: 'Add an agent folder' }).waitFor();
  await page.keyboard.press('Escape');
});

test('the list\'s editor by its keys; the table\'s columns; ? lists the page\'s keys', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('edit-list', 'batches', '--add-field', 'size:text');
  server.admin('add', 'Batches', 'First', '--owner', 'me', '--due', '2020-01-01');
  const page = await signedIn(t, server);
  const message = page.locator('.message');
  const states = () => JSON.parse(server.admin('show', 'Batches', '--json').out).list.states.map((s: { name: string; gate: boolean }) => `${s.name}${s.gate ? '*' : ''}`).join(' ');
  await page.locator('.card', { hasText: 'First' }).waitFor();
  assert.match(await page.locator('.card', { hasText: 'First' }).innerText(), /Ann[\s\S]*! 2020-01-01/, 'owners, and overdue said by a mark');

  await page.keyboard.press('E');
  await page.getByRole('heading', { name: 'Editing “Batches”' }).waitFor();
  for (let i = 0; i < 5; i++) await page.keyboard.press('j'); // title, view, children first, Proposed, Approved, Doing
  await page.keyboard.press('g');
  await message.getByText(/A list has one gate/).waitFor();
  assert.equal(states(), 'Proposed Approved* Doing Done', 'a second gate refused');
  await page.keyboard.press('k');
  await page.keyboard.press('g');
  await message.getByText('Changed the list “Batches”').waitFor();
  await eventually(() => states() === 'Proposed Approved Doing Done', 5000, 'Approved no longer a gate');
  await page.keyboard.press('j');
  await page.keyboard.press('g');
  await eventually(() => states() === 'Proposed Approved Doing* Done', 5000, 'Doing the gate');
  await page.keyboard.press('<');
  await eventually(() => states() === 'Proposed Doing* Approved Done', 5000, 'Doing earlier');
  await page.keyboard.press('>');
  await eventually(() => states() === 'Proposed Approved Doing* Done', 5000, 'Doing back later, the cursor with it');
  await page.keyboard.press('End');
  await page.keyboard.press('D');
  const question = page.getByRole('dialog', { name: 'Confirm' });
  await question.getByText('Remove the field “size” and every record\'s value of it?').waitFor();
  await axe(page, 'removing a field, asked');
  await page.keyboard.press('y');
  await eventually(() => !server.admin('show', 'Batches', '--json').out.includes('"size"'), 5000, 'the field removed');
  await page.keyboard.press('v');
  await page.locator('table.table').waitFor();
  const heads = await page.locator('table.table th').allInnerTexts();
  for (const head of ['Title', 'State', 'Owners', 'Due', 'Attached', 'Approved', 'Claim', 'Waits on']) assert.ok(heads.includes(head), `${head} in ${heads.join(', ')}`);
  await shot(page, '27-editor-by-keys-table');
  await axe(page, 'the editor and the table');
  await page.keyboard.press('Escape');

  await page.keyboard.press('?');
  const help = page.locator('.panel');
  await help.getByRole('heading', { name: 'Keys' }).waitFor();
  const text = await help.innerText();
  for (const said of ['undo the last change', 'filter by words', 'only one state', 'only mine', 'archived lists', 'edit my note', 'detach', 'more access', 'remove the folder', 'gate on / off']) {
    assert.ok(text.toLowerCase().includes(said), `help says ${said}`);
  }
  for (const unsaid of ['suspend', 'quit', 'half a page', 'login link', 'switch pane']) assert.ok(!text.toLowerCase().includes(unsaid), `help leaves out ${unsaid}`);
  await axe(page, 'the keys');
});
