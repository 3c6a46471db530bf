/**
 * The record open is in the address (`#/record/N`) however it was opened — a card, a search's
 * match, what changed — so that back and forward go between the records opened, and an address
 * copied opens the same record in another tab.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, signedIn } from './kit.js';

test('a record opened from search or what changed is in the address; back, forward and a copied address open it', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('grant', 'batches', 'Claude', 'write');
  assert.equal(server.agent('add', 'Batches', 'Paint the fence').code, 0);
  assert.equal(server.agent('add', 'Batches', 'Fix the gate').code, 0);
  const page = await signedIn(t, server);
  await page.locator('.card', { hasText: 'Fix the gate' }).waitFor();
  const heading = (name: string) => page.locator('.panel').getByRole('heading', { name, exact: true });

  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('searchbox').fill('gate');
  await page.locator('.hits').getByRole('button', { name: /Fix the gate/ }).click();
  await heading('#2 Fix the gate').waitFor();
  assert.match(page.url(), /#\/record\/2$/, 'a search\'s match opened is in the address');

  await page.getByRole('button', { name: 'What changed' }).click();
  await page.locator('.brief').getByRole('button', { name: /Paint the fence/ }).first().click();
  await heading('#1 Paint the fence').waitFor();
  assert.match(page.url(), /#\/record\/1$/, 'a change opened is in the address');

  await page.locator('.card', { hasText: 'Fix the gate' }).click();
  await heading('#2 Fix the gate').waitFor();
  assert.match(page.url(), /#\/record\/2$/, 'a card opened is in the address');

  await page.goBack();
  await heading('#1 Paint the fence').waitFor();
  await page.goBack();
  await page.locator('.panel').waitFor({ state: 'detached' });
  assert.doesNotMatch(page.url(), /#\/record/);
  await page.goBack();
  await heading('#2 Fix the gate').waitFor();
  await page.goForward();
  await page.locator('.panel').waitFor({ state: 'detached' });
  await page.goForward();
  await heading('#1 Paint the fence').waitFor();

  const other = await page.context().newPage();
  await other.goto(page.url());
  await other.locator('.panel').getByRole('heading', { name: '#1 Paint the fence', exact: true }).waitFor();
  await page.keyboard.press('Escape');
  await page.locator('.panel').waitFor({ state: 'detached' });
  assert.doesNotMatch(page.url(), /#\/record/, 'a record closed leaves the address');
});
