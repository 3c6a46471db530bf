/**
 * Promise 4: a replayed ask id is never done again — with the same arguments, with changed ones,
 * in the same write as the first, after the keeper was killed and started again, and after the
 * asks file was rotated. Asked again after its id was taken (an asker that had no answer, asking
 * with the same id), it is given the answer recorded for it; a line written before (in the same
 * write) is not answered again. Ids belong to their folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../helpers/temp.js';
import { ASKS_FILE } from '../../src/keeper/protocol.js';
import { answersIn, answerTo, askLine, count, integrity, makeBinder, startKeeper, survivalDir } from './harness.js';
import { dbOf } from '../helpers/sqlite-db.js';

test('a replayed ask id, same or changed, is never done again; asked again later, it is given its first answer again', { timeout: 90_000 }, async (t) => {
  const root = survivalDir(t, 'binder-replay-');
  const { storeDir, store, dirs } = await makeBinder(root, 2);
  t.after(() => store.close());
  const [one, two] = dirs as [string, string];
  const append = (dir: string, text: string) => appendFileSync(join(dir, ASKS_FILE), text);
  const titles = () => dbOf(store).prepare('SELECT title FROM records ORDER BY id').pluck().all() as string[];
  const said = (dir: string, id: string) => answersIn(dir).filter((a) => a.ask === id).map((a) => `${a.ok} ${a.text}`);
  let keeper = await startKeeper(storeDir);
  t.after(() => keeper.kill());

  append(one, askLine('r1', 'add', { list: 'tasks', title: 'First' }));
  const first = await answerTo(one, 'r1');
  assert.equal(first.ok, true);
  const r1 = `true ${first.text}`;

  // Same arguments, changed arguments, another operation, and twice in one write: each after a
  // sync ask, so that when the sync is answered the replays before it were read.
  append(one, askLine('r1', 'add', { list: 'tasks', title: 'First' }) + askLine('r1', 'add', { list: 'tasks', title: 'Changed' })
    + askLine('r1', 'move', { id: 1, state: 'Done' }) + askLine('r2', 'add', { list: 'tasks', title: 'Second' })
    + askLine('r2', 'add', { list: 'tasks', title: 'Second again' }) + askLine('s1', 'lists', {}));
  await answerTo(one, 's1');
  assert.deepEqual(said(one, 'r1'), [r1, r1, r1, r1], 'each asking again of r1 given its first answer');
  assert.equal(said(one, 'r2').length, 1, 'r2 twice in one write: answered once');
  const r2 = said(one, 'r2')[0]!;
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

  assert.deepEqual(said(one, 'r1'), [r1, r1, r1, r1, r1, r1], 'r1 given its first answer each time');
  assert.deepEqual(said(one, 'r2'), [r2, r2]);
  for (const id of ['s1', 's2', 's3']) assert.equal(said(one, id).length, 1);
  assert.deepEqual(titles(), ['First', 'Second', 'Another folder'], 'each ask done once');
  assert.equal(count(store, 'SELECT count(*) FROM notes'), 0);
  assert.equal(dbOf(store).prepare('SELECT state FROM records WHERE id = 1').pluck().get(), 'to-do', 'the replayed move was not done');
  await until(() => /already taken/.test(keeper.err()), 5_000, 'the replays said on the keeper\'s stderr');
  assert.equal(await keeper.stop(), 0);
  assert.equal(integrity(store), 'ok');
});
