/**
 * An approval is of what was approved: an agent's change to the title or a field of an approved
 * record withdraws the approval (and puts it back before the gate if it was past it), in the
 * same transaction, with a history row that says why; a person's own change keeps it, and an
 * agent's owners, due date, notes and attachments are not what was approved.
 */
import assert from 'node:assert/strict';
import { ann, bea, bot, refusal, withBatches, eachStore } from './helpers.js';
import { approvalMark } from '../../src/store/approval-mark.js';

eachStore('an approved record retitled by an agent loses its approval and goes back before the gate (the exact attack)', async () => {
  const f = await withBatches();
  try {
    const id = (await f.store.add('batches', { title: 'Harmless: fix typo' }, bot)).id;
    await f.store.approve(id, true, ann);
    await f.store.move(id, 'Doing', bot);
    await f.store.brief(ann);
    const edited = await f.store.edit(id, { title: 'Drop the production database' }, bot);
    assert.equal(edited.title, 'Drop the production database');
    assert.equal(edited.approved, null, 'the approval is withdrawn');
    assert.equal(edited.state, 'proposed', 'back before the gate');
    assert.deepEqual(edited.withdrawn, { approval: { by: ann, at: new Date(f.clock.ms).toISOString() }, title: true, fields: [], from: 'doing', to: 'proposed' });
    assert.match(await refusal(() => f.store.move(id, 'Doing', bot)), /is not approved/);

    const history = (await f.store.get(id, ann)).history.slice(-2);
    assert.deepEqual(history.map((h) => [h.op, h.by.id]), [['edit', 'agent:bot'], ['withdraw', 'agent:bot']]);
    assert.deepEqual(history[1]!.change, { approved: false, title: true, from: 'doing', to: 'proposed' });

    // The person is told, with what changed and where the record went back to.
    const told = (await f.store.brief(ann)).items;
    assert.deepEqual(told.map((i) => [i.kind, i.by.id, i.title, i.changed, i.from, i.to]),
      [['withdrawn', 'agent:bot', 'Drop the production database', ['title'], 'Doing', 'Proposed']]);

    // Approved again, it may pass again.
    await f.store.approve(id, true, ann);
    assert.equal((await f.store.move(id, 'Doing', bot)).state, 'doing');
  } finally {
    await f.done();
  }
});

eachStore('a field changed by an agent withdraws the approval; before the gate it only clears it', async () => {
  const f = await withBatches();
  try {
    await f.store.editList('batches', { fields: [{ name: 'Scope', type: 'text' }, { name: 'Size', type: 'number' }] }, ann);
    const id = (await f.store.add('batches', { title: 'Batch', fields: { Scope: 'the login page' } }, bot)).id;
    await f.store.approve(id, true, ann);
    const edited = await f.store.edit(id, { fields: { Scope: 'every page', Size: '3' } }, bot);
    assert.equal(edited.approved, null);
    assert.equal(edited.state, 'proposed');
    assert.deepEqual([edited.withdrawn?.title, edited.withdrawn?.fields], [false, ['scope', 'size']]);
    assert.equal(edited.withdrawn?.to, undefined, 'it was before the gate: not moved');
    assert.deepEqual((await f.store.get(id, ann)).history.at(-1)!.change, { approved: false, fields: ['scope', 'size'] });
    const told = (await f.store.brief(ann)).items.filter((i) => i.kind === 'withdrawn');
    assert.deepEqual(told.map((i) => [i.changed, i.to]), [[['Scope', 'Size'], undefined]], 'the fields by their names');
    // Clearing a field is a change of it too.
    await f.store.approve(id, true, ann);
    assert.equal((await f.store.edit(id, { fields: { Size: '' } }, bot)).approved, null);
  } finally {
    await f.done();
  }
});

eachStore('owners, due date, notes and attachments by an agent keep the approval, and so does an edit that changes nothing', async () => {
  const f = await withBatches();
  try {
    const id = (await f.store.add('batches', { title: 'Batch' }, bot)).id;
    await f.store.approve(id, true, ann);
    await f.store.move(id, 'Doing', bot);
    await f.store.edit(id, { owners: ['me'], due: '2026-02-01' }, bot);
    await f.store.edit(id, { title: '  Batch ' }, bot);
    await f.store.note(id, 'started', bot);
    await f.store.attach(id, { kind: 'link', ref: 'https://example.com' }, bot);
    const kept = (await f.store.get(id, ann)).record;
    assert.equal(kept.approved?.by.id, ann.id);
    assert.equal(kept.state, 'doing');
    assert.ok(!(await f.store.get(id, ann)).history.some((h) => h.op === 'withdraw'));
  } finally {
    await f.done();
  }
});

