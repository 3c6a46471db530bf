/**
 * The first version's own command (seed 000's bin/binder.mjs), unchanged, as an agent against
 * `binder serve --no-tui`: the protocol is the contract, not our client.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp.js';
import { binder, seedClient, serveKeeper } from '../helpers/processes.js';

test('the seed\'s own command works unchanged against our keeper', async (t) => {
  const root = tempDir(t);
  const seed = seedClient(join(root, 'seed'));
  if (!seed) { t.skip('../shared is absent: the seed client cannot be written out'); return; }
  const store = join(root, 'store');
  const folder = join(root, 'work', '.binder');
  mkdirSync(folder, { recursive: true });
  const admin = (...args: string[]) => binder(['admin', '--store', store, '--as', 'ann', ...args]);
  assert.equal(admin('create-list', 'Batches', '--template', 'batches').code, 0);
  assert.equal(admin('side', 'add', folder, 'Seedling').code, 0);
  assert.equal(admin('grant', 'batches', 'Seedling', 'write').code, 0);

  await serveKeeper(t, ['--store', store]);
  const agent = (...args: string[]) => {
    const r = spawnSync(process.execPath, [seed, ...args, '--dir', folder], { encoding: 'utf8', timeout: 30_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  const lists = agent('lists');
  assert.equal(lists.code, 0, lists.err);
  assert.match(lists.out, /batches: Batches/);

  const added = agent('add', 'Batches', 'Dark mode for the site');
  assert.equal(added.code, 0, added.err);
  const id = /#(\d+)/.exec(added.out)?.[1];
  assert.ok(id, added.out);
  assert.equal(agent('add', 'Batches', 'Second one', '--owner', 'me', '--due', '2026-12-01').code, 0);

  const refused = agent('move', id, 'Doing');
  assert.equal(refused.code, 1);
  assert.match(refused.err, /not approved/);

  assert.equal(admin('approve', id).code, 0);
  const moved = agent('move', id, 'Doing');
  assert.equal(moved.code, 0, moved.err);
  assert.match(moved.out, new RegExp(`#${id} is now in Doing`));

  assert.equal(agent('note', id, 'the login page only').code, 0);
  assert.equal(agent('attach', id, 'branch', 'site:dark-mode', 'the work').code, 0);
  const shown = agent('show', 'Batches');
  assert.equal(shown.code, 0);
  assert.match(shown.out, new RegExp(`#${id} Dark mode for the site`));
  const got = agent('get', id);
  assert.match(got.out, /the login page only/);
  assert.match(got.out, /branch site:dark-mode "the work"/);
  const found = agent('search', 'login');
  assert.match(found.out, new RegExp(`#${id} Dark mode`));
  assert.equal(agent('archive', id).code, 0);
  assert.doesNotMatch(agent('show', 'Batches').out, new RegExp(`#${id} `));
  assert.match(agent('show', 'Batches', '--archived').out, new RegExp(`#${id} Dark mode`));
  assert.equal(agent('restore', id).code, 0);
  assert.match(agent('show', 'Batches').out, new RegExp(`#${id} Dark mode`));
});
