/**
 * A folder is bound to the directory a person registered, against a real `binder serve` with
 * folders registered by `binder admin side add` and agents running `binder`: a symbolic link put
 * above a folder (so that its path leads to another agent's folder), a folder moved, a folder
 * replaced, a link on a parent leading to planted asks. None of them is read for the agent the
 * path was registered for; the keeper says so once; a person registers again to read it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { binder, binderAsync } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';
import { openStore } from '../../src/store/index.js';
import { ASKS_FILE, HEARTBEAT_FILE } from '../../src/keeper/protocol.js';
import { answeredTwice, answersIn, answerTo, askLine, count, startKeeper, survivalDir } from './harness.js';

/** A store with the Tasks list and one folder per agent, registered and granted as a person does it. */
function lay(root: string, agents: Record<string, 'read' | 'write'>) {
  const storeDir = join(root, 'store');
  const admin = (...args: string[]) => binder(['admin', '--store', storeDir, ...args]);
  assert.equal(admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  const dirs: Record<string, string> = {};
  for (const [name, access] of Object.entries(agents)) {
    dirs[name] = join(root, 'R', name.toLowerCase(), '.binder');
    mkdirSync(dirs[name], { recursive: true });
    const added = admin('side', 'add', dirs[name], name);
    assert.equal(added.code, 0, added.err);
    assert.equal(admin('grant', 'tasks', name, access).code, 0);
  }
  const store = openStore(storeDir);
  return { storeDir, admin, dirs, store, titles: () => store.db.prepare('SELECT title FROM records ORDER BY id').pluck().all() as string[] };
}

const lines = (text: string, pattern: RegExp) => text.split('\n').filter((line) => pattern.test(line)).length;

test('a link put above a folder, leading to another agent\'s folder: that folder is read once, as its own agent\'s', { timeout: 90_000 }, async (t) => {
  const root = survivalDir(t, 'binder-swap-');
  const { storeDir, admin, dirs, store, titles } = lay(root, { Bob: 'read', Ivy: 'write' });
  t.after(() => store.close());
  const R = join(root, 'R');
  const bob = join(R, 'bob');
  const ivy = join(R, 'ivy');
  const keeper = await startKeeper(storeDir);
  const asBob = (...args: string[]) => binderAsync(args, { cwd: bob });

  assert.equal((await asBob('lists')).code, 0);
  const first = await binderAsync(['add', 'Tasks', 'by Ivy'], { cwd: ivy });
  assert.equal(first.code, 0, first.err);

  // The attack, as a shell would do it while the keeper runs.
  renameSync(ivy, `${ivy}-real`);
  symlinkSync(bob, ivy);
  const refused = await asBob('add', 'tasks', 'by Bob');
  assert.equal(refused.code, 1, refused.err);
  assert.match(refused.err, /You may only read/);
  // A pass after: Bob's folder is still read as Bob's alone.
  assert.equal((await asBob('lists')).code, 0);
  assert.deepEqual(titles(), ['by Ivy'], 'Bob\'s ask was not done as Ivy');
  const said = new RegExp(`${dirs.Ivy!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not the folder registered for Ivy any more`);
  await until(() => said.test(keeper.err()), 10_000, 'the keeper to say Ivy\'s folder leads elsewhere');

  assert.equal(count(store, "SELECT count(*) FROM log WHERE op = 'add'"), 1);
  assert.deepEqual(answeredTwice(dirs.Bob!), [], 'no ask of Bob\'s answered twice');
  assert.equal(answersIn(dirs.Bob!).length, 3, 'each of Bob\'s asks answered once, earlier ones not again');
  assert.equal(lines(keeper.err(), said), 1, 'said once');

  // A person registering the path again while it leads to Bob's folder: refused.
  const again = admin('side', 'add', dirs.Ivy!, 'Ivy');
  assert.equal(again.code, 1, again.out);
  assert.match(again.err, /is the same directory as .*bob\/\.binder, read for Bob/);

  // The link taken away and Ivy's folder back where it was: the directory registered, read again.
  rmSync(ivy);
  renameSync(`${ivy}-real`, ivy);
  const back = await binderAsync(['add', 'Tasks', 'Ivy again'], { cwd: ivy });
  assert.equal(back.code, 0, back.err);
  assert.deepEqual(titles(), ['by Ivy', 'Ivy again']);
  assert.deepEqual(answeredTwice(dirs.Ivy!), []);
  assert.equal(await keeper.stop(), 0);
});

test('a folder moved away is not followed nor made again; registered at its new place, it is read with nothing done or answered twice', { timeout: 90_000 }, async (t) => {
  const root = survivalDir(t, 'binder-moved-');
  const { storeDir, admin, dirs, store, titles } = lay(root, { Ivy: 'write' });
  t.after(() => store.close());
  const keeper = await startKeeper(storeDir);
  const first = await binderAsync(['add', 'Tasks', 'before the move', '--dir', dirs.Ivy!]);
  assert.equal(first.code, 0, first.err);

  const moved = join(root, 'elsewhere', '.binder');
  mkdirSync(join(root, 'elsewhere'));
  renameSync(dirs.Ivy!, moved);
  await until(() => /\.binder is gone \(moved or removed\)/.test(keeper.err()), 10_000, 'the keeper to say the folder is gone');
  assert.equal(existsSync(dirs.Ivy!), false, 'the keeper did not make it again');

  assert.equal(admin('side', 'remove', 'Ivy').code, 0);
  const added = admin('side', 'add', moved, 'Ivy');
  assert.equal(added.code, 0, added.err);
  const next = await binderAsync(['add', 'Tasks', 'after the move', '--dir', moved]);
  assert.equal(next.code, 0, next.err);
  assert.deepEqual(titles(), ['before the move', 'after the move']);
  assert.deepEqual(answeredTwice(moved), [], 'the asks from before the move are not answered again');
  assert.equal(answersIn(moved).length, 2);
  assert.equal(lines(keeper.err(), /is gone/), 1, 'said once');
  assert.equal(await keeper.stop(), 0);
});

test('a folder replaced, and a link on a parent leading to planted asks: not read until a person registers the folder again', { timeout: 90_000 }, async (t) => {
  const root = survivalDir(t, 'binder-replaced-');
  const { storeDir, admin, dirs, store, titles } = lay(root, { Ivy: 'write', Zed: 'write' });
  t.after(() => store.close());
  const keeper = await startKeeper(storeDir);
  for (const name of ['Ivy', 'Zed']) assert.equal((await binderAsync(['lists', '--dir', dirs[name]!])).code, 0);

  // Replaced: removed and made again, with an ask in it.
  rmSync(dirs.Ivy!, { recursive: true });
  mkdirSync(dirs.Ivy!);
  appendFileSync(join(dirs.Ivy!, ASKS_FILE), askLine('in-the-new-one', 'add', { list: 'tasks', title: 'in the new one' }));
  // A link on a parent: Zed's work folder swapped for a link to one holding asks planted for Zed.
  const planted = join(root, 'planted');
  mkdirSync(join(planted, '.binder'), { recursive: true });
  appendFileSync(join(planted, '.binder', ASKS_FILE), askLine('planted', 'add', { list: 'tasks', title: 'planted' }));
  renameSync(join(root, 'R', 'zed'), join(root, 'zed-real'));
  symlinkSync(planted, join(root, 'R', 'zed'));

  await until(() => /ivy\/\.binder is not the folder registered for Ivy/.test(keeper.err()) && /zed\/\.binder is not the folder registered for Zed/.test(keeper.err()),
    10_000, 'the keeper to say both lead elsewhere');
  // Passes go on (a third folder would be served): nothing of either is read.
  const probe = join(root, 'probe');
  mkdirSync(probe);
  assert.equal(admin('side', 'add', probe, 'Probe').code, 0);
  assert.equal((await binderAsync(['lists', '--dir', probe])).code, 0);
  assert.deepEqual(titles(), [], 'nothing planted was done');
  assert.deepEqual(answersIn(join(planted, '.binder')), []);
  assert.equal(existsSync(join(planted, '.binder', HEARTBEAT_FILE)), false, 'not even a heartbeat was written there');

  // A person looks, and registers the new folder again: it is read afresh, as Ivy's.
  const again = admin('side', 'add', dirs.Ivy!, 'Ivy');
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /again/);
  assert.equal((await answerTo(dirs.Ivy!, 'in-the-new-one')).ok, true);
  assert.deepEqual(titles(), ['in the new one']);
  assert.equal(lines(keeper.err(), /ivy\/\.binder is not the folder registered/), 1, 'said once');
  assert.equal(await keeper.stop(), 0);
});
