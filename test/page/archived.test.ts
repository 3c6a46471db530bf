/**
 * Archived lists on the page, as on the screen: `X` archives the open list and offers it back
 * (`u` restores it); `A` shows the archived lists, marked so; one opened shows its records and
 * is restored with `X` (not offered back, as the screen does not); with every list archived, the
 * page says so and that `A` shows them, never "no list yet". axe finds nothing serious.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, eventually, serve, shot, signedIn } from './kit.js';

test('archive a list and take it back with u; see the archived lists with A and restore one', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('create-list', 'Roadmap', '--template', 'roadmap');
  server.admin('add', 'Roadmap', 'Ship the page');
  const page = await signedIn(t, server);
  const nav = page.getByRole('navigation', { name: 'Lists' });
  await nav.getByRole('button', { name: /Batches/ }).waitFor();
  const message = page.locator('.message');

  await page.keyboard.press('Escape');
  await page.keyboard.press('X');
  await message.getByText('Archived the list “Batches” · u undoes it').waitFor();
  await nav.getByRole('button', { name: /Batches/ }).waitFor({ state: 'detached' });
  assert.match(server.admin('lists', '--archived').out, /batches: Batches, 0 records; archived/);
  await shot(page, '20-list-archived-undo');
  await axe(page, 'a list archived, offered back');

  await page.keyboard.press('u');
  await message.getByText('Undone: Archived the list “Batches”').waitFor();
  await nav.getByRole('button', { name: /Batches/ }).waitFor();
  assert.doesNotMatch(server.admin('lists').out, /archived/, 'restored in the store');

  // The open list now is Roadmap: archived with X, then shown among the archived lists with A.
  await page.keyboard.press('Escape');
  await page.keyboard.press('X');
  await message.getByText(/Archived the list “Roadmap”/).waitFor();
  // As a person would: A once the list has left the lists (the cursor is among them again).
  await nav.getByRole('button', { name: /Roadmap/ }).waitFor({ state: 'detached' });
  // The page then opens the list left and, as the screen does, leaves the cursor among the lists:
  // A means the archived lists before that list opens and after (not its archived records).
  await page.getByRole('heading', { name: /Batches/ }).waitFor();
  await page.keyboard.press('A');
  await page.getByRole('heading', { name: 'Archived lists' }).waitFor();
  const roadmap = nav.getByRole('button', { name: /Roadmap/ });
  assert.match(await roadmap.innerText(), /archived/);
  await roadmap.click();
  await page.locator('.card', { hasText: 'Ship the page' }).waitFor();
  await page.getByRole('heading', { name: /Roadmap.*archived/ }).waitFor();
  await shot(page, '21-archived-lists');
  await axe(page, 'the archived lists, one opened');

  await page.keyboard.press('Escape');
  await page.keyboard.press('X');
  await message.getByText('Restored the list “Roadmap”').waitFor();
  assert.doesNotMatch(await message.innerText(), /undoes/, 'a restore is not offered back');
  assert.doesNotMatch(server.admin('lists').out, /archived/);

  // Every list archived: said so, and how to see them.
  server.admin('archive-list', 'batches');
  server.admin('archive-list', 'roadmap');
  await page.keyboard.press('A');
  await page.getByRole('heading', { name: 'Lists', exact: true }).waitFor();
  await page.getByText('Every list is archived (2): A shows them.').first().waitFor();
  assert.equal(await page.getByText('No list yet.').count(), 0);
  await page.getByRole('button', { name: 'archived lists' }).click();
  await eventually(async () => (await nav.getByRole('button', { name: /Roadmap|Batches/ }).count()) === 2, 10_000, 'both archived lists shown');
});
