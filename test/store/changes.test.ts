/**
 * Transactions and what watchers hear: changes announced only after the outermost commit,
 * never for a rollback; another store object on the same file sees changes through
 * dataVersion; due records told once; the agents' folders.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Change } from '../../src/store/index.js';
import { ann, bot, fresh, refusal, withBatches, eachStore } from './helpers.js';
import { until } from '../helpers/temp.js';

test('onChange hears a change after it is committed, with who and what', async () => {
  const f = await withBatches();
  try {
    const heard: Change[] = [];
    let committedWhenHeard = false;
    const other = (await f.reopen());
    f.store.onChange((c) => {
      heard.push(c);
      committedWhenHeard = other.db.prepare('SELECT count(*) FROM records').pluck().get() === 1;
    });
    const r = await f.store.add('batches', { title: 'x' }, bot);
    assert.equal(heard.length, 1);
    assert.deepEqual(heard[0], { at: new Date(f.clock.ms).toISOString(), by: bot, op: 'add', list: 'batches', record: r.id });
    assert.ok(committedWhenHeard, 'another connection already saw the record');
  } finally {
    await f.done();
  }
});

eachStore('in an outer transaction, changes are announced once it commits, and dropped on rollback', async () => {
  const f = await withBatches();
  try {
    const heard: string[] = [];
    const stop = f.store.onChange((c) => heard.push(`${c.op} ${c.record}`));
    await f.store.transaction(async (tx) => {
      const a = await tx.add('batches', { title: 'a' }, bot);
      await tx.note(a.id, 'n', bot);
      assert.deepEqual(heard, [], 'nothing before the commit');
      // A refused inner operation rolls back its savepoint only.
      assert.match(await refusal(() => tx.move(a.id, 'Doing', bot)), /not approved/);
      await assert.rejects(async () => tx.transaction(async () => {
        await tx.add('batches', { title: 'inner, rolled back' }, bot);
        throw new Error('inner');
      }), /inner/);
    });
    assert.deepEqual(heard, ['add 1', 'note 1']);
    assert.equal((await f.store.show('batches', ann)).records.length, 1);

    heard.length = 0;
    await assert.rejects(async () => f.store.transaction(async (tx) => {
      await tx.add('batches', { title: 'b' }, bot);
      throw new Error('outer');
    }), /outer/);
    assert.deepEqual(heard, []);
    assert.equal((await f.store.show('batches', ann)).records.length, 1);
    stop();
    await f.store.add('batches', { title: 'c' }, bot);
    assert.deepEqual(heard, [], 'no longer listening');
  } finally {
    await f.done();
  }
});

eachStore('a change undone by a savepoint of the caller\'s own is not announced', async () => {
  const f = await withBatches();
  try {
    const heard: string[] = [];
    f.store.onChange((c) => heard.push(`${c.op} ${c.record}`));
    await f.store.transaction(async (tx) => {
      // The caller's own savepoint, rolled back by a bug after the change: the change goes with it.
      await assert.rejects(() => tx.transaction(async (inner) => {
        await inner.add('batches', { title: 'undone' }, bot);
        throw new Error('a bug after the change');
      }), /a bug/);
      await tx.add('batches', { title: 'kept' }, bot);
    });
    assert.equal((await f.store.show('batches', ann)).records.length, 1);
    assert.deepEqual(heard, [`add ${(await f.store.show('batches', ann)).records[0]!.id}`]);
  } finally {
    await f.done();
  }
});

test('a second store object on the same file hears the first one\'s change (onOtherChange)', async () => {
  const f = await withBatches();
  try {
    const other = (await f.reopen());
    let heard = 0;
    const stop = other.onOtherChange(() => { heard++; });
    await other.add('batches', { title: 'from the other' }, bot);
    await f.store.add('batches', { title: 'from the first' }, bot);
    await until(() => heard > 0, 5_000, 'the other store to hear the change');
    stop();
    assert.deepEqual((await other.show('batches', bot)).records.map((r) => r.title), ['from the other', 'from the first']);
  } finally {
    await f.done();
  }
});

eachStore('due records are told once, and again only when their due date changes', async () => {
  const f = await withBatches();
  try {
    const now = new Date(f.clock.ms);
    const day = (d: Date): string => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const past = await f.store.add('batches', { title: 'late', due: '2020-01-01', owners: ['me'] }, bot);
    const today = await f.store.add('batches', { title: 'today', due: day(now) }, bot);
    const later = await f.store.add('batches', { title: 'later', due: '2099-01-01 10:00' }, bot);
    const shelved = await f.store.add('batches', { title: 'archived', due: '2020-01-01' }, bot);
    await f.store.archive(shelved.id, true, bot);
    const told = await f.store.due();
    assert.deepEqual(told.map((d) => d.id), [past.id, today.id]);
    assert.deepEqual(told[0], { id: past.id, list: 'batches', title: 'late', due: '2020-01-01', owners: ['agent:bot'] });
    assert.deepEqual(await f.store.due(), [], 'each once');
    await f.store.edit(past.id, { due: '2020-01-02' }, bot);
    assert.deepEqual((await f.store.due()).map((d) => d.id), [past.id], 'a new due date is told again');
    f.clock.ms = new Date(2099, 0, 1, 10, 0).getTime();
    assert.deepEqual((await f.store.due()).map((d) => d.id), [later.id]);
  } finally {
    await f.done();
  }
});

eachStore('agents\' folders: added by a person under a unique name, agent and folder; removed by name', async () => {
  const f = await fresh();
  try {
    const side = await f.store.addSide('/home/ann/site/.binder/', 'Claude Code', ann);
    assert.deepEqual(side, { name: 'Claude Code', agent: 'agent:claude-code', dir: '/home/ann/site/.binder', created: new Date(f.clock.ms).toISOString(), bound: null });
    assert.match(await refusal(() => f.store.addSide('/elsewhere', 'claude code', ann)), /The name "claude code" is taken/);
    assert.match(await refusal(() => f.store.addSide('/elsewhere', 'Claude-Code', ann)), /is taken/);
    assert.match(await refusal(() => f.store.addSide('/home/ann/site/.binder', 'Other', ann)), /already read for Claude Code/);
    assert.match(await refusal(() => f.store.addSide('relative/dir', 'Other', ann)), /absolute path/);
    // The same folder and name again: bound again, to the directory found there now.
    const again = await f.store.addSide('/home/ann/site/.binder', 'Claude Code', ann, () => '8:1234');
    assert.equal(again.again, true);
    assert.equal((await f.store.sides())[0]!.bound, '8:1234');
    // Another name for the same directory, by another path: one directory is one agent's.
    assert.match(await refusal(() => f.store.addSide('/srv/link/.binder', 'Other', ann, () => '8:1234')), /is the same directory as \/home\/ann\/site\/\.binder, read for Claude Code/);
    assert.equal(await f.store.bindSide('/home/ann/site/.binder', '9:9'), '8:1234', 'a binding a person made is not replaced by a keeper');
    assert.deepEqual((await f.store.sides()).map((s) => s.agent), ['agent:claude-code']);
    assert.equal((await f.store.removeSide('claude code', ann)).dir, '/home/ann/site/.binder');
    assert.deepEqual(await f.store.sides(), []);
    assert.match(await refusal(() => f.store.removeSide('Claude Code', ann)), /There is no agent folder named "Claude Code"/);
  } finally {
    await f.done();
  }
});
