/**
 * Records that need others done first: what `get` says both ways, `ready` and `take --next`
 * leaving a waiting record out (across lists too), circles refused by name, who may set a need,
 * what a record the asker cannot see looks like, deleting, and the brief told when the last
 * need is done.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ann, bot, fresh, refusal, spy, eachStore } from './helpers.js';
import type { Store } from '../../src/store/index.js';
import { inOrder } from '../helpers/temp.js';

/** Tasks (To do → Doing → Review → Done) and Blank (To do → Done), both written by bot. */
async function twoLists() {
  const f = await fresh();
  await f.store.createList({ template: 'tasks' }, ann);
  await f.store.createList({ template: 'blank' }, ann);
  await f.store.grant('tasks', 'agent:bot', 'write', ann);
  await f.store.grant('blank', 'agent:bot', 'write', ann);
  return f;
}

const readyIds = async (s: Store, list: string | undefined, who = bot): Promise<number[]> =>
  (await s.ready(list, who)).lists.flatMap((l) => l.records.map((r) => r.id));

eachStore('needs: get names what a record needs and what needs it, across lists, with their states', async () => {
  const f = await twoLists();
  try {
    const build = (await f.store.add('tasks', { title: 'Build' }, bot)).id;
    const test1 = (await f.store.add('blank', { title: 'Write the tests' }, bot)).id;
    const ship = (await f.store.add('tasks', { title: 'Ship' }, bot)).id;
    const answer = await f.store.needs(ship, [`${build} #${test1}`], bot);
    assert.deepEqual(answer.added, [build, test1]);
    assert.equal(answer.record.blocked, 2);
    await f.store.move(build, 'Doing', bot);

    const view = await f.store.get(ship, bot);
    assert.deepEqual(view.needs!.map((l) => [l.id, l.list, l.stateName, l.done]),
      [[build, 'tasks', 'Doing', false], [test1, 'blank', 'To do', false]]);
    assert.deepEqual(view.neededBy, []);
    assert.equal(view.hiddenNeeds, undefined);
    assert.deepEqual((await f.store.get(build, bot)).neededBy!.map((l) => l.id), [ship]);
    assert.equal(view.history.at(-1)!.op, 'needs');
    assert.deepEqual(view.history.at(-1)!.change, { add: [build, test1] });

    // Given again: nothing changes, nothing is written.
    const rows = (await f.store.get(ship, bot)).history.length;
    assert.deepEqual((await f.store.needs(ship, [build], bot)).added, []);
    assert.equal((await f.store.get(ship, bot)).history.length, rows);

    const removed = await f.store.needs(ship, [String(test1)], bot, { remove: true });
    assert.deepEqual(removed.removed, [test1]);
    assert.equal(removed.record.blocked, 1);
    assert.deepEqual((await f.store.get(test1, bot)).neededBy, []);
  } finally {
    await f.done();
  }
});

eachStore('needs: ready and take --next leave a waiting record out until what it needs, in another list, is done', async () => {
  const f = await twoLists();
  try {
    const other = (await f.store.add('blank', { title: 'In the other list' }, bot)).id;
    const waiting = (await f.store.add('tasks', { title: 'Waits' }, bot)).id;
    const free = (await f.store.add('tasks', { title: 'Free' }, bot)).id;
    await f.store.needs(waiting, [other], bot);

    assert.deepEqual(await readyIds(f.store, 'tasks'), [free]);
    assert.equal((await f.store.ready('tasks', bot)).lists[0]!.total, 1);
    assert.deepEqual((await f.store.show('tasks', bot)).records.map((r) => [r.id, r.blocked ?? 0]), [[waiting, 1], [free, 0]]);
    assert.equal((await f.store.takeNext('tasks', bot)).record.id, free, 'take --next skips the waiting one');
    await f.store.release(free, bot);

    // In its own list's states, not in Done yet: still waiting.
    await f.store.move(other, 'To do', bot);
    assert.ok(!(await readyIds(f.store, 'tasks')).includes(waiting));
    await f.store.move(other, 'Done', bot);
    assert.deepEqual(await readyIds(f.store, 'tasks'), [waiting, free]);
    assert.equal((await f.store.get(waiting, bot)).record.blocked, undefined);
    // Out of its last state again, it blocks again.
    await f.store.move(other, 'To do', bot);
    assert.deepEqual(await readyIds(f.store, 'tasks'), [free]);
  } finally {
    await f.done();
  }
});

