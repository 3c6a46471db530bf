/**
 * A claim binds the other agents: while one holds a record, another agent's change to it is
 * refused, naming the holder and until when; a note stays allowed (it is how others talk to
 * the holder, and the holder is told it); a person may do anything; a lapsed claim never blocks.
 */
import assert from 'node:assert/strict';
import { ann, bot, refusal, spy, withBatches, eachStore } from './helpers.js';

const MIN = 60_000;

async function heldByBot() {
  const f = await withBatches();
  await f.store.grant('batches', 'agent:spy', 'write', ann);
  await f.store.editList('batches', { fields: [{ name: 'Scope', type: 'text' }] }, ann);
  const id = (await f.store.add('batches', { title: 'Held' }, ann)).id;
  await f.store.approve(id, true, ann);
  const attached = await f.store.attach(id, { kind: 'branch', ref: 'site:held' }, ann);
  await f.store.take(id, bot);
  return { f, id, attached };
}

eachStore('another agent\'s every change to a held record is refused, naming the holder and until when', async () => {
  const { f, id, attached } = await heldByBot();
  try {
    const before = await f.store.get(id, ann);
    const tries: [string, () => unknown][] = [
      ['edit title', () => f.store.edit(id, { title: 'Mine now' }, spy)],
      ['edit field', () => f.store.edit(id, { fields: { Scope: 'x' } }, spy)],
      ['edit owners', () => f.store.edit(id, { owners: ['me'] }, spy)],
      ['edit due', () => f.store.edit(id, { due: '2026-02-01' }, spy)],
      ['move', () => f.store.move(id, 'Doing', spy)],
      ['archive', () => f.store.archive(id, true, spy)],
      ['attach', () => f.store.attach(id, { kind: 'link', ref: 'https://example.com' }, spy)],
      ['detach', () => f.store.detach(id, String(attached.id), spy)],
      ['take', () => f.store.take(id, spy)],
    ];
    for (const [what, run] of tries) {
      const why = await refusal(run);
      assert.match(why, new RegExp(`^#${id} is taken by Bot until 2026-01-15 12:30 UTC \\(in 30 min\\)`), what);
      assert.match(why, new RegExp(`binder wait ${id}`), `${what}: says how to be told when it is free`);
    }
    assert.match(await refusal(() => f.store.release(id, spy)), /taken by Bot, not you/);
    const after = await f.store.get(id, ann);
    assert.deepEqual(after.record, before.record, 'nothing changed');
    assert.deepEqual(after.history, before.history);

    // A note is how the other agent talks to the holder: allowed, and told to the holder.
    await f.store.brief(bot);
    await f.store.note(id, 'I need this one too', spy);
    assert.deepEqual((await f.store.brief(bot)).items.map((i) => [i.kind, i.by.id, i.text]), [['note', 'agent:spy', 'I need this one too']]);
  } finally {
    await f.done();
  }
});

eachStore('an archived held record is not restored by another agent either', async () => {
  const { f, id } = await heldByBot();
  try {
    await f.store.archive(id, true, ann);
    assert.match(await refusal(() => f.store.archive(id, false, spy)), /is taken by Bot/);
    assert.equal((await f.store.archive(id, false, bot)).archived, false, 'its holder may');
  } finally {
    await f.done();
  }
});

eachStore('the holder and a person change a held record freely; taking a claim away stays a person\'s act', async () => {
  const { f, id } = await heldByBot();
  try {
    assert.equal((await f.store.move(id, 'Doing', bot)).state, 'doing');
    assert.equal((await f.store.edit(id, { due: '2026-02-01' }, bot)).due, '2026-02-01');
    assert.equal((await f.store.edit(id, { fields: { Scope: 'the login page' } }, bot)).fields.scope, 'the login page');
    assert.equal((await f.store.edit(id, { title: 'Renamed by Ann' }, ann)).title, 'Renamed by Ann');
    assert.equal((await f.store.move(id, 'Done', ann)).state, 'done', 'a person moving past the gate approves again');
    assert.equal((await f.store.get(id, ann)).record.lease?.by.id, 'agent:bot', 'still held');
    assert.match(await refusal(() => f.store.release(id, spy)), /only Bot or a person/);
    assert.equal((await f.store.release(id, ann)).holder?.id, 'agent:bot');
    assert.equal((await f.store.move(id, 'Doing', spy)).state, 'doing', 'free again');
  } finally {
    await f.done();
  }
});

eachStore('a lapsed claim never blocks: it is lapsed first, and its history says so', async () => {
  const { f, id } = await heldByBot();
  try {
    f.clock.ms += 31 * MIN;
    assert.equal((await f.store.edit(id, { due: '2026-02-01' }, spy)).due, '2026-02-01');
    const ops = (await f.store.get(id, ann)).history.map((h) => h.op);
    assert.deepEqual(ops.slice(-2), ['lapse', 'edit']);
    assert.equal((await f.store.get(id, ann)).record.lease, undefined);
  } finally {
    await f.done();
  }
});

eachStore('the holder giving it back is told to the others (so that a wait on it returns), not to the holder', async () => {
  const { f, id } = await heldByBot();
  try {
    for (const who of [ann, bot, spy]) await f.store.brief(who);
    assert.equal((await f.store.brief(spy, { record: id, peek: true })).items.length, 0);
    await f.store.release(id, bot);
    const told = (await f.store.brief(spy)).items;
    assert.deepEqual(told.map((i) => [i.kind, i.by.id, i.holder?.id]), [['released', 'agent:bot', 'agent:bot']]);
    assert.deepEqual((await f.store.brief(ann)).items.map((i) => i.kind), ['released']);
    assert.deepEqual((await f.store.brief(bot)).items, [], 'its own release is not news');
  } finally {
    await f.done();
  }
});
