/**
 * The registered folders, as the keeper reads them at every pass: where the store keeps what it
 * read while nothing changed them (SQLite), a folder added, bound or removed — through this store,
 * inside a transaction of its own, or through another connection on the same binder — is seen at
 * the very next read, and one added in a transaction that was undone never is.
 */
import assert from 'node:assert/strict';
import { ann, eachStore, fresh } from './helpers.js';

eachStore('the registered folders are read again at once after each change, and an undone one is never seen', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  const names = async (): Promise<string[]> => (await f.store.sides()).map((side) => `${side.name}:${side.bound ?? '-'}`);
  assert.deepEqual(await names(), []);
  await f.store.addSide('/tmp/binder-kept-one', 'One', ann);
  assert.deepEqual(await names(), ['One:-']);

  // Inside a transaction, as the catalog's operations run.
  await f.store.transaction(async (s) => {
    await s.addSide('/tmp/binder-kept-two', 'Two', ann);
  });
  assert.deepEqual(await names(), ['One:-', 'Two:-']);
  await f.store.bindSide('/tmp/binder-kept-one', 'key-one');
  assert.deepEqual(await names(), ['One:key-one', 'Two:-']);

  // Seen inside the transaction that adds it, then undone.
  await assert.rejects(f.store.transaction(async (s) => {
    await s.addSide('/tmp/binder-kept-three', 'Three', ann);
    assert.equal((await s.sides()).length, 3);
    throw new Error('undone');
  }), /undone/);
  assert.deepEqual(await names(), ['One:key-one', 'Two:-']);

  // Another connection on the same binder (another keeper, `binder admin`).
  const other = await f.reopen();
  await other.removeSide('Two', ann);
  assert.deepEqual(await names(), ['One:key-one']);
  await other.addSide('/tmp/binder-kept-four', 'Four', ann);
  assert.deepEqual(await names(), ['Four:-', 'One:key-one']);
  await f.store.removeSide('One', ann);
  assert.deepEqual(await names(), ['Four:-']);

  // What a caller does with the rows it was given never reaches the next one.
  const rows = await f.store.sides();
  rows[0]!.name = 'Changed';
  rows.length = 0;
  assert.deepEqual(await names(), ['Four:-']);
});
