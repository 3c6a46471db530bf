/**
 * show: a page of records per state, oldest first, with counts of all that match and how
 * many more are beyond the page — at a hundred thousand records too.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ann, bot, refusal, withBatches, eachStore } from './helpers.js';

eachStore('show pages each state, counts all, and filters by state and owner', async () => {
  const f = await withBatches();
  try {
    for (let i = 0; i < 7; i++) await f.store.add('batches', { title: `p${i}`, owners: i % 2 ? ['me'] : [] }, bot);
    for (let i = 0; i < 3; i++) await f.store.add('batches', { title: `d${i}`, state: 'Doing' }, ann);
    const page = await f.store.show('batches', bot, { limit: 5 });
    assert.deepEqual(page.counts, { proposed: 7, approved: 0, doing: 3, done: 0 });
    assert.deepEqual(page.more, { proposed: 2, approved: 0, doing: 0, done: 0 });
    assert.deepEqual(page.records.map((r) => r.title), ['p0', 'p1', 'p2', 'p3', 'p4', 'd0', 'd1', 'd2']);
    const next = await f.store.show('batches', bot, { limit: 5, offset: 5 });
    assert.deepEqual(next.records.map((r) => r.title), ['p5', 'p6']);
    assert.deepEqual(next.more, { proposed: 0, approved: 0, doing: 0, done: 0 });
    const doing = await f.store.show('batches', bot, { state: 'DOING' });
    assert.deepEqual(Object.keys(doing.counts), ['doing']);
    assert.equal(doing.records.length, 3);
    const mine = await f.store.show('batches', bot, { mine: true });
    assert.deepEqual(mine.records.map((r) => r.title), ['p1', 'p3', 'p5']);
    assert.equal(mine.counts.proposed, 3);
    assert.match(await refusal(() => f.store.show('batches', bot, { state: 'Later' })), /"Later" is not a state of "Batches"/);
  } finally {
    await f.done();
  }
});

test('show at 100,000 records gives 50 per state with the right counts', async () => {
  const f = await withBatches();
  try {
    const states = ['proposed', 'approved', 'doing', 'done'];
    const at = new Date(f.clock.ms).toISOString();
    const insert = f.store.db.prepare(`INSERT INTO records (list, title, state, approved_by, approved_at, created, updated)
        VALUES ('batches', ?, ?, ?, ?, ?, ?)`);
    const who = JSON.stringify(ann);
    await f.store.transaction(async (tx) => {
      for (let i = 0; i < 100_000; i++) {
        const state = states[i % 7 === 0 ? 0 : i % 4]!;
        const approved = state !== 'proposed';
        insert.run(`record ${i}`, state, approved ? who : null, approved ? at : null, at, at);
      }
      // A few archived ones, which are not counted.
      f.store.db.prepare("UPDATE records SET archived = 1 WHERE id % 1000 = 0").run();
    });
    const expected: Record<string, number> = Object.fromEntries(states.map((s) => [s, 0]));
    for (let i = 0; i < 100_000; i++) {
      if ((i + 1) % 1000 === 0) continue;
      expected[states[i % 7 === 0 ? 0 : i % 4]!]! += 1;
    }
    const page = await f.store.show('batches', bot);
    assert.deepEqual(page.counts, expected);
    for (const s of states) {
      const inState = page.records.filter((r) => r.state === s);
      assert.equal(inState.length, 50);
      assert.equal(page.more[s], expected[s]! - 50);
      assert.deepEqual(inState.map((r) => r.id), [...inState.map((r) => r.id)].sort((a, b) => a - b), 'oldest first');
    }
    const last = await f.store.show('batches', bot, { state: 'done', offset: expected.done! - 10 });
    assert.equal(last.records.length, 10);
    assert.equal(last.more.done, 0);
    const summary = (await f.store.lists(bot))[0]!;
    assert.equal(summary.count, 99_900);
    assert.equal(summary.waiting, expected.proposed);
    const plan = f.store.db.prepare(`EXPLAIN QUERY PLAN SELECT * FROM records r
        WHERE r.list = 'batches' AND r.archived = 0 AND r.state = 'doing' ORDER BY r.id LIMIT 50`).all() as { detail: string }[];
    assert.ok(plan.some((p) => p.detail.includes('records_by_list')), JSON.stringify(plan));
    assert.ok(!plan.some((p) => p.detail.includes('TEMP B-TREE')), 'no sort of the whole state');
  } finally {
    await f.done();
  }
});
