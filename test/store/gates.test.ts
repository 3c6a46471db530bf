/**
 * The gate: a record is at or past a list's gate only once a person approved it; a list has one.
 */
import assert from 'node:assert/strict';
import { ann, bot, fresh, refusal, withBatches, eachStore } from './helpers.js';

eachStore('an agent cannot move a record past the gate; a person approving lets it', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'Dark mode' }, bot);
    assert.equal(
      await refusal(() => f.store.move(r.id, 'Approved', bot)),
      `#${r.id} is not approved: only a person can let it past "Approved". Ask a person to approve it; binder wait ${r.id} returns when one does.`,
    );
    assert.match(await refusal(() => f.store.move(r.id, 'doing', bot)), /is not approved/, 'nor past it');
    assert.equal((await f.store.get(r.id, ann)).record.state, 'proposed');
    const approved = await f.store.approve(r.id, true, ann);
    assert.equal(approved.approved?.by.id, ann.id);
    assert.equal((await f.store.move(r.id, 'Doing', bot)).state, 'doing');
    assert.equal((await f.store.move(r.id, 'Done', bot)).state, 'done');
  } finally {
    await f.done();
  }
});

eachStore('a person moving a record past the gate approves it', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'x' }, bot);
    const moved = await f.store.move(`#${r.id}`, 'doing', ann);
    assert.equal(moved.state, 'doing');
    assert.deepEqual(moved.approved, { by: ann, at: new Date(f.clock.ms).toISOString() });
    const last = (await f.store.get(r.id, ann)).history.at(-1)!;
    assert.deepEqual(last.change, { from: 'proposed', to: 'doing', approved: true });
  } finally {
    await f.done();
  }
});

eachStore('an agent cannot add a record at or past the gate; a person adding there approves it', async () => {
  const f = await withBatches();
  try {
    for (const state of ['Approved', 'Doing', 'done']) {
      assert.match(await refusal(() => f.store.add('batches', { title: 'sneak', state }, bot)),
        /only a person can let it past "Approved"\. Add it to "Proposed" and ask a person to approve it\./);
    }
    assert.equal((await f.store.show('batches', ann)).records.length, 0);
    const r = await f.store.add('batches', { title: 'mine', state: 'Doing' }, ann);
    assert.equal(r.state, 'doing');
    assert.equal(r.approved?.by.id, ann.id);
    const agents = await f.store.add('batches', { title: 'theirs', state: 'proposed' }, bot);
    assert.equal(agents.approved, null);
  } finally {
    await f.done();
  }
});

eachStore('withdrawing approval of a record at or past the gate moves it back before the gate', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'x' }, bot);
    await f.store.move(r.id, 'Done', ann);
    const back = await f.store.approve(r.id, false, ann);
    assert.equal(back.state, 'proposed');
    assert.equal(back.approved, null);
    assert.match(await refusal(() => f.store.move(r.id, 'Doing', bot)), /is not approved/);
    // Withdrawing before the gate only clears the approval.
    await f.store.approve(r.id, true, ann);
    const kept = await f.store.approve(r.id, false, ann);
    assert.equal(kept.state, 'proposed');
    assert.equal(kept.approved, null);
  } finally {
    await f.done();
  }
});

eachStore('approving twice is harmless and keeps the first approval', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'x' }, bot);
    const first = await f.store.approve(r.id, true, ann);
    f.clock.ms += 60_000;
    const second = await f.store.approve(r.id, true, { id: 'person:bea', kind: 'person', name: 'Bea' });
    assert.deepEqual(second.approved, first.approved);
    assert.equal((await f.store.get(r.id, ann)).history.filter((h) => h.op === 'approve').length, 1);
  } finally {
    await f.done();
  }
});

eachStore('only a person approves, and an agent cannot approve its own record', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'x' }, bot);
    assert.equal(await refusal(() => f.store.approve(r.id, true, bot)),
      'Only a person can approve a record or withdraw its approval: a person does it on their screen or with `binder admin approve`.');
    assert.equal((await f.store.get(r.id, ann)).record.approved, null);
  } finally {
    await f.done();
  }
});

eachStore('a gate cannot be the first state', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'blank' }, ann);
    const list = await f.store.list('blank', ann);
    assert.match(await refusal(() => f.store.editList('blank', {
      states: list.states.map((s, i) => ({ id: s.id, name: s.name, gate: i === 0 })),
    }, ann)), /cannot be a gate: a gate needs a state before it/);
    const edited = await f.store.editList('blank', {
      states: list.states.map((s, i) => ({ id: s.id, name: s.name, gate: i === 1 })),
    }, ann);
    assert.deepEqual(edited.states.map((s) => s.gate), [false, true]);
  } finally {
    await f.done();
  }
});

eachStore('a list has one gate: a second is refused, so no state is marked a gate that an approved record goes through', async () => {
  const f = await withBatches();
  try {
    const list = await f.store.list('batches', ann);
    // The hole: Review marked a gate after Doing, and an approved record went on through it.
    const sentence = await refusal(() => f.store.editList('batches', {
      states: [...list.states.slice(0, 3).map((s) => ({ id: s.id, name: s.name, gate: s.gate })), { name: 'Review', gate: true }, { id: 'done', name: 'Done' }],
    }, ann));
    assert.match(sentence, /A list has one gate, and "Approved" and "Review" would be 2: .*Keep one \(--ungate the others\)/);
    assert.deepEqual((await f.store.list('batches', ann)).states.map((s) => s.name), ['Proposed', 'Approved', 'Doing', 'Done'], 'nothing changed');
    // The gate moved, not doubled: one state is the gate.
    const moved = await f.store.editList('batches', {
      states: [...list.states.slice(0, 3).map((s) => ({ id: s.id, name: s.name, gate: false })), { name: 'Review', gate: true }, { id: 'done', name: 'Done' }],
    }, ann);
    assert.deepEqual(moved.states.filter((s) => s.gate).map((s) => s.name), ['Review']);
    const r = await f.store.add('batches', { title: 'x' }, bot);
    await f.store.move(r.id, 'Doing', bot);
    assert.match(await refusal(() => f.store.move(r.id, 'Review', bot)), /is not approved: only a person can let it past "Review"/);
  } finally {
    await f.done();
  }
});

eachStore('lists counts the records waiting for a person before the gate', async () => {
  const f = await withBatches();
  try {
    await f.store.add('batches', { title: 'a' }, bot);
    const b = await f.store.add('batches', { title: 'b' }, bot);
    await f.store.add('batches', { title: 'c', state: 'Doing' }, ann);
    await f.store.approve(b.id, true, ann);
    const [summary] = await f.store.lists(ann);
    assert.equal(summary!.count, 3);
    assert.equal(summary!.waiting, 1);
  } finally {
    await f.done();
  }
});
