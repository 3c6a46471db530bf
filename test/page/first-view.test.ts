/**
 * The page's first view asks the binder for no more than it shows: the open list is read once,
 * and its answer is drawn, however late the change stream says it is ready.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, serve, signedIn } from './kit.js';

test('the first view reads the open list once, and draws it before the change stream is ready', { timeout: 60_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  for (const title of ['First', 'Second']) server.admin('add', 'Batches', title);
  const page = await signedIn(t, server);
  await page.locator('.card', { hasText: 'Second' }).waitFor();
  // The first document's own stream said it was ready (and read its view again) before the count.
  await page.locator('.link-live').waitFor({ state: 'attached' });

  // Only the reads of the reloaded document are counted: from its navigation on.
  const shows: string[] = [];
  let reloaded = false;
  page.on('request', (request) => {
    if (request.isNavigationRequest()) reloaded = true;
    else if (reloaded && new URL(request.url()).pathname === '/page/api/show') shows.push(request.url());
  });
  // The stream is held until the board is drawn: nothing the stream says can ask for a read again.
  let release = (): void => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/page/events*', async (route) => {
    await held;
    await route.continue().catch(() => {});
  });
  t.after(() => release());
  await page.reload();
  await page.locator('.card', { hasText: 'Second' }).waitFor();
  assert.equal(shows.length, 1, `the open list was read ${shows.length} times: ${shows.join(', ')}`);
  release();
  await page.locator('.link-live').waitFor({ state: 'attached' });
});

test('an answer still on its way when the binder changes is drawn, not thrown away: the page need not wait for the next read', { timeout: 60_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('add', 'Batches', 'First');
  const page = await signedIn(t, server);
  await page.locator('.card', { hasText: 'First' }).waitFor();
  await page.locator('.link-live').waitFor({ state: 'attached' });

  // Each read of the open list by the reloaded document, and the stream, held until let go: a
  // read the first document still makes goes its way.
  const shows: { go(): Promise<void> }[] = [];
  let reloaded = false;
  page.on('request', (request) => {
    if (request.isNavigationRequest()) reloaded = true;
  });
  await page.route('**/page/api/show*', async (route) => {
    if (!reloaded) return route.continue().catch(() => {});
    shows.push({ go: () => route.continue().catch(() => {}) });
  });
  let openStream = (): void => {};
  const streamHeld = new Promise<void>((resolve) => {
    openStream = resolve;
  });
  await page.route('**/page/events*', async (route) => {
    await streamHeld;
    await route.continue().catch(() => {});
  });
  t.after(async () => {
    openStream();
    await Promise.all(shows.map((s) => s.go()));
  });
  await page.reload();
  await eventually(() => shows.length >= 1, 10_000, 'the first read of the open list');
  // The stream is ready now: the binder may have changed, and the list is read again.
  openStream();
  await eventually(() => shows.length >= 2, 10_000, 'the list read again once the stream is ready');
  await shows[0]!.go();
  await page.locator('.card', { hasText: 'First' }).waitFor({ timeout: 10_000 });
  await shows[1]!.go();
  await page.locator('.link-live').waitFor({ state: 'attached' });
  assert.equal(await page.locator('.card').count(), 1);
});
