/**
 * Withdrawing an approval on the page asks first, as the screen does, by key (`a` on the card
 * selected) and by the record panel's button alike: no leaves it approved, yes withdraws it and
 * says where the record is now. Chromium against a real `binder serve --http`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, serve, signedIn, type Server } from './kit.js';

const approved = (server: Server, id: number) =>
  (JSON.parse(server.admin('--json', 'get', String(id)).out) as { record: { approved: unknown } }).record.approved !== null;

test('a withdrawal asks first, by key and by the panel\'s button; no keeps the approval, yes withdraws it', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  assert.equal(server.admin('create-list', 'Batches', '--template', 'batches').code, 0);
  assert.equal(server.admin('add', 'Batches', 'Tidy the logs').code, 0);
  assert.equal(server.admin('approve', '1').code, 0);
  assert.ok(approved(server, 1));
  const page = await signedIn(t, server);
  const message = page.locator('.message');
  const dialog = page.getByRole('dialog', { name: 'Confirm' });
  await page.locator('.card.cursor', { hasText: 'Tidy the logs' }).waitFor();

  // The key on the card selected: asked, and n leaves it approved.
  await page.keyboard.press('a');
  await dialog.getByText('Withdraw your approval of #1 “Tidy the logs”?').waitFor();
  await axe(page, 'a withdrawal asked about');
  await page.keyboard.press('n');
  await dialog.waitFor({ state: 'detached' });
  assert.ok(approved(server, 1), 'no withdrew nothing');

  // The panel's button: asked too, and yes withdraws it.
  await page.locator('.card', { hasText: 'Tidy the logs' }).click();
  await page.getByRole('heading', { name: '#1 Tidy the logs' }).waitFor();
  await page.getByRole('button', { name: /Withdraw approval/ }).click();
  await dialog.getByText('Withdraw your approval of #1 “Tidy the logs”?').waitFor();
  assert.ok(approved(server, 1), 'nothing withdrawn before the person says yes');
  await page.keyboard.press('y');
  await message.getByText(/Withdrew the approval of #1; it is in /).waitFor();
  assert.equal(approved(server, 1), false);
});
