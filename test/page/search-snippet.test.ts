/**
 * Search's hits show a snippet from where the words matched, the words marked with <mark>, and
 * a record's words as text only: a title holding an <img onerror> is shown, never run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, signedIn } from './kit.js';

test('a hit\'s snippet marks the words found, and a record\'s HTML stays text', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('add', 'Batches', 'Plain title', '--note', 'the long story of a zebra crossing the road');
  server.admin('add', 'Batches', '<img src=x onerror="window.__ran=1"> trap');
  const page = await signedIn(t, server);
  await page.locator('.card').first().waitFor();
  await page.keyboard.press('/');
  await page.getByRole('searchbox').fill('Zebra');
  await page.getByText('1 match').waitFor();
  const snippet = page.locator('.hits .snippet');
  assert.match(await snippet.innerText(), /zebra crossing/);
  assert.deepEqual(await snippet.locator('mark').allInnerTexts(), ['zebra']);
  await page.getByRole('searchbox').fill('onerror');
  await page.locator('.hits', { hasText: 'trap' }).waitFor();
  assert.equal(await page.locator('.hits img').count(), 0, 'no element made from a record\'s words');
  assert.match(await page.locator('.hits').innerText(), /<img src=x onerror=/);
  assert.equal(await page.evaluate(() => (window as unknown as { __ran?: number }).__ran), undefined);
});
