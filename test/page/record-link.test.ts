/**
 * A record's link (`/#/record/N`), as a notification would give it, on a phone: signed in, it
 * opens that record over the screen and one tap approves it, with the mark the desktop sends (the
 * store shows the approval); signed out, the sign-in comes first and then the same record.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, eventually, loginLink, newPage, serve, signedIn } from './kit.js';

test('a record\'s link on a phone opens the record, and a tap approves it', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('add', 'Batches', 'First');
  server.admin('add', 'Batches', 'Ship the release');
  const page = await signedIn(t, server, { phone: true });
  await page.goto(`${server.url}/#/record/2`);
  await page.getByRole('heading', { name: '#2 Ship the release' }).waitFor();
  await page.getByRole('button', { name: /^Approve/ }).tap();
  await page.getByText('Approved #2').waitFor();
  await eventually(() => /"approved":\{/.test(server.admin('get', '2', '--json').out), 10_000, 'the store to show the approval');
  assert.doesNotMatch(server.admin('get', '1', '--json').out, /"approved":\{/, 'the record of the link, not another');
});

test('a record\'s link signed out: the sign-in, then that record', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('add', 'Batches', 'First');
  server.admin('add', 'Batches', 'Ship the release');
  const context = await browser(t, { phone: true });
  const { page, errors } = await newPage(context);
  await page.goto(`${server.url}/#/record/2`);
  await page.getByRole('heading', { name: /Sign in/ }).waitFor();
  // The login link, opened from elsewhere: a page of its own.
  await page.goto('about:blank');
  await page.goto(loginLink(server));
  await page.getByRole('heading', { name: '#2 Ship the release' }).waitFor();
  assert.deepEqual(errors, []);
});
