/**
 * A person's afternoon on the web page, in Chromium against a real `binder serve --http`, with an
 * agent asking through its folder with the real `binder`: signed in by a login link, a list made
 * from a template, the agent granted, its record seen without a reload, approved on the page so
 * that the agent's move succeeds, a record deleted with no byte of it left, the list's states
 * edited; axe finds nothing serious on each view, and each view is saved as a screenshot.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { axe, eventually, serve, shot, signedIn } from './kit.js';

const SECRET = 'Zanzibarquux';

function bytesOf(store: string, word: string): string[] {
  return ['binder.db', 'binder.db-wal'].filter((name) => existsSync(join(store, name)) && readFileSync(join(store, name)).includes(Buffer.from(word, 'utf8')));
}

test('sign in, make a list, grant an agent, see its record live, approve it, delete one, edit the states', { timeout: 150_000 }, async (t) => {
  const server = await serve(t);
  const page = await signedIn(t, server);

  await page.getByText('No list yet.').first().waitFor();
  await shot(page, '01-empty');
  await axe(page, 'the empty binder');

  await page.getByRole('button', { name: 'New list' }).click();
  await page.getByRole('radio', { name: /Batches/ }).check();
  await shot(page, '02-new-list');
  await axe(page, 'a new list');
  await page.getByRole('button', { name: 'Make a list' }).click();
  await page.getByRole('heading', { name: /^Batches/ }).waitFor();

  await page.getByRole('button', { name: 'agents\' access' }).click();
  await page.getByRole('radio', { name: 'Claude: write' }).click();
  await page.getByText('Claude may now read and change “Batches”').waitFor();
  await shot(page, '03-agents-access');
  await axe(page, 'agents\' access');
  assert.match(server.admin('show', 'Batches', '--json').out, /"agent:claude":"write"/);

  const added = server.agent('add', 'Batches', 'Made by the agent');
  assert.equal(added.code, 0, added.err);
  const seenFrom = Date.now();
  await page.locator('.card', { hasText: 'Made by the agent' }).waitFor({ timeout: 10_000 });
  t.diagnostic(`the agent's record was on the page ${Date.now() - seenFrom} ms after its answer`);
  await shot(page, '04-board');
  await axe(page, 'the board');

  const refused = server.agent('move', '1', 'Doing');
  assert.equal(refused.code, 1, 'not approved yet');
  await page.locator('.card', { hasText: 'Made by the agent' }).click();
  await page.getByRole('button', { name: /^Approve/ }).click();
  await page.getByText(/approved by Ann/).waitFor();
  await shot(page, '05-record');
  await axe(page, 'a record');
  const moved = server.agent('move', '1', 'Doing');
  assert.equal(moved.code, 0, moved.err);
  await page.locator('[data-state="doing"] .card', { hasText: 'Made by the agent' }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Escape');

  // A record of the person's, made with the screen's key n, then deleted with a confirmation.
  await page.keyboard.press('n');
  await page.getByLabel('Title').fill(`Secret ${SECRET} plan`);
  await page.getByLabel('Note').fill(`the ${SECRET} detail`);
  await shot(page, '06-new-record');
  await axe(page, 'the new record form');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const secret = page.locator('.card', { hasText: SECRET });
  await secret.waitFor();
  assert.deepEqual(bytesOf(server.store, SECRET).length > 0 || server.admin('search', SECRET).out.includes(SECRET), true);
  await secret.click();
  await page.getByRole('button', { name: /^Delete a record/ }).click();
  await page.getByText(/for good\? Its 1 note/).waitFor();
  await shot(page, '07-delete-confirm');
  await axe(page, 'the delete confirmation');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete a record' }).click();
  await secret.waitFor({ state: 'detached' });
  await page.getByText(/Deleted #2 for good/).waitFor();
  assert.deepEqual(bytesOf(server.store, SECRET), [], 'no byte of the deleted record in binder.db nor its log');

  // The list's states, edited.
  await page.getByRole('button', { name: 'edit the list' }).click();
  await page.getByLabel('New state').fill('Review');
  await page.getByRole('button', { name: 'add a state' }).click();
  await page.locator('[data-state="review"]').waitFor();
  // A list has one gate: Review's is refused while Approved's stands, then taken when it is moved.
  await page.locator('.states li', { hasText: 'Review' }).getByRole('checkbox', { name: 'gate' }).click();
  await page.getByText(/A list has one gate/).first().waitFor();
  await page.locator('.states li', { hasText: 'Approved' }).getByRole('checkbox', { name: 'gate' }).click();
  await page.getByText('Changed the list “Batches”').first().waitFor();
  await page.locator('.states li', { hasText: 'Review' }).getByRole('checkbox', { name: 'gate' }).click();
  await eventually(() => /Review \(gate\)/.test(server.admin('show', 'Batches').out) || /"name":"Review","gate":true/.test(server.admin('--json', 'show', 'Batches').out), 5000, 'Review to be a gate');
  await shot(page, '08-list-editor');
  await axe(page, 'the list\'s editor');
  await page.getByRole('radio', { name: 'table' }).click();
  await page.locator('table.table').waitFor();
  await shot(page, '09-table');
  await axe(page, 'the table');
});
