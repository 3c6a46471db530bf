/**
 * A list's counts are kept by triggers, not counted on each ask: after any run of changes they
 * must equal the records counted one by one, and a store made before they existed gets them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type Database from 'better-sqlite3';
import { ann, fresh } from './helpers.js';

function kept(db: Database.Database): unknown[] {
  return db.prepare('SELECT list, archived, state, approved, n FROM record_counts ORDER BY 1, 2, 3, 4').all();
}

function counted(db: Database.Database): unknown[] {
  return db.prepare(`SELECT list, archived, state, approved_by IS NOT NULL AS approved, count(*) AS n
      FROM records GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`).all();
}

const step = fc.oneof(
  fc.record({ op: fc.constant('add' as const), list: fc.nat(1), state: fc.nat(3) }),
  fc.record({ op: fc.constant('move' as const), pick: fc.nat(), state: fc.nat(3) }),
  fc.record({ op: fc.constant('approve' as const), pick: fc.nat(), yes: fc.boolean() }),
  fc.record({ op: fc.constant('archive' as const), pick: fc.nat(), yes: fc.boolean() }),
  fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }),
);

test('kept counts equal the records counted, whatever changes come in any order', async () => {
  await fc.assert(fc.asyncProperty(fc.array(step, { maxLength: 40 }), fc.boolean(), async (steps, dropList) => {
    const f = await fresh();
    try {
      const lists = ['batches', 'tasks'];
      for (const template of lists) await f.store.createList({ template }, ann);
      const ids: number[] = [];
      for (const s of steps) {
        const id = ids.length ? ids[('pick' in s ? s.pick : 0) % ids.length]! : undefined;
        try {
          if (s.op === 'add') {
            const list = await f.store.list(lists[s.list]!, ann);
            ids.push((await f.store.add(list.id, { title: 'r', state: list.states[s.state % list.states.length]!.name }, ann)).id);
          } else if (id === undefined) {
            continue;
          } else if (s.op === 'move') {
            const list = await f.store.list((await f.store.get(id, ann)).record.list, ann);
            await f.store.move(id, list.states[s.state % list.states.length]!.name, ann);
          } else if (s.op === 'approve') {
            await f.store.approve(id, s.yes, ann);
          } else if (s.op === 'archive') {
            await f.store.archive(id, s.yes, ann);
          } else {
            await f.store.delete(id, ann);
            ids.splice(ids.indexOf(id), 1);
          }
        } catch (e) {
          if (!(e instanceof Error && e.name === 'Refused')) throw e;
        }
        assert.deepEqual(kept(f.store.db), counted(f.store.db));
      }
      if (dropList) {
        await f.store.deleteList('tasks', ann);
        assert.deepEqual(kept(f.store.db), counted(f.store.db));
      }
      const shown = await f.store.lists(ann);
      for (const summary of shown) {
        const n = f.store.db.prepare('SELECT count(*) FROM records WHERE list = ? AND archived = 0').pluck().get(summary.id);
        assert.equal(summary.count, n);
      }
    } finally {
      await f.done();
    }
  }), { numRuns: 40 });
});

test('a store made before kept counts gets them counted when it is opened', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'batches' }, ann);
    for (let i = 0; i < 5; i++) await f.store.add('batches', { title: `r${i}` }, ann);
    const one = await f.store.add('batches', { title: 'approved' }, ann);
    await f.store.approve(one.id, true, ann);
    await f.store.archive((await f.store.add('batches', { title: 'old' }, ann)).id, true, ann);
    const before = counted(f.store.db);
    // As the store was at version 3: no kept counts, no triggers.
    f.store.db.exec(`DROP TRIGGER records_counted; DROP TRIGGER records_uncounted; DROP TRIGGER records_recounted;
        DROP TABLE record_counts; DROP INDEX asks_to_forget; DROP INDEX records_open; DROP INDEX records_priority; DROP INDEX records_priorite;
        DROP TABLE needs; ALTER TABLE log DROP COLUMN imported; ALTER TABLE sides DROP COLUMN bound; DROP TABLE tokens; ALTER TABLE lists DROP COLUMN lang;
        DROP TABLE login_links; DROP TABLE sessions; DROP TABLE people; DROP TABLE orgs; DROP TABLE token_orgs; DROP TABLE signin_used; DROP TABLE signin_seal; DROP TABLE signin_issuer;
        DROP TABLE note_text; DROP TABLE parents; ALTER TABLE lists DROP COLUMN children_first; DROP TABLE hook_deliveries; DROP TABLE hooks;
        PRAGMA user_version = 3;`);
    await f.store.close();
    const again = (await f.reopen());
    assert.deepEqual(kept(again.db), before);
    const batches = (await again.lists(ann)).find((l) => l.id === 'batches')!;
    assert.equal(batches.count, 6);
    assert.equal(batches.waiting, 5, 'the five not approved before the gate');
  } finally {
    await f.done();
  }
});
