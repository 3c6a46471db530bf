/**
 * The page by keyboard, at phone width and in the dark, in French, and when it loses the server:
 * the screen's keys move, open, approve and move records; `?` lists the keys; search, what
 * changed, agent folders and a token shown once; the page says it lost the server and comes back
 * by itself. axe finds nothing serious on each view; each is saved as a screenshot.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, focusHolds, serve, shot, signedIn } from './kit.js';

test('keys: j and k, l and h, Enter, a, > and m, ?, /, b and Esc do on the page what they do on the screen', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  for (const title of ['First', 'Second', 'Third']) server.admin('add', 'Batches', title);
  const page = await signedIn(t, server);
  await page.locator('.card', { hasText: 'Third' }).waitFor();
  await focusHolds(page, /First/);
  await page.keyboard.press('j');
  await focusHolds(page, /Second/);
  await page.keyboard.press('k');
  await focusHolds(page, /First/);
  await page.keyboard.press('a');
  await page.getByText('Approved #1').waitFor();
  await page.keyboard.press('>');
  await page.locator('[data-state="approved"] .card', { hasText: 'First' }).waitFor();
  await page.keyboard.press('l');
  await focusHolds(page, /First/, 'l goes to the next state with records');
  await page.keyboard.press('m');
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  await page.locator('[data-state="done"] .card', { hasText: 'First' }).waitFor();
  await focusHolds(page, /First/, 'the cursor went with the record');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: /#\d+ (First|Second|Third)/ }).waitFor();
  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  await page.getByRole('heading', { name: 'Keys' }).waitFor();
  assert.match(await page.locator('.panel').innerText(), /approve \/ withdraw/i);
  assert.doesNotMatch(await page.locator('.panel').innerText(), /suspend/i, 'only the keys the page does');
  await shot(page, '12-keys');
  await axe(page, 'the keys');
  await page.keyboard.press('Escape');
  await page.keyboard.press('/');
  await page.getByRole('searchbox').fill('Second');
  await page.getByText('1 match').waitFor();
  await shot(page, '13-search');
  await axe(page, 'search');
  await page.keyboard.press('Escape');
  await page.keyboard.press('b');
  await page.getByRole('heading', { name: 'What changed since you last looked' }).waitFor();
  await shot(page, '14-what-changed');
  await axe(page, 'what changed');
});

test('agent folders and a token shown once; phone width in the dark; French', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('add', 'Batches', 'A record with a rather long title that wraps on a phone');
  const page = await signedIn(t, server, { width: 390, height: 844, dark: true });
  await page.locator('.card').first().waitFor();
  await shot(page, '15-phone-dark-board');
  await axe(page, 'the board at phone width, dark');
  // At phone width the views are in the bar's menu.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Agent folders' }).click();
  await page.getByText('Claude').first().waitFor();
  await page.getByRole('button', { name: 'Make an agent token' }).click();
  await page.getByLabel('Name').fill('Robot');
  await page.getByRole('button', { name: 'Make', exact: true }).click();
  const token = await page.getByLabel('Token for Robot').inputValue();
  assert.match(token, /^binder_[A-Za-z0-9_-]{43}$/);
  await shot(page, '16-token-once');
  await axe(page, 'a token shown once');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  assert.doesNotMatch(await page.content(), new RegExp(token.slice(8)), 'shown once, then gone from the page');
  const res = await fetch(`${server.url}/api/lists`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200, 'the token made on the page works for its agent');
  await shot(page, '17-folders-phone-dark');
  await axe(page, 'agent folders at phone width, dark');

  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByLabel('Language').selectOption('fr');
  await page.getByRole('button', { name: 'Listes' }).waitFor();
  await shot(page, '18-french');
  await axe(page, 'the page in French');
});

test('the page says when it lost the server, comes back by itself, and shows what changed meanwhile', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  const page = await signedIn(t, server);
  await page.getByText('Live', { exact: true }).waitFor();
  await server.stop();
  await page.getByText('Lost the server: reconnecting by itself…').waitFor({ timeout: 10_000 });
  await shot(page, '19-lost');
  server.admin('add', 'Batches', 'Added while the page was away');
  await server.start();
  await page.getByText('Live', { exact: true }).waitFor({ timeout: 15_000 });
  await page.locator('.card', { hasText: 'Added while the page was away' }).waitFor({ timeout: 10_000 });
});
