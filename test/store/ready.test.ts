/**
 * What is ready, read from a list's oldest open record on and only until the page is full: the
 * same order as sorting every ready record by priority then age, and a count that stops at 1,000.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ann, bot, fresh, eachStore, refusal } from './helpers.js';
import { READY_COUNT_MAX } from '../../src/store/ready.js';
import { inOrder } from '../helpers/temp.js';

eachStore('the page is the first of every ready record sorted by its choice of priority, then oldest', async () => {
  const choice = fc.constantFrom(0, 1, 2, undefined);
  await fc.assert(fc.asyncProperty(
    fc.array(fc.record({ priority: choice, state: fc.nat(3), owned: fc.boolean(), taken: fc.boolean() }), { maxLength: 30 }),
    fc.integer({ min: 1, max: 12 }),
    fc.boolean(),
    fc.boolean(),
    async (records, limit, french, changed) => {
      const f = await fresh();
      try {
        const list = await f.store.createList({ template: 'tasks', lang: french ? 'fr' : 'en' }, ann);
        await f.store.grant(list.id, 'agent:bot', 'write', ann);
        const field = list.fields.find((x) => x.type === 'choice')!;
        const names = field.choices!;
        const states = list.states;
        const made = await inOrder(records, async (r, i) => {
          const id = (await f.store.add(list.id, {
            title: `r${i}`, state: states[r.state]!.name,
            ...(r.priority !== undefined ? { fields: { [field.name]: names[r.priority]! } } : {}),
            ...(r.owned ? { owners: ['Someone Else'] } : {}),
          }, ann)).id;
          // Only a record nobody else owns can be taken.
          const taken = r.taken && !r.owned;
          if (taken) await f.store.take(id, ann);
          return { id, ...r, taken };
        });
        // The middle choice removed from the field: records that have it keep a value no longer
        // among the choices, and come with those that have none.
        if (changed) {
          await f.store.editList(list.id, { fields: list.fields.map((x) => (x.id === field.id ? { ...x, choices: [names[0]!, names[2]!] } : x)) }, ann);
        }
        const rank = (p: number | undefined) => (p === undefined || (changed && p === 1) ? 3 : p);
        const expected = made
          .filter((r) => r.state < 3 && !r.owned && !r.taken)
          .sort((a, b) => rank(a.priority) - rank(b.priority) || a.id - b.id)
          .map((r) => r.id);
        const page = (await f.store.ready(list.id, bot, { limit })).lists[0]!;
        assert.deepEqual(page.records.map((r) => r.id), expected.slice(0, limit));
        assert.equal(page.total, expected.length);
        assert.equal(page.atLeast, undefined);
        if (expected.length) assert.equal((await f.store.takeNext(list.id, bot)).record.id, expected[0]);
      } finally {
        await f.done();
      }
    },
  ), { numRuns: 40 });
});

eachStore('past 1,000 ready records the count stops and says so', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'blank' }, ann);
    await f.store.grant('blank', 'agent:bot', 'write', ann);
    await f.store.transaction(async (tx) => {
      for (let i = 0; i < READY_COUNT_MAX + 5; i++) await tx.add('blank', { title: `r${i}` }, ann);
    });
    const page = (await f.store.ready('blank', bot)).lists[0]!;
    assert.equal(page.total, READY_COUNT_MAX);
    assert.equal(page.atLeast, true);
    assert.equal(page.records.length, 20);
  } finally {
    await f.done();
  }
});

eachStore('ready with a query: only the ready records it finds, counted so; a query that cannot be read is refused', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    await f.store.grant('tasks', 'agent:bot', 'write', ann);
    const list = await f.store.list('tasks', ann);
    await f.store.editList('tasks', { fields: [...list.fields.map((x) => ({ ...x })), { name: 'Labels', type: 'labels' }] }, ann);
    const crash = (await f.store.add('tasks', { title: 'Crash on save', labels: ['bug'] }, ann)).id;
    const dark = (await f.store.add('tasks', { title: 'Dark mode', labels: ['ui'] }, ann)).id;
    const login = (await f.store.add('tasks', { title: 'Login fails', labels: ['bug', 'urgent'] }, ann)).id;
    const done = (await f.store.add('tasks', { title: 'Old crash', labels: ['bug'], state: 'Done' }, ann)).id;
    const ids = async (query: string): Promise<number[]> => {
      const page = (await f.store.ready('tasks', bot, { query })).lists[0]!;
      assert.equal(page.total, page.records.length);
      return page.records.map((r) => r.id);
    };
    assert.deepEqual(await ids('label:bug'), [crash, login], 'what is done is not ready, whatever the query finds');
    assert.deepEqual(await ids('label:bug -label:urgent'), [crash]);
    assert.deepEqual(await ids('login OR label:ui'), [dark, login]);
    assert.equal((await ids('')).length, 3, 'no query: every ready record');
    assert.ok(!(await ids('crash')).includes(done));
    // Every list the asker may change, narrowed alike.
    assert.deepEqual((await f.store.ready(undefined, bot, { query: 'urgent' })).lists.map((l) => l.records.map((r) => r.id)), [[login]]);
    assert.match(await refusal(() => f.store.ready('tasks', bot, { query: 'colour:red' })), /cannot be read at column 1: there is no key "colour"/);
  } finally {
    await f.done();
  }
});