eachStore('needs: a circle is refused, named, and nothing is written', async () => {
  const f = await twoLists();
  try {
    const [a, b, c] = await inOrder(['A', 'B', 'C'], async (t) => (await f.store.add('tasks', { title: t }, bot)).id) as [number, number, number];
    await f.store.needs(a, [b], bot);
    await f.store.needs(b, [c], bot);
    const before = (await f.store.get(c, bot)).history.length;
    const said = await refusal(() => f.store.needs(c, [a], bot));
    assert.equal(said, `#${c} cannot need #${a}: that would close a circle (#${c} needs #${a}, #${a} needs #${b}, #${b} needs #${c}), `
      + `and none of them could ever start. Take one of those needs away first: binder needs ${a} ${b} --remove.`);
    assert.match(await refusal(() => f.store.needs(a, [a], bot)), /cannot need itself/);
    assert.equal((await f.store.get(c, bot)).history.length, before);
    assert.deepEqual((await f.store.get(c, bot)).needs, []);
    // Several at once: the one that closes the circle refuses them all.
    const d = (await f.store.add('tasks', { title: 'D' }, bot)).id;
    assert.match(await refusal(() => f.store.needs(c, [d, a], bot)), /close a circle/);
    assert.deepEqual((await f.store.get(c, bot)).needs, [], 'nothing half-written');
  } finally {
    await f.done();
  }
});

eachStore('needs: an agent needs write access to both lists; a record it cannot see is refused as an absent one', async () => {
  const f = await twoLists();
  try {
    await f.store.createList({ template: 'blank', title: 'Secret' }, ann);
    await f.store.createList({ template: 'blank', title: 'Shown' }, ann);
    await f.store.grant('shown', 'agent:bot', 'read', ann);
    const mine = (await f.store.add('tasks', { title: 'Mine' }, bot)).id;
    const secret = (await f.store.add('secret', { title: 'Hidden work' }, ann)).id;
    const shown = (await f.store.add('shown', { title: 'Read only' }, ann)).id;
    const absent = 999;
    assert.equal(await refusal(() => f.store.needs(mine, [secret], bot)), `There is no record #${secret} you can see.`);
    assert.equal(await refusal(() => f.store.needs(mine, [absent], bot)), `There is no record #${absent} you can see.`);
    assert.match(await refusal(() => f.store.needs(mine, [shown], bot)), /You may only read "Shown"/);
    assert.match(await refusal(() => f.store.needs(shown, [mine], bot)), /You may only read "Shown"/);
    assert.match(await refusal(() => f.store.needs(mine, [secret], spy)), /There is no record/);

    // A person may; the agent then sees that its record waits, but never which record it waits on.
    await f.store.needs(mine, [secret], ann);
    const view = await f.store.get(mine, bot);
    assert.deepEqual(view.needs, []);
    assert.equal(view.hiddenNeeds, 1);
    assert.equal(view.record.blocked, 1);
    assert.deepEqual(await readyIds(f.store, 'tasks'), []);
    const blocked = (await f.store.blocked('tasks', bot)).lists[0]!;
    assert.deepEqual(blocked.records.map((b) => [b.record.id, b.waitsOn, b.hidden]), [[mine, [], 1]]);
    assert.ok(!JSON.stringify(await f.store.get(mine, bot)).includes('Hidden work'));
    // Taking the hidden need away is refused as if it were absent too.
    assert.equal(await refusal(() => f.store.needs(mine, [secret], bot, { remove: true })), `There is no record #${secret} you can see.`);
    // A circle through a record it cannot see names it without its number.
    await f.store.needs(secret, [(await f.store.add('tasks', { title: 'Base' }, bot)).id], ann);
    const base = (await f.store.get(secret, ann)).needs![0]!.id;
    await f.store.needs(base, [(await f.store.add('tasks', { title: 'Top' }, bot)).id], bot);
    const top = (await f.store.get(base, bot)).needs![0]!.id;
    const said = await refusal(() => f.store.needs(top, [mine], bot));
    assert.match(said, /a record you cannot see/);
    assert.ok(!said.includes(`#${secret}`), said);
  } finally {
    await f.done();
  }
});

test('needs: deleting a record takes its needs both ways, and frees what waited on it', async () => {
  const f = await twoLists();
  try {
    const first = (await f.store.add('tasks', { title: 'First' }, bot)).id;
    const gone = (await f.store.add('tasks', { title: 'Gone' }, bot)).id;
    const last = (await f.store.add('tasks', { title: 'Last' }, bot)).id;
    await f.store.needs(gone, [first], bot);
    await f.store.needs(last, [gone], bot);
    await f.store.take(last, bot);
    await f.store.brief(bot);
    await f.store.delete(gone, ann);
    assert.equal(f.store.db.prepare('SELECT count(*) FROM needs WHERE record = ? OR needed = ?').pluck().get(gone, gone), 0);
    assert.deepEqual((await f.store.get(first, bot)).neededBy, []);
    assert.deepEqual((await f.store.get(last, bot)).needs, []);
    assert.equal((await f.store.get(last, bot)).record.blocked, undefined);
    const told = (await f.store.brief(bot)).items.filter((i) => i.kind === 'unblocked');
    assert.deepEqual(told.map((i) => [i.record, i.need]), [[last, undefined]], 'a record deleted is named no more, as get says no more of it');
  } finally {
    await f.done();
  }
});

