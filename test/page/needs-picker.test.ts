/**
 * The page's picker of what a record needs holds its row by record, not by place: while it is
 * open, an agent adding records that match better (over the keeper's HTTP API) puts them above,
 * and the row under the cursor stays on the record it was on; Space marks that record needed,
 * and the need made is of that record. Chromium against a real `binder serve --http`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, eventually, serve, signedIn, agentAdds } from './kit.js';

test('records found arriving above the picker\'s row move the rows, never the choice; Space marks the record held', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  assert.equal(server.admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  assert.equal(server.admin('add', 'Tasks', 'Roof').code, 0);
  const token = server.admin('token', 'add', 'Claude').out.split('\n')[0]!;
  assert.equal(server.admin('grant', 'tasks', 'Claude', 'write').code, 0);
  const add = (title: string) => agentAdds(server, token, 'tasks', title);
  for (let i = 1; i <= 3; i++) await add(`Alpha in a rather long title with many other words ${i}`);
  const page = await signedIn(t, server);
  const needsOf = (id: number) => (JSON.parse(server.admin('--json', 'get', String(id)).out) as { needs: { id: number }[] }).needs.map((n) => n.id);

  await page.locator('.card', { hasText: 'Roof' }).click();
  await page.getByRole('heading', { name: '#1 Roof' }).waitFor();
  await page.keyboard.press('n');
  const picker = page.getByRole('dialog');
  await picker.getByRole('searchbox', { name: 'Find records by their words' }).fill('alpha');
  await picker.getByText('3 matches').waitFor();
  await picker.getByRole('searchbox').press('ArrowDown');
  await page.keyboard.press('j');
  const row = picker.locator('.pick-records li.cursor');
  const held = (await row.innerText()).match(/#(\d+)/)![1]!;
  assert.notEqual(held, (await picker.locator('.pick-records li').first().innerText()).match(/#(\d+)/)![1], 'the second row');
  await axe(page, 'the needs picker');

  for (let i = 1; i <= 4; i++) {
    await add(`Alpha alpha ${i}`);
    await picker.getByText(`${3 + i} matches`).waitFor();
    assert.match(await picker.locator('.pick-records li').first().innerText(), /Alpha alpha/, 'the new match is above');
    assert.match(await row.innerText(), new RegExp(`#${held} `), `the row still on #${held}`);
  }
  await page.keyboard.press('Space');
  assert.equal(await picker.getByRole('textbox').inputValue(), held, 'the record held is the one marked');
  assert.ok(await picker.locator(`.pick-records li[data-record="${held}"] input`).isChecked());
  await picker.getByRole('button', { name: 'Confirm' }).click();
  await picker.waitFor({ state: 'detached' });
  await eventually(() => needsOf(1).join() === held, 10_000, `#1 to need #${held}`);
});
