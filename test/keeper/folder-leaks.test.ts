/**
 * Folders that leak nothing, and the person told where an agent runs as them: a folder the
 * keeper makes is 0700 with a `.gitignore` of `*` (so `git status` in the agent's repository shows
 * nothing of it), the keeper's files in it are readable by owner and group alone, and `side add`
 * / `side list` warn — without refusing — for a folder of the keeper's own user or open to others.
 * The tests run as root where they can, to make a folder another user owns.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ANSWERS_FILE, HEARTBEAT_FILE } from '../../src/keeper/protocol.js';
import { binder, binderAsync, serveKeeper } from '../helpers/processes.js';
import { tempDir, until } from '../helpers/temp.js';

const RUNS_AS_YOU = /Claude runs as you: it can act as you unless it runs in binder sandbox -- COMMAND or its tool's sandbox, or as an OS user of its own\./;
const mode = (path: string): number => statSync(path).mode & 0o7777;

function personIn(t: import('node:test').TestContext) {
  const root = tempDir(t);
  const store = join(root, 'store');
  return { root, store, admin: (...args: string[]) => binder(['admin', '--store', store, '--as', 'ann', ...args]) };
}

test('a folder the keeper makes is 0700 with a .gitignore of *: git status in the repository shows nothing of it; the keeper\'s files are 0640', { timeout: 60_000 }, async (t) => {
  const { root, store, admin } = personIn(t);
  const repo = join(root, 'site');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  const folder = join(repo, '.binder');
  const added = admin('side', 'add', folder, 'Claude');
  assert.equal(added.code, 0, added.err);
  assert.equal(mode(folder), 0o700);
  assert.equal(readFileSync(join(folder, '.gitignore'), 'utf8'), '*\n');
  assert.equal(admin('create-list', 'Batches', '--template', 'batches').code, 0);
  assert.equal(admin('grant', 'batches', 'Claude', 'write').code, 0);

  await serveKeeper(t, ['--store', store]);
  const asked = await binderAsync(['add', 'Batches', 'Dark mode'], { cwd: repo });
  assert.equal(asked.code, 0, asked.err);
  await until(() => existsSync(join(folder, HEARTBEAT_FILE)), 10_000, 'the keeper\'s heartbeat');
  assert.equal(mode(join(folder, ANSWERS_FILE)), 0o640);
  assert.equal(mode(join(folder, HEARTBEAT_FILE)), 0o640);
  const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repo, encoding: 'utf8' });
  assert.equal(status.status, 0, status.stderr);
  assert.equal(status.stdout, '', 'nothing of the folder is there to commit');
});

test('a folder a person made is left as it is: no .gitignore written, its mode kept', (t) => {
  const { root, admin } = personIn(t);
  const folder = join(root, 'made', '.binder');
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o2770);
  assert.equal(admin('side', 'add', folder, 'Claude').code, 0);
  assert.equal(existsSync(join(folder, '.gitignore')), false);
  assert.equal(mode(folder), 0o2770);
});

test('side add and side list warn for a folder of the keeper\'s own user, and for one others can read, with the fix; a warning, not a refusal', (t) => {
  const { root, admin } = personIn(t);
  const folder = join(root, 'mine', '.binder');
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o755);
  const added = admin('side', 'add', folder, 'Claude');
  assert.equal(added.code, 0, added.err);
  assert.match(added.out, /The keeper reads .* as Claude/);
  assert.match(added.out, RUNS_AS_YOU);
  assert.match(added.out, new RegExp(`Others can read Claude's folder ${folder}: chmod o-rwx ${folder} mends it\\.`));
  const listed = admin('side', 'list');
  assert.equal(listed.code, 0, listed.err);
  assert.match(listed.out, RUNS_AS_YOU);
  assert.match(listed.out, /chmod o-rwx/);
  const json = JSON.parse(admin('--json', 'side', 'list').out) as { name: string; keeperUser: boolean; othersRead: boolean }[];
  assert.deepEqual(json.map((s) => [s.name, s.keeperUser, s.othersRead]), [['Claude', true, true]]);

  chmodSync(folder, 0o700);
  assert.doesNotMatch(admin('sides').out, /chmod/, 'mended: no more said');
});

test('silence for a folder another OS user owns, kept from others', { skip: process.getuid?.() !== 0 ? 'needs root, to give a folder to another user' : false }, (t) => {
  const { root, admin } = personIn(t);
  const folder = join(root, 'theirs', '.binder');
  mkdirSync(folder, { recursive: true });
  const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }));
  chownSync(folder, nobody, 0);
  chmodSync(folder, 0o2770);
  const added = admin('side', 'add', folder, 'Claude');
  assert.equal(added.code, 0, added.err);
  assert.doesNotMatch(added.out, /runs as you|Others can read/);
  assert.equal(added.out.trim().split('\n').length, 1);
  assert.doesNotMatch(admin('side', 'list').out, /runs as you|chmod/);
});
