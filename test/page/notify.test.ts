/**
 * Work that comes to the person, in Chromium: the tab's title counts what waits for an approval;
 * notifications are asked for by a button alone (never on load), and, once granted, an agent's
 * proposal made while the tab is hidden is a notification whose click opens the record.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, signedIn } from './kit.js';

test('the title counts what waits; a hidden tab is told of an agent\'s proposal once notifications were allowed', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('grant', 'batches', 'Claude', 'write');
  assert.equal(server.agent('add', 'Batches', 'Walls').code, 0);
  const page = await signedIn(t, server);
  await page.waitForFunction(() => document.title === '(1) Binder');

  // Every notification the page makes is kept where the test reads it, and the tab is hidden.
  await page.evaluate(() => {
    const made: { body: string; click: () => void }[] = [];
    (window as unknown as { made: typeof made }).made = made;
    const Real = window.Notification;
    class Kept extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        made.push({ body: `${title}|${options?.body ?? ''}`, click: () => this.onclick?.(new Event('click')) });
      }
    }
    Object.defineProperty(window, 'Notification', { value: Kept, configurable: true });
  });
  assert.equal(await page.evaluate(() => Notification.permission), 'default', 'nothing asked on load');
  await page.keyboard.press('b');
  const ask = page.getByRole('button', { name: 'Tell me in this browser' });
  await ask.waitFor();
  await page.context().grantPermissions(['notifications']);
  await ask.click();
  await page.getByText('This browser tells you of work that waits for you.').waitFor();
  await page.keyboard.press('Escape');
  await page.evaluate(() => Object.defineProperty(document, 'hidden', { get: () => true, configurable: true }));

  assert.equal(server.agent('add', 'Batches', 'Roof').code, 0);
  await page.waitForFunction(() => document.title === '(2) Binder');
  await page.waitForFunction(() => (window as unknown as { made: unknown[] }).made.length > 0);
  const bodies = await page.evaluate(() => (window as unknown as { made: { body: string }[] }).made.map((m) => m.body));
  assert.deepEqual(bodies, ['Binder|#2 waits for your approval: Roof']);
  await page.evaluate(() => (window as unknown as { made: { click: () => void }[] }).made[0]!.click());
  await page.getByRole('heading', { name: '#2 Roof' }).waitFor();
});
