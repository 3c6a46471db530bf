/**
 * Promise 2: a keeper killed between commit and answer. `binder serve` started with the test hook
 * BINDER_TEST_CRASH_AFTER_COMMIT=1 kills itself (SIGKILL) right after its first commit of asks;
 * the next keeper appends the answers from the store, once, and does nothing again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { binderAsync } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';
import { answeredTwice, answersIn, answerTo, appendAsk, count, integrity, makeBinder, startKeeper, survivalDir } from './harness.js';
import { ASKS_FILE } from '../../src/keeper/protocol.js';
import { dbOf } from '../helpers/sqlite-db.js';

test('killed between commit and answer: the answers are appended on restart, the changes are not redone', { timeout: 90_000 }, async (t) => {
  const root = survivalDir(t, 'binder-window-');
  const { storeDir, store, dirs } = await makeBinder(root, 2);
  t.after(() => store.close());
  const [one, two] = dirs as [string, string];

  // A real `binder add` waits for its answer; a raw ask and a note wait in the other folder.
  const waiting = binderAsync(['add', 'Tasks', 'Dark mode', '--dir', one], { env: { BINDER_WAIT_MS: '60000' } });
  await until(() => existsSync(join(one, ASKS_FILE)) && readFileSync(join(one, ASKS_FILE), 'utf8').includes('Dark mode'), 15_000, 'the ask line');
  appendAsk(two, 'raw-add', 'add', { list: 'tasks', title: 'Raw add', note: 'first note' });

  const killed = await startKeeper(storeDir, ['--quiet'], { BINDER_TEST_CRASH_AFTER_COMMIT: '1' }, false);
  assert.equal(await killed.exit, 'SIGKILL', killed.err());
  const records = () => count(store, 'SELECT count(*) FROM records');
  assert.equal(records(), 2, 'both adds were committed');
  assert.equal(count(store, 'SELECT count(*) FROM notes'), 1);
  assert.equal(count(store, 'SELECT count(*) FROM asks WHERE delivered = 0 AND answer IS NOT NULL'), 2, 'with their answers, undelivered');
  assert.deepEqual([...answersIn(one), ...answersIn(two)], [], 'nothing was answered before the kill');

  const next = await startKeeper(storeDir);
  const run = await waiting;
  assert.equal(run.code, 0, run.err);
  const added = /^Added #(\d+) to tasks/.exec(run.out);
  assert.ok(added, run.out);
  assert.equal(dbOf(store).prepare('SELECT title FROM records WHERE id = ?').pluck().get(Number(added[1])), 'Dark mode',
    'the answer names the record the killed keeper made');
  const raw = await answerTo(two, 'raw-add');
  assert.equal(raw.ok, true, raw.text);
  await until(() => count(store, 'SELECT count(*) FROM asks WHERE delivered = 0') === 0, 10_000, 'every answer delivered');

  // A third keeper, after a clean stop, appends nothing again; a new ask still goes through once.
  assert.equal(await next.stop(), 0, next.err());
  const third = await startKeeper(storeDir);
  t.after(() => third.kill());
  appendAsk(two, 'after', 'note', { id: Number(/#(\d+)/.exec(raw.text)![1]), text: 'after the restart' });
  await answerTo(two, 'after');
  assert.equal(await third.stop(), 0, third.err());

  assert.equal(records(), 2, 'no add was done twice');
  assert.equal(count(store, "SELECT count(*) FROM log WHERE op = 'add'"), 2);
  assert.equal(count(store, 'SELECT count(*) FROM notes'), 2);
  assert.equal(answersIn(one).length, 1, 'the `binder add` answered once');
  assert.deepEqual(answersIn(two).map((a) => a.ask), ['raw-add', 'after']);
  assert.deepEqual([...answeredTwice(one), ...answeredTwice(two)], []);
  assert.equal(integrity(store), 'ok');
});
