/**
 * Operations nested in one transaction (as the keeper does each ask of a batch): the one that
 * fails is undone alone, whatever it had written, however deep, and whether or not anything ran
 * before it; one that succeeds inside one that then fails is undone with it. PostgreSQL says a
 * savepoint only once a statement runs inside it, one for several at once, and never releases
 * one; SQLite says one for several asked with nothing run between them: these are the cases
 * that could tell.
 */
import assert from 'node:assert/strict';
import { ann, bot, eachStore, withBatches } from './helpers.js';
import type { Store } from '../../src/store/index.js';

class Boom extends Error {}
const titles = async (s: Store): Promise<string[]> =>
  (await s.show('batches', ann)).records.map((r) => r.title).sort();

eachStore('savepoints: a failed operation in a transaction is undone alone, at any depth', async () => {
  const f = await withBatches();
  try {
    await f.store.transaction(async (tx) => {
      await tx.add('batches', { title: 'a kept' }, bot);
      // Fails after writing: undone.
      await assert.rejects(tx.transaction(async (inner) => {
        await inner.add('batches', { title: 'b undone' }, bot);
        throw new Boom();
      }), Boom);
      // Fails before any statement: nothing to undo, and the transaction goes on.
      await assert.rejects(tx.transaction(async () => { throw new Boom(); }), Boom);
      // Nested with nothing between them; the innermost fails, the outer goes on and is kept.
      await tx.transaction(async (outer) => {
        await assert.rejects(outer.transaction(async (inner) => {
          await inner.add('batches', { title: 'c undone' }, bot);
          throw new Boom();
        }), Boom);
        await outer.add('batches', { title: 'd kept' }, bot);
      });
      // The inner succeeds, the outer then fails: both undone.
      await assert.rejects(tx.transaction(async (outer) => {
        await outer.transaction(async (inner) => { await inner.add('batches', { title: 'e undone' }, bot); });
        await outer.add('batches', { title: 'f undone' }, bot);
        throw new Boom();
      }), Boom);
      // A refusal by a rule, after the operation read: undone, and the next one done.
      await assert.rejects(tx.transaction((inner) => inner.note(999, 'nowhere', bot)));
      await tx.note(1, 'on a', bot);
      // Failing twice to the same place: each time back to it.
      await tx.transaction(async (outer) => {
        for (const title of ['g undone', 'h undone']) {
          await assert.rejects(outer.transaction(async (inner) => {
            await inner.add('batches', { title }, bot);
            throw new Boom();
          }), Boom);
        }
        await outer.add('batches', { title: 'i kept' }, bot);
      });
      // Written inside the outer, then an inner left with nothing run in it, then one that fails:
      // only the failed one is undone, never what the outer wrote before them.
      await tx.transaction(async (outer) => {
        await outer.add('batches', { title: 'j kept' }, bot);
        await outer.transaction(async () => undefined);
        await assert.rejects(outer.transaction(async (inner) => {
          await inner.add('batches', { title: 'k undone' }, bot);
          throw new Boom();
        }), Boom);
      });
    });
    assert.deepEqual(await titles(f.store), ['a kept', 'd kept', 'i kept', 'j kept']);
    assert.equal((await f.store.get(1, ann)).record.notes.length, 1);
  } finally {
    await f.done();
  }
});