eachStore('needs: when the last need is done, the waiting record\'s holder and owners are told, and no one else', async () => {
  const f = await twoLists();
  try {
    await f.store.grant('tasks', 'agent:spy', 'write', ann);
    const cara = { id: 'person:cara', kind: 'person' as const, name: 'Cara' };
    const a = (await f.store.add('tasks', { title: 'A' }, bot)).id;
    const b = (await f.store.add('blank', { title: 'B' }, bot)).id;
    const owned = (await f.store.add('tasks', { title: 'Owned by Cara', owners: ['person:cara'] }, ann)).id;
    const held = (await f.store.add('tasks', { title: 'Held by bot' }, ann)).id;
    await f.store.needs(owned, [a, b], ann);
    await f.store.needs(held, [b], ann);
    await f.store.take(held, bot);
    for (const who of [ann, bot, spy, cara]) await f.store.brief(who);
    const told = async (who: typeof bot) => (await f.store.brief(who, { peek: true })).items.filter((i) => i.kind === 'unblocked')
      .map((i) => [i.record, i.need]);

    await f.store.move(b, 'Done', bot);
    assert.deepEqual(await told(bot), [[held, b]], 'its holder is told, even of its own move');
    assert.deepEqual(await told(cara), [], 'Cara\'s record still needs A');
    await f.store.move(a, 'Done', spy);
    assert.deepEqual(await told(cara), [[owned, a]], 'an owner is told');
    assert.deepEqual(await told(spy), [], 'an agent that neither holds nor owns it is not told');
    assert.deepEqual(await told(ann), [], 'nor a person who does not own it');
    assert.deepEqual(await told(bot), [[held, b]]);
    assert.deepEqual((await f.store.blocked(undefined, bot)).lists.map((l) => l.total), [0, 0]);
  } finally {
    await f.done();
  }
});

eachStore('needs: ready --blocked shows what waits on what, in every list one can change', async () => {
  const f = await twoLists();
  try {
    const a = (await f.store.add('tasks', { title: 'A' }, bot)).id;
    const b = (await f.store.add('blank', { title: 'B' }, bot)).id;
    const c = (await f.store.add('blank', { title: 'C' }, bot)).id;
    await f.store.needs(b, [a], bot);
    await f.store.needs(c, [a, b], bot);
    await f.store.move(a, 'Doing', bot);
    const page = await f.store.blocked(undefined, bot);
    assert.deepEqual(page.lists.map((l) => [l.list, l.total]), [['tasks', 0], ['blank', 2]]);
    assert.deepEqual(page.lists[1]!.records.map((r) => [r.record.id, r.waitsOn.map((w) => `${w.id} ${w.stateName}`)]),
      [[b, [`${a} Doing`]], [c, [`${a} Doing`, `${b} To do`]]]);
    // A waiting record that is itself done is not shown as waiting.
    await f.store.move(c, 'Done', bot);
    assert.deepEqual((await f.store.blocked('blank', bot)).lists[0]!.records.map((r) => r.record.id), [b]);
  } finally {
    await f.done();
  }
});

eachStore('needs: a record another agent holds is given no needs by a third agent; its holder and a person may, and a held record may be needed', async () => {
  const f = await twoLists();
  try {
    await f.store.grant('tasks', 'agent:spy', 'write', ann);
    const held = (await f.store.add('tasks', { title: 'Held' }, ann)).id;
    const other = (await f.store.add('tasks', { title: 'Other' }, ann)).id;
    const third = (await f.store.add('tasks', { title: 'Third' }, ann)).id;
    await f.store.take(held, bot);
    const before = await f.store.get(held, ann);
    for (const remove of [false, true]) {
      const why = await refusal(() => f.store.needs(held, [String(other)], spy, { remove }));
      assert.match(why, new RegExp(`^#${held} is taken by Bot until .*binder wait ${held}`));
    }
    const after = await f.store.get(held, ann);
    assert.deepEqual([after.record, after.history, after.needs], [before.record, before.history, before.needs], 'nothing changed');

    assert.deepEqual((await f.store.needs(held, [String(other)], bot)).added, [other], 'its holder may');
    assert.deepEqual((await f.store.needs(held, [String(third)], ann)).added, [third], 'a person may');
    // Needing a held record changes the one that needs it, not the held one.
    assert.deepEqual((await f.store.needs(other, [String(third)], spy)).added, [third]);
  } finally {
    await f.done();
  }
});

eachStore('needs: the record it needed, in a list the agent cannot see, is not named when it is told its record waits on nothing more', async () => {
  const f = await twoLists();
  try {
    await f.store.createList({ template: 'blank', title: 'Hidden' }, ann);
    const mine = (await f.store.add('tasks', { title: 'Mine' }, bot)).id;
    const secret = (await f.store.add('hidden', { title: 'Secret work' }, ann)).id;
    const seen = (await f.store.add('blank', { title: 'Seen' }, bot)).id;
    await f.store.needs(mine, [secret, seen], ann);
    await f.store.take(mine, bot);
    await f.store.move(seen, 'Done', bot);
    await f.store.brief(bot);
    await f.store.move(secret, 'Done', ann);
    const told = (await f.store.brief(bot, { peek: true })).items.filter((i) => i.kind === 'unblocked');
    assert.deepEqual(told.map((i) => [i.record, i.need]), [[mine, undefined]]);
    await assert.rejects(f.store.get(secret, bot), 'get hides it too');
  } finally {
    await f.done();
  }
});
