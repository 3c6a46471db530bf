/**
 * The page's search holds its selected row by record, not by place: an agent adding records that
 * match better (over the keeper's HTTP API, as an agent elsewhere would) puts them above, and the
 * selection stays on the record it was on; Enter opens that record. Chromium against a real
 * `binder serve --http`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, signedIn, agentAdds } from './kit.js';

test('search results arriving above the selected one move the rows, never the selection', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  assert.equal(server.admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  const token = server.admin('token', 'add', 'Claude').out.split('\n')[0]!;
  assert.equal(server.admin('grant', 'tasks', 'Claude', 'write').code, 0);
  const add = (title: string) => agentAdds(server, token, 'tasks', title);
  for (let i = 1; i <= 3; i++) await add(`Alpha in a rather long title with many other words ${i}`);
  const page = await signedIn(t, server);
  await page.keyboard.press('/');
  await page.getByRole('searchbox').fill('alpha');
  await page.getByText('3 matches').waitFor();
  await page.getByRole('searchbox').press('ArrowDown');
  await page.keyboard.press('j');
  const selected = page.locator('.hits li.cursor');
  const held = (await selected.innerText()).match(/#(\d+)/)![1]!;
  // Shorter titles with the word twice rank first: each arrives above the selection.
  for (let i = 1; i <= 4; i++) {
    await add(`Alpha alpha ${i}`);
    await page.getByText(`${3 + i} matches`).waitFor();
    assert.match(await page.locator('.hits li').first().innerText(), /Alpha alpha/, 'the new match is above');
    assert.match(await selected.innerText(), new RegExp(`^#${held} `), `the selection still on #${held}`);
  }
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: new RegExp(`^#${held} `) }).waitFor();
});
