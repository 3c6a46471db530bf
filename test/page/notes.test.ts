/**
 * A record's parts under its cursor, as on the screen: ↑ ↓ (j k) go over what it needs, what
 * needs it, its notes and its attached things; `E` rewrites the person's own note (its author's
 * alone: another's is refused with the screen's sentence), and Enter opens a record it needs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, serve, shot, signedIn } from './kit.js';

test('E edits my note, never another\'s; Enter opens a record it needs', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('grant', 'batches', 'Claude', 'write');
  server.admin('add', 'Batches', 'Foundations');
  assert.equal(server.agent('add', 'Batches', 'Walls', '--note', 'the agent\'s first word').code, 0);
  assert.equal(server.admin('note', '2', 'Ann says: bricks').code, 0);
  assert.equal(server.admin('needs', '2', '1').code, 0);
  const page = await signedIn(t, server);
  const message = page.locator('.message');
  await page.locator('.card', { hasText: 'Walls' }).click();
  await page.getByRole('heading', { name: '#2 Walls' }).waitFor();
  assert.equal(await page.getByRole('button', { name: /Edit my note/ }).count(), 1, 'only on my note');

  await page.keyboard.press('E');
  await message.getByText('Select a note first (↑ ↓).').waitFor();
  await page.keyboard.press('j'); // #1, which it needs
  await page.keyboard.press('j'); // the agent's note
  await page.keyboard.press('E');
  await message.getByText('Only its author may edit a note: this one is not yours.').waitFor();
  await page.keyboard.press('j'); // Ann's note
  await page.keyboard.press('E');
  const dialog = page.getByRole('dialog', { name: 'Edit the note' });
  await dialog.waitFor();
  assert.equal(await dialog.getByLabel('Text').inputValue(), 'Ann says: bricks');
  await shot(page, '25-edit-note');
  await axe(page, 'my note, rewritten');
  await dialog.getByLabel('Text').fill('Ann says: bricks, and lime mortar');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await message.getByText('Rewrote the note on #2').waitFor();
  await page.locator('.notes', { hasText: 'Ann says: bricks, and lime mortar' }).waitFor();
  await page.locator('.history', { hasText: /note n\d+ rewritten/ }).waitFor();
  assert.match(server.admin('get', '2').out, /Ann says: bricks, and lime mortar/);
  assert.match(server.admin('get', '2').out, /the agent's first word/, 'the agent\'s note as it was');

  for (let i = 0; i < 2; i++) await page.keyboard.press('k');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: '#1 Foundations' }).waitFor();
  await page.locator('.needs', { hasText: '#2 Walls' }).waitFor();
  await axe(page, 'a record needed by another');
});
