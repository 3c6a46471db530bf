/**
 * The webhooks' delivery log on the page, for an admin: opened from what changed, it lists each
 * hook (its URL, events and list) with its latest deliveries; a real receiver answers 500 until
 * the page has shown that try's error (a try comes again a second later: the log, read every two
 * seconds, could miss one failure alone), then 200, and the log shows the same delivery sent.
 * Never a secret on the page.
 * Chromium against a real `binder serve --http`, whose keeper sends the deliveries.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hookReceiver } from '../helpers/hook-receiver.js';
import { axe, serve, signedIn } from './kit.js';

test('an admin\'s page shows each webhook\'s deliveries: a 500 with its error, then the delivery sent', { timeout: 120_000 }, async (t) => {
  let down = true;
  const receiver = await hookReceiver(t, () => (down ? { status: 500, body: 'down for a moment' } : { status: 200 }));
  const server = await serve(t);
  assert.equal(server.admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  assert.equal(server.admin('add', 'Tasks', 'Ship the release').code, 0);
  const made = server.admin('hook', 'add', receiver.url, '--events', 'noted', '--list', 'Tasks');
  assert.equal(made.code, 0, made.err);
  receiver.secret = made.out.split('\n')[0]!;
  assert.match(receiver.secret, /^whsec_/);
  const page = await signedIn(t, server);

  await page.keyboard.press('b');
  await page.getByRole('heading', { name: 'What changed since you last looked' }).waitFor();
  await page.getByRole('button', { name: 'Webhooks' }).click();
  const hook = page.getByRole('region', { name: receiver.url });
  await hook.getByText('Nothing was sent to it yet.').waitFor();
  await hook.getByText('noted', { exact: true }).waitFor();
  await hook.getByText('tasks', { exact: true }).waitFor();

  assert.equal(server.admin('note', '1', 'Tagged the build').code, 0);
  const row = hook.locator('tbody tr', { hasText: 'noted' });
  await row.getByText('HTTP 500: down for a moment').waitFor({ timeout: 30_000 });
  await row.getByText(/^tried again soon \(500\) · \d+ tr(y|ies)$/).waitFor();
  assert.equal(await row.getByRole('link', { name: '#1' }).getAttribute('href'), '#/record/1');
  await axe(page, 'the webhooks\' delivery log');
  // The receiver is up again; tried again by the keeper: the same delivery, sent, its error gone.
  down = false;
  await row.getByText(/^sent \(200\) · \d+ tries$/).waitFor({ timeout: 60_000 });
  assert.equal(await row.getByText('HTTP 500').count(), 0, 'the error gone with the success');
  assert.equal(await hook.locator('tbody tr').count(), 1, 'one delivery, tried again');
  assert.ok(receiver.got.length >= 2);
  assert.deepEqual(receiver.got.map((d) => d.answered), [...receiver.got.slice(1).map(() => 500), 200], 'failed, then sent once');
  assert.ok(receiver.got.every((d) => d.event === 'noted' && d.signed && d.id === receiver.got[0]!.id), 'the same delivery, signed, each time');
  assert.equal(await row.getByText(`${receiver.got.length} tries`).count(), 1, 'the log counts every try');
  assert.ok(!(await page.content()).includes(receiver.secret), 'no secret on the page');
});
