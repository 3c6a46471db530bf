/**
 * Promise 4: a replayed ask id is not done again and not answered again — with the same
 * arguments, with changed ones, in the same write as the first, after the keeper was killed and
 * started again, and after the asks file was rotated. Ids belong to their folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../helpers/temp.js';
import { ASKS_FILE } from '../../src/keeper/protocol.js';
import { answersIn, answerTo, askLine, count, integrity, makeBinder, startKeeper, survivalDir } from './harness.js';

test('a replayed ask id, same or changed, is never done again nor answered again', { timeout: 90_000 }, async (t) => {
  const root = survivalDir(t, 'binder-replay-');
  const { storeDir, store, dirs } = makeBinder(root, 2);
  t.after(() => store.close());
  const [one, two] = dirs as [string, string];
  const append = (dir: string, text: string) => appendFileSync(join(dir, ASKS_FILE), text);
  const titles = () => store.db.prepare('SELECT title FROM records ORDER BY id').pluck().all() as string[];
  const ids = (dir: string) => answersIn(dir).map((a) => a.ask);
  let keeper = await startKeeper(storeDir);
  t.after(() => keeper.kill());

  append(one, askLine('r1', 'add', { list: 'tasks', title: 'First' }));
  assert.equal((await answerTo(one, 'r1')).ok, true);

  // Same arguments, changed arguments, another operation, and twice in one write: each after a
  // sync ask, so that when the sync is answered the replays before it were read.
  append(one, askLine('r1', 'add', { list: 'tasks', title: 'First' }) + askLine('r1', 'add', { list: 'tasks', title: 'Changed' })
    + askLine('r1', 'move', { id: 1, state: 'Done' }) + askLine('r2', 'add', { list: 'tasks', title: 'Second' })
    + askLine('r2', 'add', { list: 'tasks', title: 'Second again' }) + askLine('s1', 'lists', {}));
  await answerTo(one, 's1');
  assert.deepEqual(ids(one), ['r1', 'r2', 's1']);
  assert.deepEqual(titles(), ['First', 'Second']);

  // Killed and started again: the ledger is in the store, not in the keeper's memory.
  await keeper.kill();
  keeper = await startKeeper(storeDir);
  append(one, askLine('r1', 'add', { list: 'tasks', title: 'After a kill' }) + askLine('r2', 'note', { id: 1, text: 'replayed' }) + askLine('s2', 'lists', {}));
  await answerTo(one, 's2');

  // Rotated: a new asks file, read from its start, holding an old id.
  renameSync(join(one, ASKS_FILE), join(one, 'asks.rotated'));
  append(one, askLine('r1', 'add', { list: 'tasks', title: 'After a rotation' }) + askLine('s3', 'lists', {}));
  await answerTo(one, 's3');

  // The same id from another folder is that folder's own ask.
  append(two, askLine('r1', 'add', { list: 'tasks', title: 'Another folder' }));
  assert.equal((await answerTo(two, 'r1')).ok, true);

  assert.deepEqual(ids(one), ['r1', 'r2', 's1', 's2', 's3'], 'each id answered once');
  assert.deepEqual(titles(), ['First', 'Second', 'Another folder'], 'each ask done once');
  assert.equal(count(store, 'SELECT count(*) FROM notes'), 0);
  assert.equal(store.db.prepare('SELECT state FROM records WHERE id = 1').pluck().get(), 'to-do', 'the replayed move was not done');
  await until(() => /already taken/.test(keeper.err()), 5_000, 'the replays said on the keeper\'s stderr');
  assert.equal(await keeper.stop(), 0);
  assert.equal(integrity(store), 'ok');
});
