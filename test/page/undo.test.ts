/**
 * Confirm or undo, as the screen chooses per action: archiving a record (`x`), detaching a thing
 * (`T`, on the one under the record's cursor) and removing an agent's folder (`D` among the
 * folders) are done at once and offered back with `u` (or the message line's button); the next
 * change ends the offer. Archiving a list is in archived.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, eventually, serve, shot, signedIn } from './kit.js';

test('x, T and a folder removed are offered back with u; the next change ends the offer', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('add', 'Batches', 'Keep me');
  server.admin('add', 'Batches', 'The other one');
  assert.equal(server.admin('attach', '1', 'link', 'https://example.org/spec', 'the spec').code, 0);
  const page = await signedIn(t, server);
  const message = page.locator('.message');
  const card = (title: string) => page.locator('.card', { hasText: title });
  await card('Keep me').waitFor();

  await page.keyboard.press('x');
  await message.getByText('Archived #1 (x restores it) · u undoes it').waitFor();
  await card('Keep me').waitFor({ state: 'detached' });
  await shot(page, '24-undo-offered');
  await axe(page, 'a record archived, offered back');
  await page.keyboard.press('u');
  await message.getByText('Undone: Archived #1 (x restores it)').waitFor();
  await card('Keep me').waitFor();
  assert.match(server.admin('get', '1', '--json').out, /"archived":false/);

  // Detached from the record opened, the thing under its cursor; given back by the button.
  await card('Keep me').click();
  await page.getByRole('heading', { name: '#1 Keep me' }).waitFor();
  await page.keyboard.press('T');
  await message.getByText('Select an attached thing first (↑ ↓).').waitFor();
  await page.keyboard.press('j');
  await page.keyboard.press('T');
  await message.getByText('Detached from #1 · u undoes it').waitFor();
  await eventually(() => !server.admin('get', '1').out.includes('example.org'), 5000, 'the link detached');
  await page.getByRole('button', { name: /undo the last change/i }).click();
  await message.getByText('Undone: Detached from #1').waitFor();
  await page.locator('.attached', { hasText: 'https://example.org/spec' }).waitFor();
  assert.match(server.admin('get', '1').out, /link https:\/\/example\.org\/spec/);
  await page.keyboard.press('Escape');

  // The next change ends the offer.
  await card('Keep me').click();
  await page.keyboard.press('x');
  await message.getByText('Archived #1 (x restores it) · u undoes it').waitFor();
  await page.keyboard.press('Escape');
  await card('The other one').click();
  await page.keyboard.press('a');
  await message.getByText('Approved #2').waitFor();
  assert.equal(await page.getByRole('button', { name: /undo the last change/i }).count(), 0);
  await page.keyboard.press('u');
  await message.getByText('Nothing to undo now.').waitFor();
  assert.match(server.admin('get', '1', '--json').out, /"archived":true/, 'still archived');
  await page.keyboard.press('Escape');

  // An agent's folder removed, and registered again under its name.
  await page.keyboard.press('S');
  await page.getByRole('heading', { name: 'Agent folders' }).waitFor();
  // D acts on the folder under the cursor: pressed once the folders are shown.
  await page.locator('.panel').getByText(/Claude/).first().waitFor();
  await page.keyboard.press('D');
  await message.getByText(/The keeper no longer reads .* \(Claude\) · u undoes it/).waitFor();
  assert.doesNotMatch(server.admin('sides').out, /Claude/);
  await page.keyboard.press('u');
  await message.getByText(/Undone: The keeper no longer reads/).waitFor();
  assert.match(server.admin('sides').out, /Claude \(agent:claude\)/);
});
