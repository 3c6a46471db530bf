/**
 * Truthful outcomes, against a real `binder serve` (run as an unprivileged user when the tests run
 * as root, so that file modes bind it) and `binder`: where the keeper can read asks but not write
 * answers — answers.jsonl read-only, the folder read-only, answers.jsonl removed over and over —
 * binder never says that nothing was changed when something was; it says the outcome is not
 * known and which id to ask again with, and asking again with it (`--ask-id`) gives the outcome
 * without doing anything twice.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BINDER, binderAsync } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';
import { openStore } from '../../src/store/index.js';
import { ANSWERS_FILE, ASKS_FILE } from '../../src/keeper/protocol.js';
import { answerTo, makeBinder, survivalDir, track } from './harness.js';

/** Who the keeper runs as: `nobody` when the tests run as root (whom no file mode stops), else the tests' own user. */
function keeperUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'nobody'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

function chownAll(path: string, user: { uid: number; gid: number }): void {
  chownSync(path, user.uid, user.gid);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chownAll(join(path, name), user);
}

/** A binder with one agent folder, kept by `binder serve` as `keeperUser()`. */
async function kept(t: TestContext, prefix: string) {
  const root = survivalDir(t, prefix);
  const made = await makeBinder(root, 1);
  await made.store.close();
  const user = keeperUser();
  if (user) {
    chmodSync(root, 0o755);
    chownAll(made.storeDir, user);
    chownAll(join(root, 'agent0'), user);
  }
  const child = track(spawn(process.execPath, [BINDER, 'serve', '--no-tui', '--quiet', '--store', made.storeDir], {
    stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}),
  }));
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => { out += c; });
  child.stderr!.on('data', (c) => { err += c; });
  await until(() => out.includes('Stop with Ctrl-C') || child.exitCode !== null, 20_000, 'the keeper to start');
  assert.equal(child.exitCode, null, err);
  const store = openStore(made.storeDir);
  t.after(() => store.close());
  const dir = made.dirs[0]!;
  return {
    dir, err: () => err,
    titles: () => store.db.prepare('SELECT title FROM records ORDER BY id').pluck().all() as string[],
    /** The id of the last ask binder wrote. */
    lastId: () => (JSON.parse(readFileSync(join(dir, ASKS_FILE), 'utf8').trim().split('\n').at(-1)!) as { id: string }).id,
    ask: (args: string[], wait?: number) => binderAsync([...args, '--dir', dir], wait ? { env: { BINDER_WAIT_MS: String(wait) } } : {}),
  };
}

/** What binder says when it got no answer: never that nothing was changed, unless nothing was. */
function notKnown(ran: { code: number; err: string }, id: string): void {
  assert.equal(ran.code, 75, ran.err);
  assert.doesNotMatch(ran.err, /Nothing was changed/);
  assert.match(ran.err, /Not known whether this was done/);
  assert.ok(ran.err.includes(`--ask-id ${id}`), ran.err);
}

for (const [what, block, unblock, said] of [
  ['answers.jsonl read-only', (dir: string) => chmodSync(join(dir, ANSWERS_FILE), 0o444), (dir: string) => chmodSync(join(dir, ANSWERS_FILE), 0o644), /answers\.jsonl cannot be opened: permission denied/],
  ['the folder read-only', (dir: string) => { rmSync(join(dir, ANSWERS_FILE)); chmodSync(dir, 0o555); }, (dir: string) => chmodSync(dir, 0o755), /answers\.jsonl cannot be opened: permission denied/],
] as const) {
  test(`${what}: the ask is not taken while its answer cannot be written; binder says the outcome is not known, and asking again with its id tells it`, { timeout: 90_000 }, async (t) => {
    const k = await kept(t, 'binder-outcome-ro-');
    assert.equal((await k.ask(['add', 'Tasks', 'first'])).code, 0);
    block(k.dir);
    const ran = await k.ask(['add', 'Tasks', 'second'], 2500);
    assert.deepEqual(k.titles(), ['first'], 'not done while its answer could not be written');
    const id = k.lastId();
    notKnown(ran, id);
    await until(() => said.test(k.err()), 10_000, 'the keeper to say why');

    // Writable again: the ask, long given up by its asker, is answered too late, never done.
    unblock(k.dir);
    assert.equal((await answerTo(k.dir, id)).ok, false);
    const again = await k.ask(['--ask-id', id, 'add', 'Tasks', 'second']);
    assert.equal(again.code, 1, again.err);
    assert.match(again.err, /^Not done: The keeper came to this ask too late/m);
    assert.equal((await k.ask(['add', 'Tasks', 'second'])).code, 0);
    assert.deepEqual(k.titles(), ['first', 'second'], 'done once');
  });
}

test('answers.jsonl removed over and over: binder never says nothing was changed; asking again with its id gives the answer, done once', { timeout: 90_000 }, async (t) => {
  const k = await kept(t, 'binder-outcome-loop-');
  assert.equal((await k.ask(['add', 'Tasks', 'first'])).code, 0);
  const loop = track(spawn(process.execPath, ['-e', `const fs = require('fs'); for (;;) { try { fs.unlinkSync(${JSON.stringify(join(k.dir, ANSWERS_FILE))}); } catch {} }`], { stdio: 'ignore' }));
  const ran = await k.ask(['add', 'Tasks', 'in the loop'], 3000);
  loop.kill('SIGKILL');
  await new Promise((done) => loop.once('exit', done));
  // It was done (the keeper could open the file when it took it): its answer may or may not have been read.
  const id = k.lastId();
  t.diagnostic(`binder exited ${ran.code}`);
  if (ran.code !== 0) notKnown(ran, id);
  const again = await k.ask(['--ask-id', id, 'add', 'Tasks', 'in the loop']);
  assert.equal(again.code, 0, again.err);
  assert.equal(again.out, 'Added #2 to tasks in To do.\n', 'the answer it was given when it was done');
  assert.deepEqual(k.titles(), ['first', 'in the loop'], 'done once');
});
