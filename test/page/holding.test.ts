/**
 * The page's selection holds a record, not a place, as the screen's cursor does: an agent adding,
 * archiving and taking records above it (over the keeper's HTTP API, as an agent elsewhere would)
 * moves the rows, never the selection; the record selected leaving puts the selection on its
 * neighbour and the message line says so; a key that changes a record is not done on one that
 * came under the selection a moment before, and asks again. The guard's clock is the browser's,
 * held still by the test (Playwright's clock), so a key is "a moment after" on any machine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Route } from 'playwright-core';
import { eventually, serve, signedIn, type Server } from './kit.js';

/** The agent Claude over the keeper's REST API, with a token the person made. */
function agentOver(server: Server): (op: string, args: Record<string, unknown>) => Promise<{ ok: boolean; data: { id?: number } | null; text: string }> {
  const token = server.admin('token', 'add', 'Claude').out.split('\n')[0]!;
  return async (op, args) => {
    const res = await fetch(`${server.url}/api/${op}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(args) });
    const body = await res.json() as { ok: boolean; data: { id?: number } | null; text: string };
    assert.ok(body.ok, `${op} ${JSON.stringify(args)}: ${body.text}`);
    return body;
  };
}

/** A tasks list of `todo` records in To do and `doing` in Doing, its agent granted. */
async function tasks(server: Server, todo: number, doing = 0) {
  assert.equal(server.admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  assert.equal(server.admin('grant', 'tasks', 'Claude', 'write').code, 0);
  const agent = agentOver(server);
  for (let i = 1; i <= todo; i++) await agent('add', { list: 'tasks', title: `Task ${i}` });
  for (let i = 1; i <= doing; i++) await agent('add', { list: 'tasks', title: `Busy ${i}`, state: 'doing' });
  return agent;
}

/** Every record the page ever showed under its selection, from now on (each change of the DOM looked at). */
async function watchSelection(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen = new Set<string>();
    const look = () => document.querySelectorAll<HTMLElement>('.card.cursor').forEach((c) => seen.add(c.dataset.record ?? '?'));
    look();
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    (globalThis as unknown as { selectionSeen: Set<string> }).selectionSeen = seen;
  });
  return () => page.evaluate(() => [...(globalThis as unknown as { selectionSeen: Set<string> }).selectionSeen]);
}

const record = (server: Server, id: number) =>
  (JSON.parse(server.admin('--json', 'get', String(id)).out) as { record: { state: string; approved: unknown; archived: boolean } }).record;

test('in a table, the selection stays on its record while an agent adds, archives and takes records above it', { timeout: 180_000 }, async (t) => {
  const server = await serve(t);
  const agent = await tasks(server, 12, 4);
  assert.equal(server.admin('edit-list', 'tasks', '--view', 'table').code, 0);
  const page = await signedIn(t, server);
  await page.locator('.card.cursor', { hasText: 'Task 1' }).waitFor();
  // Down to #14 (Busy 2), under every record in To do.
  for (let i = 0; i < 13; i++) await page.keyboard.press('j');
  await page.locator('.card.cursor', { hasText: 'Busy 2' }).waitFor();
  const selections = await watchSelection(page);

  let archived = 1;
  for (let round = 0; round < 12; round++) {
    await agent('add', { list: 'tasks', title: `New ${round}` });
    await agent('archive', { id: archived++ });
    await agent('take', { id: archived });
    // The page has drawn this round (the newest record is shown) before the next one.
    await page.locator('.card', { hasText: `New ${round}` }).waitFor();
  }
  // Every record of To do, above the selection, went; twelve others came in their place.
  await eventually(async () => (await page.locator('.card', { hasText: /Task \d+/ }).count()) === 0, 10_000, 'the records archived gone from the page');
  assert.equal(await page.locator('.card', { hasText: /New \d+/ }).count(), 12);
  assert.deepEqual(await selections(), ['14'], 'no frame showed another record under the selection');
  assert.equal(await page.locator('.card.cursor').textContent().then((s) => s?.includes('Busy 2')), true);
});

test('the record selected leaving puts the selection on its neighbour and says so; `a` a moment after asks, then approves', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  const agent = await tasks(server, 8);
  const page = await signedIn(t, server);
  const message = page.locator('.message');
  await page.locator('.card.cursor', { hasText: 'Task 1' }).waitFor();
  for (let i = 0; i < 4; i++) await page.keyboard.press('j');
  await page.locator('.card.cursor', { hasText: 'Task 5' }).waitFor();
  // The guard's clock stands still: a key is pressed "a moment" after what came under the selection.
  await page.clock.setFixedTime(new Date('2026-12-05T12:00:00Z'));

  await agent('archive', { id: 2 });
  await page.locator('.column', { hasText: 'To do' }).locator('.count', { hasText: '7' }).waitFor();
  await page.locator('.card.cursor', { hasText: 'Task 5' }).waitFor();
  await agent('archive', { id: 5 });
  await message.getByText('#5 was archived: the cursor is on #6.').waitFor();
  await page.locator('.card.cursor', { hasText: 'Task 6' }).waitFor();

  await page.keyboard.press('a');
  await message.getByText('#6 has just come under the cursor: nothing was done. a again acts on #6.').waitFor();
  assert.equal(record(server, 6).approved, null, 'nothing approved');
  await page.keyboard.press('a');
  await message.getByText('Approved #6').waitFor();
  assert.notEqual(record(server, 6).approved, null);

  // Long enough after a slide, a key acts at once.
  await agent('archive', { id: 6 });
  await message.getByText('#6 was archived: the cursor is on #7.').waitFor();
  await page.clock.setFixedTime(new Date('2026-12-05T12:00:01Z'));
  await page.keyboard.press('>');
  await message.getByText('Moved #7 to Doing').waitFor();
  assert.equal(record(server, 7).state, 'doing');
});

test('`>` on a record an agent took and moved on between frames moves nothing else; the selection follows it and asks', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  const agent = await tasks(server, 6);
  const page = await signedIn(t, server);
  const message = page.locator('.message');
  await page.locator('.card.cursor', { hasText: 'Task 1' }).waitFor();
  for (let i = 0; i < 2; i++) await page.keyboard.press('j');
  await page.locator('.card.cursor', { hasText: 'Task 3' }).waitFor();
  await page.clock.setFixedTime(new Date('2026-12-05T12:00:00Z'));

  // The list's reads wait: the page keeps the frame it drew while the agent takes #3 and starts on it.
  const held: Route[] = [];
  const hold = (route: Route) => void held.push(route);
  await page.route('**/page/api/show*', hold);
  await agent('take', { id: 3 });
  await agent('move', { id: 3, state: 'review' });
  await page.keyboard.press('>');
  await message.getByText('#3 moved since you looked: it was in To do, it is in Review now. Nothing was moved').waitFor();
  assert.equal(record(server, 3).state, 'review');
  assert.equal(record(server, 4).state, 'to-do', '#4, in #3\'s place now, did not move');
  // `m` too moves from where the record was shown: a state picked is refused the same way.
  await page.keyboard.press('m');
  const answered = page.waitForResponse((r) => r.url().endsWith('/page/api/move'));
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  assert.match((await (await answered).json() as { text: string }).text, /#3 moved since you looked/);
  assert.equal(record(server, 3).state, 'review');

  await page.unroute('**/page/api/show*', hold);
  for (const route of held.splice(0)) await route.fallback();
  await message.getByText('#3 was moved to Review: the cursor went with it.').waitFor();
  await page.locator('.column', { hasText: 'Review' }).locator('.card.cursor', { hasText: 'Task 3' }).waitFor();
  await page.keyboard.press('>');
  await message.getByText('#3 has just come under the cursor: nothing was done. > again acts on #3.').waitFor();
  assert.equal(record(server, 3).state, 'review', 'nothing moved');
  assert.equal(record(server, 4).state, 'to-do');
});

test('in a record\'s panel, the cursor holds its attached thing through a note arriving above; `T` on the one that took its place asks', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  const agent = await tasks(server, 1);
  await agent('attach', { id: 1, kind: 'link', ref: 'https://example.com/one' });
  await agent('attach', { id: 1, kind: 'link', ref: 'https://example.com/two' });
  const page = await signedIn(t, server);
  const message = page.locator('.message');
  await page.locator('.card', { hasText: 'Task 1' }).click();
  await page.getByRole('heading', { name: '#1 Task 1' }).waitFor();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  const cursor = page.locator('.panel .row.cursor');
  await cursor.filter({ hasText: 'example.com/two' }).waitFor();
  await page.clock.setFixedTime(new Date('2026-12-05T12:00:00Z'));

  await agent('note', { id: 1, text: 'a note above the attached things' });
  await page.locator('.notes', { hasText: 'a note above' }).waitFor();
  await cursor.filter({ hasText: 'example.com/two' }).waitFor();

  // Its attached thing leaves: the one in its place came under the cursor a moment ago.
  const views = JSON.parse(server.admin('--json', 'get', '1').out) as { record: { attached: { id: number; ref: string }[] } };
  const two = views.record.attached.find((a) => a.ref.endsWith('/two'))!;
  await agent('detach', { id: 1, what: String(two.id) });
  await cursor.filter({ hasText: 'example.com/one' }).waitFor();
  await page.keyboard.press('T');
  await message.getByText('#1 has just come under the cursor: nothing was done. T again acts on #1.').waitFor();
  assert.equal(server.admin('--json', 'get', '1').out.includes('example.com/one'), true, 'nothing detached');
});
