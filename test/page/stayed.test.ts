/**
 * On the page, a move that moves nothing says so: the state the record already stands in, picked
 * with `m`, is "already in …: nothing moved", never "Moved". Chromium against a real
 * `binder serve --http`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, signedIn } from './kit.js';

test('m to the state the record stands in says nothing moved, and the history has no move', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  assert.equal(server.admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  assert.equal(server.admin('add', 'Tasks', 'Stay here').code, 0);
  const page = await signedIn(t, server);
  const message = page.locator('.message');
  await page.locator('.card.cursor', { hasText: 'Stay here' }).waitFor();
  await page.keyboard.press('m');
  await page.getByRole('dialog').getByRole('button', { name: 'To do' }).click();
  await message.getByText('#1 is already in To do: nothing moved').waitFor();
  assert.doesNotMatch(await message.innerText(), /Moved/);
  const history = (JSON.parse(server.admin('--json', 'get', '1').out) as { history: { op: string }[] }).history;
  assert.ok(history.length > 0 && !history.some((h) => h.op === 'move'), 'no move in the history');
});
