/**
 * The store says what is so: archiving what is archived and restoring what is not are refused
 * with a sentence (nothing was done), a record that is not approved points to `binder wait`,
 * `ready` says which lists the asker may only read, and a taken record taken again says when
 * its claim ended before.
 */
import assert from 'node:assert/strict';
import { ann, bot, refusal, spy, withBatches, eachStore } from './helpers.js';

eachStore('archive of an archived record, and restore of one that is not, say so and change nothing', async () => {
  const f = await withBatches();
  try {
    const id = (await f.store.add('batches', { title: 'Batch' }, bot)).id;
    assert.equal(await refusal(() => f.store.archive(id, false, bot)), `#${id} is not archived: there is nothing to restore.`);
    await f.store.archive(id, true, bot);
    assert.equal(await refusal(() => f.store.archive(id, true, bot)), `#${id} is archived already: binder restore ${id} brings it back.`);
    assert.equal(await refusal(() => f.store.archive(id, true, ann)), `#${id} is archived already: binder restore ${id} brings it back.`);
    assert.deepEqual((await f.store.get(id, ann)).history.map((h) => h.op), ['add', 'archive']);
  } finally {
    await f.done();
  }
});

eachStore('the not-approved refusal says that binder wait ID tells when a person approves', async () => {
  const f = await withBatches();
  try {
    const id = (await f.store.add('batches', { title: 'Batch' }, bot)).id;
    assert.equal(await refusal(() => f.store.move(id, 'Doing', bot)),
      `#${id} is not approved: only a person can let it past "Approved". Ask a person to approve it; binder wait ${id} returns when one does.`);
  } finally {
    await f.done();
  }
});

eachStore('ready names the lists the asker may only read, where nothing is its to start', async () => {
  const f = await withBatches();
  try {
    await f.store.grant('batches', 'agent:spy', 'read', ann);
    await f.store.createList({ template: 'tasks' }, ann);
    await f.store.grant('tasks', 'agent:bot', 'read', ann);
    const id = (await f.store.add('batches', { title: 'Batch' }, ann)).id;
    await f.store.approve(id, true, ann);
    const forSpy = await f.store.ready(undefined, spy);
    assert.deepEqual(forSpy.lists, []);
    assert.deepEqual(forSpy.readOnly, ['batches']);
    const forBot = await f.store.ready(undefined, bot);
    assert.deepEqual(forBot.lists.map((l) => [l.list, l.total]), [['batches', 1]]);
    assert.deepEqual(forBot.readOnly, ['tasks']);
    assert.deepEqual((await f.store.ready('batches', bot)).readOnly, [], 'one list asked: only that one');
    assert.deepEqual((await f.store.ready(undefined, ann)).readOnly, [], 'a person may change every list');
  } finally {
    await f.done();
  }
});

eachStore('a claim taken again says when it ended before, shorter or longer', async () => {
  const f = await withBatches();
  try {
    const id = (await f.store.add('batches', { title: 'Batch' }, ann)).id;
    await f.store.approve(id, true, ann);
    const first = await f.store.take(id, bot, { forMs: 24 * 3600_000 });
    assert.equal(first.previous, undefined);
    const shorter = await f.store.take(id, bot, { forMs: 5000 });
    assert.equal(shorter.previous, first.until);
    assert.equal(shorter.until, new Date(f.clock.ms + 5000).toISOString(), 'shortened, as asked');
  } finally {
    await f.done();
  }
});