eachStore('a person\'s own change keeps the approval, another person\'s too', async () => {
  const f = await withBatches();
  try {
    await f.store.editList('batches', { fields: [{ name: 'Scope', type: 'text' }] }, ann);
    const id = (await f.store.add('batches', { title: 'Batch' }, bot)).id;
    await f.store.approve(id, true, ann);
    await f.store.move(id, 'Doing', bot);
    const edited = await f.store.edit(id, { title: 'Batch, reworded', fields: { Scope: 'all' } }, bea);
    assert.equal(edited.approved?.by.id, ann.id);
    assert.equal(edited.state, 'doing');
    assert.equal(edited.withdrawn, undefined);
  } finally {
    await f.done();
  }
});

eachStore('a refused edit withdraws nothing: the change and the withdrawal are one', async () => {
  const f = await withBatches();
  try {
    await f.store.editList('batches', { fields: [{ name: 'Size', type: 'number' }] }, ann);
    const id = (await f.store.add('batches', { title: 'Batch' }, bot)).id;
    await f.store.approve(id, true, ann);
    await f.store.move(id, 'Doing', bot);
    assert.match(await refusal(() => f.store.edit(id, { title: 'Other', fields: { Size: 'many' } }, bot)), /is a number/);
    const after = await f.store.get(id, ann);
    assert.equal(after.record.title, 'Batch');
    assert.equal(after.record.approved?.by.id, ann.id);
    assert.equal(after.record.state, 'doing');
  } finally {
    await f.done();
  }
});

eachStore('an approval is of what the person was shown: an agent\'s edit since their look refuses it, and nothing is approved', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'Tidy the logs' }, bot);
    const shown = approvalMark(r.title, r.fields);
    // Between the person's look and their key, the agent changes the words.
    await f.store.edit(r.id, { title: 'Delete the logs' }, bot);
    assert.match(await refusal(() => f.store.approve(r.id, true, ann, shown)), /changed since you looked: .*Look at it again, then approve it/);
    assert.equal((await f.store.get(r.id, ann)).record.approved, null);
    const now = (await f.store.get(r.id, ann)).record;
    assert.equal((await f.store.approve(r.id, true, ann, approvalMark(now.title, now.fields))).approved?.by.id, ann.id, 'approved once looked at again');
  } finally {
    await f.done();
  }
});

eachStore('a person\'s move past the gate with the mark of what they were shown is an approval of it: refused after an agent\'s edit, nothing moved', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'Tidy the logs' }, bot);
    const shown = approvalMark(r.title, r.fields);
    await f.store.edit(r.id, { title: 'Delete the logs' }, bot);
    assert.match(await refusal(() => f.store.move(r.id, 'Approved', ann, shown)), /changed since you looked: .*binder admin approve \d+ --seen \S+ approves what it says now/);
    const after = (await f.store.get(r.id, ann)).record;
    assert.equal(after.state, 'proposed', 'nothing moved');
    assert.equal(after.approved, null);
    // A move that does not approve takes no mark into account.
    assert.equal((await f.store.move(r.id, 'Proposed', ann, 'anything')).state, 'proposed');
    const moved = await f.store.move(r.id, 'Approved', ann, approvalMark(after.title, after.fields));
    assert.equal(moved.state, 'approved');
    assert.equal(moved.approved?.by.id, ann.id);
    const history = (await f.store.get(r.id, ann)).history;
    assert.deepEqual(history.at(-1)?.change, { from: 'proposed', to: 'approved', approved: true }, 'written as an approval');
  } finally {
    await f.done();
  }
});

eachStore('a step with the mark of where the record was shown is refused when it moved since: nothing moves on from where someone else put it', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'Tidy the logs' }, bot);
    await f.store.approve(r.id, true, ann);
    const approved = await f.store.move(r.id, 'Approved', ann);
    // The person looks at it in Approved; before their key, the agent starts it.
    const shown = approvalMark(approved.title, approved.fields, approved.state);
    await f.store.move(r.id, 'Doing', bot);
    assert.match(await refusal(() => f.store.move(r.id, 'Done', ann, shown)), /moved since you looked: it was in Approved, it is in Doing now\. Nothing was moved/);
    assert.equal((await f.store.get(r.id, ann)).record.state, 'doing', 'nothing moved');
    // Where it was shown, the same mark moves it, and past the gate it approves what was shown.
    const other = await f.store.add('batches', { title: 'Rotate the keys' }, bot);
    const here = approvalMark(other.title, other.fields, other.state);
    const passed = await f.store.move(other.id, 'Approved', ann, here);
    assert.equal(passed.approved?.by.id, ann.id);
    const third = await f.store.add('batches', { title: 'Sweep the cache' }, bot);
    const looked = approvalMark(third.title, third.fields, third.state);
    await f.store.edit(third.id, { title: 'Drop the cache tables' }, bot);
    assert.match(await refusal(() => f.store.move(third.id, 'Approved', ann, looked)), /changed since you looked/);
    assert.equal((await f.store.get(third.id, ann)).record.state, 'proposed');
  } finally {
    await f.done();
  }
});
