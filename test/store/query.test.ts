/**
 * The query language run by the store, on both engines: each key, negation, OR, words through the
 * index, in the lists the asker can read, and `show` narrowed by a query with its counts.
 */
import assert from 'node:assert/strict';
import { ann, bot, eachStore, fresh, refusal, spy } from './helpers.js';

async function tasks() {
  const f = await fresh();
  await f.store.createList({ template: 'tasks' }, ann);
  await f.store.createList({ template: 'batches' }, ann);
  await f.store.grant('tasks', 'agent:bot', 'write', ann);
  const a = await f.store.add('tasks', { title: 'Dark mode for the login page', fields: { Priority: 'High' }, owners: ['me'], due: '2026-01-10' }, ann);
  const b = await f.store.add('tasks', { title: 'Slow login on mobile', state: 'Doing', note: 'the mode switch is slow', due: '2026-01-15 17:00' }, bot);
  const c = await f.store.add('tasks', { title: 'Mode of payment', fields: { Priority: 'Low' }, due: '2026-02-01' }, ann);
  const secret = await f.store.add('batches', { title: 'Secret login work' }, ann);
  return { f, a, b, c, secret };
}

const ids = (hits: { id: number }[]): number[] => hits.map((h) => h.id).sort((x, y) => x - y);

eachStore('a query finds by state, field, owner, due and words, ANDed, with OR and -', async () => {
  const { f, a, b, c, secret } = await tasks();
  try {
    const s = f.store;
    assert.deepEqual(ids(await s.search('state:Doing', ann)), [b.id]);
    assert.deepEqual(ids(await s.search('state:doing login', ann)), [b.id]);
    assert.deepEqual(ids(await s.search('field:Priority=high', ann)), [a.id]);
    assert.deepEqual(ids(await s.search('owner:me', ann)), [a.id]);
    assert.deepEqual(ids(await s.search('owner:ann', bot)), [a.id]);
    assert.deepEqual(ids(await s.search('due<2026-01-15', ann)), [a.id]);
    assert.deepEqual(ids(await s.search('due:2026-01-15', ann)), [b.id]);
    assert.deepEqual(ids(await s.search('due>2026-01-15', ann)), [c.id]);
    // The fixture's clock is 2026-01-15 12:00.
    assert.deepEqual(ids(await s.search('due:overdue', ann)), [a.id]);
    assert.deepEqual(ids(await s.search('due:today', ann)), [b.id]);
    assert.deepEqual(ids(await s.search('login -state:Doing', ann)), [a.id, secret.id]);
    assert.deepEqual(ids(await s.search('list:tasks login', ann)), [a.id, b.id]);
    assert.deepEqual(ids(await s.search('state:Doing OR field:Priority=Low', ann)), [b.id, c.id]);
    assert.deepEqual(ids(await s.search('approved:no list:batches', ann)), [secret.id]);
    // Words in notes count; a phrase is words one after another.
    assert.deepEqual(ids(await s.search('"mode switch"', ann)), [b.id]);
    assert.deepEqual(ids(await s.search('"switch mode"', ann)), []);
    assert.deepEqual(ids(await s.search('mode -"dark mode"', ann)), [b.id, c.id]);
  } finally {
    await f.done();
  }
});

eachStore('a query finds only in the lists the asker can read, and archived records only when asked', async () => {
  const { f, a, b, secret } = await tasks();
  try {
    assert.deepEqual(ids(await f.store.search('login -state:Doing', bot)), [a.id]);
    assert.deepEqual(ids(await f.store.search('list:batches', bot)), []);
    assert.deepEqual(ids(await f.store.search('state:Doing', spy)), []);
    await f.store.archive(b.id, true, ann);
    assert.deepEqual(ids(await f.store.search('state:Doing', ann)), []);
    assert.deepEqual(ids(await f.store.search('state:Doing is:archived', ann)), [b.id]);
    assert.ok(!ids(await f.store.search('login', bot)).includes(secret.id));
  } finally {
    await f.done();
  }
});

eachStore('the asker\'s text reaches the database as parameters, never as SQL or index syntax', async () => {
  const { f } = await tasks();
  try {
    for (const text of ["state:\"x') OR 1=1 --\"", 'field:Priority=\'; DROP TABLE records; --', 'owner:"a%"', 'list:*', '"NEAR(login" OR -"*"', 'held:"\\"']) {
      assert.deepEqual(await f.store.search(text, ann), [], text);
    }
    assert.equal((await f.store.search('login', ann)).length, 3, 'the records are all still there');
    assert.match(await refusal(() => f.store.search('colour:red', ann)), /column 1: there is no key "colour"; the keys are state, label/);
  } finally {
    await f.done();
  }
});

eachStore('show narrowed by a query counts only what it shows', async () => {
  const { f, a, b } = await tasks();
  try {
    const page = await f.store.show('tasks', ann, { query: 'login' });
    assert.deepEqual(page.records.map((r) => r.id).sort(), [a.id, b.id].sort());
    assert.equal(page.counts['to-do'], 1);
    assert.equal(page.counts.doing, 1);
    const mine = await f.store.show('tasks', ann, { query: 'owner:me OR state:Doing' });
    assert.deepEqual(mine.records.map((r) => r.id).sort(), [a.id, b.id].sort());
    assert.equal((await f.store.show('tasks', ann, { query: 'list:batches' })).records.length, 0);
    assert.match(await refusal(() => f.store.show('tasks', ann, { query: 'due<soon' })), /column 5: due takes a date/);
  } finally {
    await f.done();
  }
});
