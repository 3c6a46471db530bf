/**
 * The screen's `n` and `#` on the page: `n` in a record's panel picks what it needs (numbers
 * added are needs made, numbers erased needs taken away), shown both ways in the panels;
 * `#` or `:` then a number opens that record from anywhere, and a word typed there is refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, eventually, serve, signedIn } from './kit.js';

test('n makes and takes away needs, shown both ways; # and : open a record by its number', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  assert.equal(server.admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  for (const title of ['Foundations', 'Walls', 'Roof']) assert.equal(server.admin('add', 'Tasks', title).code, 0);
  const page = await signedIn(t, server);
  const message = page.locator('.message');
  const needsOf = (id: number) => (JSON.parse(server.admin('--json', 'get', String(id)).out) as { needs: { id: number }[] }).needs.map((n) => n.id);

  await page.locator('.card', { hasText: 'Roof' }).click();
  await page.getByRole('heading', { name: '#3 Roof' }).waitFor();
  await page.keyboard.press('n');
  const form = page.getByRole('dialog');
  const numbers = form.getByRole('textbox');
  assert.equal(await numbers.inputValue(), '', 'it needs nothing yet');
  await axe(page, 'what a record needs');
  await numbers.fill('1 #2');
  await numbers.press('Enter');
  await form.waitFor({ state: 'detached' });
  await page.locator('.needs', { hasText: '#2 Walls' }).waitFor();
  await page.locator('.needs', { hasText: '#1 Foundations' }).waitFor();
  assert.deepEqual(needsOf(3), [1, 2]);

  // # from the record's panel: another record, which shows what needs it.
  await page.keyboard.press('#');
  await page.getByRole('dialog').getByRole('textbox').fill('#1');
  await page.getByRole('dialog').getByRole('textbox').press('Enter');
  await page.getByRole('heading', { name: '#1 Foundations' }).waitFor();
  await page.locator('section', { hasText: 'Needed by' }).locator('.needs', { hasText: '#3 Roof' }).waitFor();

  // : from the list: back to #3, whose needs shown are the form's start; one erased is taken away.
  await page.keyboard.press('Escape');
  await page.keyboard.press(':');
  await page.getByRole('dialog').getByRole('textbox').fill('3');
  await page.getByRole('dialog').getByRole('textbox').press('Enter');
  await page.getByRole('heading', { name: '#3 Roof' }).waitFor();
  await page.locator('.needs', { hasText: '#1 Foundations' }).waitFor();
  await page.keyboard.press('n');
  assert.equal(await page.getByRole('dialog').getByRole('textbox').inputValue(), '1 2');
  await page.getByRole('dialog').getByRole('textbox').fill('2');
  await page.getByRole('dialog').getByRole('textbox').press('Enter');
  await eventually(() => needsOf(3).join() === '2', 10_000, '#1 no longer needed');
  await page.locator('.needs', { hasText: '#1 Foundations' }).waitFor({ state: 'detached' });

  await page.keyboard.press('#');
  await page.getByRole('dialog').getByRole('textbox').fill('walls');
  await page.getByRole('dialog').getByRole('textbox').press('Enter');
  await message.getByText(/“walls” is not a record's number/).waitFor();
});
