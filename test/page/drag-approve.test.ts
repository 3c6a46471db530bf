/**
 * On the page, dragging an unapproved card into the gate is an approval of what the card
 * showed: written in the history as one, and refused as a stale approval is when an agent
 * retitles the record while the person drags it. Chromium against a real `binder serve --http`,
 * the agent asking through its folder with the real `binder`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { eventually, serve, signedIn } from './kit.js';

/** Drags the card titled `title` onto the column of `state`, running `meanwhile` once the drag has begun. */
async function drag(page: Page, title: string, state: string, meanwhile: () => void = () => {}): Promise<void> {
  const card = page.locator('.card', { hasText: title });
  const from = (await card.boundingBox())!;
  const to = (await page.locator(`.column[data-state="${state}"]`).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 4 });
  meanwhile();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height - 20, { steps: 8 });
  await page.mouse.up();
}

test('a drag into the gate records an approval of what the card showed; after an agent\'s retitle mid-drag it is refused and nothing moves', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  assert.equal(server.admin('create-list', 'Batches', '--template', 'batches').code, 0);
  assert.equal(server.admin('grant', 'batches', 'Claude', 'write').code, 0);
  const added = server.agent('add', 'Batches', 'Tidy the logs');
  assert.equal(added.code, 0, added.err);
  const id = /#(\d+)/.exec(added.out)![1]!;
  const other = /#(\d+)/.exec(server.agent('add', 'Batches', 'Sort the mail').out)![1]!;
  const page = await signedIn(t, server);
  const message = page.locator('.message');
  const record = (n: string) => JSON.parse(server.admin('--json', 'get', n).out) as { record: { state: string; approved: { by: { name: string } } | null }; history: { op: string; change: Record<string, unknown> }[] };
  await page.locator('.card', { hasText: 'Tidy the logs' }).waitFor();

  // The agent rewrites the record after the person took hold of its card.
  await drag(page, 'Tidy the logs', 'approved', () => {
    const edited = server.agent('edit', id, '--title', 'Delete the logs');
    assert.equal(edited.code, 0, edited.err);
  });
  await message.getByText(new RegExp(`#${id} changed since you looked`)).waitFor();
  assert.equal(record(id).record.state, 'proposed', 'nothing moved');
  assert.equal(record(id).record.approved, null, 'nothing approved');

  // Dragged as it reads now: an approval, in the history as one.
  await page.locator('.card', { hasText: 'Delete the logs' }).waitFor();
  await drag(page, 'Delete the logs', 'approved');
  await eventually(() => record(id).record.state === 'approved', 10_000, 'the card moved into the gate');
  const now = record(id);
  assert.equal(now.record.approved?.by.name, 'Ann');
  assert.deepEqual(now.history.at(-1)?.change, { from: 'proposed', to: 'approved', approved: true });
  await page.locator('.card', { hasText: 'Delete the logs' }).getByText('approved').waitFor();

  // Past the gate in one drag: the same approval.
  await drag(page, 'Sort the mail', 'doing');
  await eventually(() => record(other).record.state === 'doing', 10_000, 'the card moved past the gate');
  assert.equal(record(other).record.approved?.by.name, 'Ann');
});
