/**
 * What the page showed is what a key approves: `>` past the gate on the card under the cursor
 * sends the mark of the title, fields and state the page showed, so an agent's change that the
 * page has not drawn yet is refused, and nothing moves. The page's reads of the list are held
 * while the agent changes the record, so the key is pressed on the frame from before the change.
 * Chromium against a real `binder serve --http`, the agent asking with the real `binder`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Route } from 'playwright-core';
import { eventually, serve, signedIn } from './kit.js';

test('`>` past the gate on a card an agent retitled since the page drew it is refused: nothing approved, nothing moved', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  assert.equal(server.admin('create-list', 'Batches', '--template', 'batches').code, 0);
  assert.equal(server.admin('grant', 'batches', 'Claude', 'write').code, 0);
  const added = server.agent('add', 'Batches', 'Tidy the logs');
  assert.equal(added.code, 0, added.err);
  const id = /#(\d+)/.exec(added.out)![1]!;
  const page = await signedIn(t, server);
  const record = () => (JSON.parse(server.admin('--json', 'get', id).out) as { record: { title: string; state: string; approved: unknown } }).record;
  await page.locator('.card.cursor', { hasText: 'Tidy the logs' }).waitFor();

  // The list's reads wait: the page keeps the frame it drew while the agent rewrites the record.
  // A read of the list carries its query (`show?list=…`), which the pattern must allow (`show*`):
  // else nothing is held and the key races the redraw. The key is pressed once the page has asked
  // for the list again, so that it knows of the change and still shows the frame from before it.
  const held: Route[] = [];
  const hold = (route: Route) => void held.push(route);
  await page.route('**/page/api/show*', hold);
  const edited = server.agent('edit', id, '--title', 'Delete the logs');
  assert.equal(edited.code, 0, edited.err);
  await eventually(() => held.length > 0, 10_000, 'the page to ask for the list again');
  await page.keyboard.press('>');
  await page.locator('.message').getByText(new RegExp(`#${id} changed since you looked`)).waitFor();
  assert.equal(record().state, 'proposed', 'nothing moved');
  assert.equal(record().approved, null, 'nothing approved');

  // The page draws what the record says now; `>` then approves that.
  await page.unroute('**/page/api/show*', hold);
  for (const route of held.splice(0)) await route.fallback();
  await page.locator('.card.cursor', { hasText: 'Delete the logs' }).waitFor();
  await page.keyboard.press('>');
  await eventually(() => record().state === 'approved', 10_000, 'moved into the gate');
  assert.notEqual(record().approved, null);
});
