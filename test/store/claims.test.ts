/** Claims with a lease, what is ready to start, and the brief of what changed: the store's rules. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ann, bot, spy, refusal, withBatches, fresh, type Fixture, eachStore } from './helpers.js';
import { openStore, type Who } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/schema.js';
import { inOrder } from '../helpers/temp.js';

const MIN = 60_000;
const approved = async (f: Fixture, title: string, who: Who = bot): Promise<number> => {
  const r = await f.store.add('batches', { title }, who);
  await f.store.approve(r.id, true, ann);
  return r.id;
};

test('take: the asker becomes the holder under a lease; another is told who holds it and until when', async () => {
  const f = await withBatches();
  try {
    await f.store.grant('batches', 'agent:spy', 'write', ann);
    const id = await approved(f, 'Dark mode');
    const taken = await f.store.take(id, bot);
    assert.deepEqual(taken.record.owners, ['agent:bot']);
    assert.equal(taken.until, new Date(f.clock.ms + 30 * MIN).toISOString(), 'thirty minutes by default');
    assert.equal(taken.extended, false);
    assert.deepEqual(taken.record.lease, { by: bot, until: taken.until });

    const why = await refusal(() => f.store.take(id, spy));
    assert.match(why, /^#\d+ is taken by Bot until 2026-01-15 12:30 UTC \(in 30 min\)/);
    // The same from another connection to the same file: the claim is in the store, not in a process.
    const other = (await f.reopen());
    assert.match(await refusal(() => other.take(id, spy)), /taken by Bot/);

    f.clock.ms += 10 * MIN;
    const again = await f.store.take(id, bot, { forMs: 2 * 3600_000 });
    assert.equal(again.extended, true);
    assert.equal(again.until, new Date(f.clock.ms + 2 * 3600_000).toISOString());
    const ops = (await f.store.get(id, ann)).history.map((h) => h.op);
    assert.deepEqual(ops.filter((op) => op === 'take'), ['take', 'take']);

    assert.match(await refusal(() => f.store.take(id, bot, { forMs: 25 * 3600_000 })), /at most a day/);
    assert.match(await refusal(() => f.store.take(id, bot, { forMs: 10 })), /at least a second/);
    assert.match(await refusal(() => f.store.take(id, { id: 'agent:nobody', kind: 'agent', name: 'Nobody' })), /no record/);
  } finally {
    await f.done();
  }
});

eachStore('a record owned by someone else is not free; a lapsed lease frees it, and its history says so', async () => {
  const f = await withBatches();
  try {
    await f.store.grant('batches', 'agent:spy', 'write', ann);
    const owned = (await f.store.add('batches', { title: 'Owned', owners: ['person:ann'] }, ann)).id;
    await f.store.approve(owned, true, ann);
    assert.match(await refusal(() => f.store.take(owned, bot)), /belongs to "person:ann"/);

    const id = await approved(f, 'Leased');
    await f.store.take(id, bot, { forMs: 5 * MIN });
    f.clock.ms += 5 * MIN;
    const taken = await f.store.take(id, spy);
    assert.deepEqual(taken.record.owners, ['agent:spy'], 'the lapsed holder left the owners');
    const history = (await f.store.get(id, ann)).history;
    const lapse = history.find((h) => h.op === 'lapse');
    assert.ok(lapse, 'a lapse row');
    assert.equal(lapse.by.id, 'agent:bot', 'by its holder');
    assert.deepEqual(lapse.change, { until: new Date(f.clock.ms).toISOString() });

    // lapse() alone (the keeper's periodic pass) frees and reports once.
    f.clock.ms += 31 * MIN;
    assert.deepEqual((await f.store.lapse()).map((c) => [c.id, c.by.id]), [[id, 'agent:spy']]);
    assert.deepEqual(await f.store.lapse(), []);
    assert.deepEqual((await f.store.get(id, ann)).record.owners, []);
    assert.equal((await f.store.get(id, ann)).record.lease, undefined);
  } finally {
    await f.done();
  }
});

eachStore('release: the holder gives it back with a note; an agent cannot end another\'s claim; a person can', async () => {
  const f = await withBatches();
  try {
    await f.store.grant('batches', 'agent:spy', 'write', ann);
    const id = await approved(f, 'Work');
    await f.store.take(id, bot);
    assert.match(await refusal(() => f.store.release(id, spy)), /taken by Bot, not you: only Bot or a person/);
    const given = await f.store.release(id, bot, 'half done: the login page');
    assert.equal(given.holder?.id, 'agent:bot');
    assert.equal(given.note?.text, 'half done: the login page');
    assert.deepEqual(given.record.owners, []);
    assert.equal(given.record.lease, undefined);
    assert.equal((await f.store.release(id, bot)).holder, null, 'nothing left to give back');

    await f.store.take(id, spy);
    const away = await f.store.release(id, ann);
    assert.equal(away.holder?.id, 'agent:spy');
    const row = (await f.store.get(id, ann)).history.at(-1)!;
    assert.equal(row.op, 'release');
    assert.equal(row.by.id, 'person:ann');
  } finally {
    await f.done();
  }
});

eachStore('ready: approved past a gate, not done, free, not archived; oldest first; take --next takes the first', async () => {
  const f = await withBatches();
  try {
    await f.store.grant('batches', 'agent:spy', 'write', ann);
    const waiting = (await f.store.add('batches', { title: 'Not approved' }, bot)).id;
    const a = await approved(f, 'A');
    const b = await approved(f, 'B');
    const c = await approved(f, 'C');
    const done = await approved(f, 'Done already');
    await f.store.move(done, 'Done', bot);
    const gone = await approved(f, 'Archived');
    await f.store.archive(gone, true, bot);
    await f.store.take(b, spy);

    const page = await f.store.ready('batches', bot);
    assert.deepEqual(page.lists.map((l) => l.records.map((r) => r.id)), [[a, c]]);
    assert.equal(page.lists[0]!.total, 2);
    assert.ok(!page.lists[0]!.records.some((r) => r.id === waiting));
    assert.deepEqual((await f.store.ready('batches', spy)).held.map((r) => r.id), [b], 'the asker sees what it holds');
    assert.deepEqual((await f.store.ready(undefined, bot)).lists.map((l) => l.list), ['batches'], 'every list it may change');

    assert.equal((await f.store.takeNext('Batches', bot)).record.id, a);
    assert.equal((await f.store.takeNext('batches', spy)).record.id, c);
    assert.match(await refusal(() => f.store.takeNext('batches', bot)), /Nothing in Batches is ready for you now/);
    // A read-only list is not one to start work in.
    await f.store.grant('batches', 'agent:spy', 'read', ann);
    assert.match(await refusal(() => f.store.ready('batches', spy)), /only read/);
  } finally {
    await f.done();
  }
});

eachStore('ready: a priority field orders first (choices in their order, numbers higher first), then oldest', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    await f.store.grant('tasks', 'agent:bot', 'write', ann);
    const add = async (title: string, priority?: string) =>
      (await f.store.add('tasks', { title, ...(priority ? { fields: { Priority: priority } } : {}) }, bot)).id;
    const low = await add('low', 'Low');
    const none = await add('none');
    const high1 = await add('high 1', 'High');
    const normal = await add('normal', 'Normal');
    const high2 = await add('high 2', 'High');
    const page = (await f.store.ready('tasks', bot)).lists[0]!;
    assert.equal(page.priority, 'Priority');
    assert.deepEqual(page.records.map((r) => r.id), [high1, high2, normal, low, none]);

    await f.store.createList({ template: 'blank', title: 'Scored' }, ann);
    await f.store.editList('scored', { fields: [{ name: 'Priority', type: 'number' }] }, ann);
    await f.store.grant('scored', 'agent:bot', 'write', ann);
    const s1 = (await f.store.add('scored', { title: 's1', fields: { priority: '2' } }, bot)).id;
    const s2 = (await f.store.add('scored', { title: 's2' }, bot)).id;
    const s3 = (await f.store.add('scored', { title: 's3', fields: { priority: '10' } }, bot)).id;
    const s4 = (await f.store.add('scored', { title: 's4', fields: { priority: '2' } }, bot)).id;
    assert.deepEqual((await f.store.ready('scored', bot)).lists[0]!.records.map((r) => r.id), [s3, s1, s4, s2]);
    assert.equal((await f.store.takeNext('scored', bot)).record.id, s3);
  } finally {
    await f.done();
  }
});

eachStore('brief: each change once, never the asker\'s own, only lists it can see, people\'s notes, lapses, claims taken away, due', async () => {
  const f = await withBatches();
  try {
    await f.store.grant('batches', 'agent:spy', 'read', ann);
    await f.store.createList({ template: 'tasks', title: 'Secret' }, ann);
    assert.deepEqual((await f.store.brief(bot)).items, [], 'nothing yet');
    const id = (await f.store.add('batches', { title: 'Dark mode' }, bot)).id;
    await f.store.add('secret', { title: 'Hidden from bot' }, ann);
    assert.deepEqual((await f.store.brief(bot)).items, [], 'its own add is not news; the secret list is not shown');

    await f.store.approve(id, true, ann);
    await f.store.note(id, 'login page first', ann);
    await f.store.note(id, 'a note by the agent', bot);
    await f.store.move(id, 'Doing', bot);
    const seen = (await f.store.brief(bot)).items;
    assert.deepEqual(seen.map((i) => [i.kind, i.by.id, i.record]), [['approved', 'person:ann', id], ['note', 'person:ann', id]]);
    assert.equal(seen[1]!.text, 'login page first');
    assert.equal(seen[0]!.title, 'Dark mode');
    assert.deepEqual((await f.store.brief(bot)).items, [], 'shown once');

    // Another reader of the same list sees the agent's add and move, but not its note.
    const spyItems = (await f.store.brief(spy)).items;
    assert.deepEqual(spyItems.map((i) => i.kind), ['added', 'approved', 'note', 'moved']);
    assert.deepEqual([spyItems[3]!.from, spyItems[3]!.to], ['Proposed', 'Doing']);

    // Withdrawing puts it back before the gate: one line says both.
    await f.store.approve(id, false, ann);
    const withdrawn = (await f.store.brief(bot)).items;
    assert.deepEqual(withdrawn.map((i) => [i.kind, i.to]), [['withdrawn', 'Proposed']]);

    // Its own claim lapsing is news to the agent; a person taking a claim away is too.
    await f.store.approve(id, true, ann);
    await f.store.brief(bot);
    await f.store.take(id, bot, { forMs: MIN });
    f.clock.ms += 2 * MIN;
    assert.deepEqual((await f.store.brief(bot)).items.map((i) => [i.kind, i.holder?.id]), [['lapsed', 'agent:bot']]);
    await f.store.take(id, bot);
    await f.store.release(id, ann);
    assert.deepEqual((await f.store.brief(bot)).items.map((i) => [i.kind, i.by.id, i.holder?.id]), [['taken-away', 'person:ann', 'agent:bot']]);
    await f.store.take(id, bot);
    await f.store.release(id, bot);
    assert.deepEqual((await f.store.brief(bot)).items, [], 'its own release is not news');

    // Due: the keeper's due scan leaves a row that briefs tell once.
    await f.store.edit(id, { due: '2026-01-15 13:00' }, ann);
    f.clock.ms = new Date(2026, 0, 15, 13, 1).getTime();
    await f.store.brief(bot);
    assert.deepEqual((await f.store.due()).map((d) => d.id), [id]);
    assert.deepEqual((await f.store.brief(bot)).items.map((i) => [i.kind, i.due]), [['due', '2026-01-15 13:00']]);
    assert.deepEqual((await f.store.brief(bot)).items, []);
  } finally {
    await f.done();
  }
});

eachStore('brief: a peek or a filtered look moves nothing; a long brief comes in pages; a first brief goes back a day', async () => {
  const f = await withBatches();
  try {
    const ids = await inOrder(Array.from({ length: 7 }, (_, i) => i), async (_, i) => (await f.store.add('batches', { title: `r${i}` }, ann)).id);
    f.clock.ms += 2 * 24 * 3600_000;
    assert.deepEqual((await f.store.brief(bot)).items, [], 'rows older than a day are not in a first brief');
    for (const id of ids) await f.store.approve(id, true, ann);
    assert.equal((await f.store.brief(bot, { peek: true })).items.length, 7);
    assert.deepEqual((await f.store.brief(bot, { record: ids[2]! })).items.map((i) => i.record), [ids[2]]);
    assert.equal((await f.store.brief(bot, { list: 'Batches' })).items.length, 7);
    const first = await f.store.brief(bot, { limit: 5 });
    assert.equal(first.items.length, 5);
    assert.equal(first.more, true);
    const second = await f.store.brief(bot, { limit: 5 });
    assert.deepEqual(second.items.map((i) => i.record), ids.slice(5));
    assert.equal(second.more, false);
    assert.equal((await f.store.brief(bot, { peek: true })).items.length, 0);
  } finally {
    await f.done();
  }
});

test('a store made before claims existed is upgraded in place: its records kept, free, and takeable', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'binder-upgrade-'));
  try {
    mkdirSync(join(dir, 'store'), { mode: 0o700 });
    const old = new Database(join(dir, 'store', 'binder.db'));
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    old.prepare(`INSERT INTO lists (id, title, states, fields, created, updated) VALUES ('work', 'Work', ?, '[]', 'x', 'x')`)
      .run(JSON.stringify([{ id: 'to-do', name: 'To do', gate: false }, { id: 'done', name: 'Done', gate: false }]));
    old.prepare("INSERT INTO records (list, title, state, created, updated) VALUES ('work', 'Old record', 'to-do', 'x', 'x')").run();
    old.prepare("INSERT INTO access (list, agent, level) VALUES ('work', 'agent:bot', 'write')").run();
    old.close();
    const store = openStore(join(dir, 'store'));
    try {
      assert.equal(store.db.pragma('user_version', { simple: true }), MIGRATIONS.length);
      assert.deepEqual((await store.ready('work', bot)).lists[0]!.records.map((r) => r.title), ['Old record']);
      assert.equal((await store.takeNext('work', bot)).record.title, 'Old record');
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
