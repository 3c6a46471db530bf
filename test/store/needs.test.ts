/**
 * Records that need others done first: what `get` says both ways, `ready` and `take --next`
 * leaving a waiting record out (across lists too), circles refused by name, who may set a need,
 * what a record the asker cannot see looks like, deleting, and the brief told when the last
 * need is done.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ann, bot, fresh, refusal, spy } from './helpers.js';
import type { Store } from '../../src/store/index.js';

/** Tasks (To do → Doing → Review → Done) and Blank (To do → Done), both written by bot. */
function twoLists() {
  const f = fresh();
  f.store.createList({ template: 'tasks' }, ann);
  f.store.createList({ template: 'blank' }, ann);
  f.store.grant('tasks', 'agent:bot', 'write', ann);
  f.store.grant('blank', 'agent:bot', 'write', ann);
  return f;
}

const readyIds = (s: Store, list: string | undefined, who = bot): number[] =>
  s.ready(list, who).lists.flatMap((l) => l.records.map((r) => r.id));

test('needs: get names what a record needs and what needs it, across lists, with their states', () => {
  const f = twoLists();
  try {
    const build = f.store.add('tasks', { title: 'Build' }, bot).id;
    const test1 = f.store.add('blank', { title: 'Write the tests' }, bot).id;
    const ship = f.store.add('tasks', { title: 'Ship' }, bot).id;
    const answer = f.store.needs(ship, [`${build} #${test1}`], bot);
    assert.deepEqual(answer.added, [build, test1]);
    assert.equal(answer.record.blocked, 2);
    f.store.move(build, 'Doing', bot);

    const view = f.store.get(ship, bot);
    assert.deepEqual(view.needs!.map((l) => [l.id, l.list, l.stateName, l.done]),
      [[build, 'tasks', 'Doing', false], [test1, 'blank', 'To do', false]]);
    assert.deepEqual(view.neededBy, []);
    assert.equal(view.hiddenNeeds, undefined);
    assert.deepEqual(f.store.get(build, bot).neededBy!.map((l) => l.id), [ship]);
    assert.equal(view.history.at(-1)!.op, 'needs');
    assert.deepEqual(view.history.at(-1)!.change, { add: [build, test1] });

    // Given again: nothing changes, nothing is written.
    const rows = f.store.get(ship, bot).history.length;
    assert.deepEqual(f.store.needs(ship, [build], bot).added, []);
    assert.equal(f.store.get(ship, bot).history.length, rows);

    const removed = f.store.needs(ship, [String(test1)], bot, { remove: true });
    assert.deepEqual(removed.removed, [test1]);
    assert.equal(removed.record.blocked, 1);
    assert.deepEqual(f.store.get(test1, bot).neededBy, []);
  } finally {
    f.done();
  }
});

test('needs: ready and take --next leave a waiting record out until what it needs, in another list, is done', () => {
  const f = twoLists();
  try {
    const other = f.store.add('blank', { title: 'In the other list' }, bot).id;
    const waiting = f.store.add('tasks', { title: 'Waits' }, bot).id;
    const free = f.store.add('tasks', { title: 'Free' }, bot).id;
    f.store.needs(waiting, [other], bot);

    assert.deepEqual(readyIds(f.store, 'tasks'), [free]);
    assert.equal(f.store.ready('tasks', bot).lists[0]!.total, 1);
    assert.deepEqual(f.store.show('tasks', bot).records.map((r) => [r.id, r.blocked ?? 0]), [[waiting, 1], [free, 0]]);
    assert.equal(f.store.takeNext('tasks', bot).record.id, free, 'take --next skips the waiting one');
    f.store.release(free, bot);

    // In its own list's states, not in Done yet: still waiting.
    f.store.move(other, 'To do', bot);
    assert.ok(!readyIds(f.store, 'tasks').includes(waiting));
    f.store.move(other, 'Done', bot);
    assert.deepEqual(readyIds(f.store, 'tasks'), [waiting, free]);
    assert.equal(f.store.get(waiting, bot).record.blocked, undefined);
    // Out of its last state again, it blocks again.
    f.store.move(other, 'To do', bot);
    assert.deepEqual(readyIds(f.store, 'tasks'), [free]);
  } finally {
    f.done();
  }
});

test('needs: a circle is refused, named, and nothing is written', () => {
  const f = twoLists();
  try {
    const [a, b, c] = ['A', 'B', 'C'].map((t) => f.store.add('tasks', { title: t }, bot).id) as [number, number, number];
    f.store.needs(a, [b], bot);
    f.store.needs(b, [c], bot);
    const before = f.store.get(c, bot).history.length;
    const said = refusal(() => f.store.needs(c, [a], bot));
    assert.equal(said, `#${c} cannot need #${a}: that would close a circle (#${c} needs #${a}, #${a} needs #${b}, #${b} needs #${c}), `
      + `and none of them could ever start. Take one of those needs away first: binder needs ${a} ${b} --remove.`);
    assert.match(refusal(() => f.store.needs(a, [a], bot)), /cannot need itself/);
    assert.equal(f.store.get(c, bot).history.length, before);
    assert.deepEqual(f.store.get(c, bot).needs, []);
    // Several at once: the one that closes the circle refuses them all.
    const d = f.store.add('tasks', { title: 'D' }, bot).id;
    assert.match(refusal(() => f.store.needs(c, [d, a], bot)), /close a circle/);
    assert.deepEqual(f.store.get(c, bot).needs, [], 'nothing half-written');
  } finally {
    f.done();
  }
});

test('needs: an agent needs write access to both lists; a record it cannot see is refused as an absent one', () => {
  const f = twoLists();
  try {
    f.store.createList({ template: 'blank', title: 'Secret' }, ann);
    f.store.createList({ template: 'blank', title: 'Shown' }, ann);
    f.store.grant('shown', 'agent:bot', 'read', ann);
    const mine = f.store.add('tasks', { title: 'Mine' }, bot).id;
    const secret = f.store.add('secret', { title: 'Hidden work' }, ann).id;
    const shown = f.store.add('shown', { title: 'Read only' }, ann).id;
    const absent = 999;
    assert.equal(refusal(() => f.store.needs(mine, [secret], bot)), `There is no record #${secret} you can see.`);
    assert.equal(refusal(() => f.store.needs(mine, [absent], bot)), `There is no record #${absent} you can see.`);
    assert.match(refusal(() => f.store.needs(mine, [shown], bot)), /You may only read "Shown"/);
    assert.match(refusal(() => f.store.needs(shown, [mine], bot)), /You may only read "Shown"/);
    assert.match(refusal(() => f.store.needs(mine, [secret], spy)), /There is no record/);

    // A person may; the agent then sees that its record waits, but never which record it waits on.
    f.store.needs(mine, [secret], ann);
    const view = f.store.get(mine, bot);
    assert.deepEqual(view.needs, []);
    assert.equal(view.hiddenNeeds, 1);
    assert.equal(view.record.blocked, 1);
    assert.deepEqual(readyIds(f.store, 'tasks'), []);
    const blocked = f.store.blocked('tasks', bot).lists[0]!;
    assert.deepEqual(blocked.records.map((b) => [b.record.id, b.waitsOn, b.hidden]), [[mine, [], 1]]);
    assert.ok(!JSON.stringify(f.store.get(mine, bot)).includes('Hidden work'));
    // Taking the hidden need away is refused as if it were absent too.
    assert.equal(refusal(() => f.store.needs(mine, [secret], bot, { remove: true })), `There is no record #${secret} you can see.`);
    // A circle through a record it cannot see names it without its number.
    f.store.needs(secret, [f.store.add('tasks', { title: 'Base' }, bot).id], ann);
    const base = f.store.get(secret, ann).needs![0]!.id;
    f.store.needs(base, [f.store.add('tasks', { title: 'Top' }, bot).id], bot);
    const top = f.store.get(base, bot).needs![0]!.id;
    const said = refusal(() => f.store.needs(top, [mine], bot));
    assert.match(said, /a record you cannot see/);
    assert.ok(!said.includes(`#${secret}`), said);
  } finally {
    f.done();
  }
});

test('needs: deleting a record takes its needs both ways, and frees what waited on it', () => {
  const f = twoLists();
  try {
    const first = f.store.add('tasks', { title: 'First' }, bot).id;
    const gone = f.store.add('tasks', { title: 'Gone' }, bot).id;
    const last = f.store.add('tasks', { title: 'Last' }, bot).id;
    f.store.needs(gone, [first], bot);
    f.store.needs(last, [gone], bot);
    f.store.take(last, bot);
    f.store.brief(bot);
    f.store.delete(gone, ann);
    assert.equal(f.store.db.prepare('SELECT count(*) FROM needs WHERE record = ? OR needed = ?').pluck().get(gone, gone), 0);
    assert.deepEqual(f.store.get(first, bot).neededBy, []);
    assert.deepEqual(f.store.get(last, bot).needs, []);
    assert.equal(f.store.get(last, bot).record.blocked, undefined);
    const told = f.store.brief(bot).items.filter((i) => i.kind === 'unblocked');
    assert.deepEqual(told.map((i) => [i.record, i.need]), [[last, gone]]);
  } finally {
    f.done();
  }
});

test('needs: when the last need is done, the waiting record\'s holder and owners are told, and no one else', () => {
  const f = twoLists();
  try {
    f.store.grant('tasks', 'agent:spy', 'write', ann);
    const cara = { id: 'person:cara', kind: 'person' as const, name: 'Cara' };
    const a = f.store.add('tasks', { title: 'A' }, bot).id;
    const b = f.store.add('blank', { title: 'B' }, bot).id;
    const owned = f.store.add('tasks', { title: 'Owned by Cara', owners: ['person:cara'] }, ann).id;
    const held = f.store.add('tasks', { title: 'Held by bot' }, ann).id;
    f.store.needs(owned, [a, b], ann);
    f.store.needs(held, [b], ann);
    f.store.take(held, bot);
    for (const who of [ann, bot, spy, cara]) f.store.brief(who);
    const told = (who: typeof bot) => f.store.brief(who, { peek: true }).items.filter((i) => i.kind === 'unblocked')
      .map((i) => [i.record, i.need]);

    f.store.move(b, 'Done', bot);
    assert.deepEqual(told(bot), [[held, b]], 'its holder is told, even of its own move');
    assert.deepEqual(told(cara), [], 'Cara\'s record still needs A');
    f.store.move(a, 'Done', spy);
    assert.deepEqual(told(cara), [[owned, a]], 'an owner is told');
    assert.deepEqual(told(spy), [], 'an agent that neither holds nor owns it is not told');
    assert.deepEqual(told(ann), [], 'nor a person who does not own it');
    assert.deepEqual(told(bot), [[held, b]]);
    assert.deepEqual(f.store.blocked(undefined, bot).lists.map((l) => l.total), [0, 0]);
  } finally {
    f.done();
  }
});

test('needs: ready --blocked shows what waits on what, in every list one can change', () => {
  const f = twoLists();
  try {
    const a = f.store.add('tasks', { title: 'A' }, bot).id;
    const b = f.store.add('blank', { title: 'B' }, bot).id;
    const c = f.store.add('blank', { title: 'C' }, bot).id;
    f.store.needs(b, [a], bot);
    f.store.needs(c, [a, b], bot);
    f.store.move(a, 'Doing', bot);
    const page = f.store.blocked(undefined, bot);
    assert.deepEqual(page.lists.map((l) => [l.list, l.total]), [['tasks', 0], ['blank', 2]]);
    assert.deepEqual(page.lists[1]!.records.map((r) => [r.record.id, r.waitsOn.map((w) => `${w.id} ${w.stateName}`)]),
      [[b, [`${a} Doing`]], [c, [`${a} Doing`, `${b} To do`]]]);
    // A waiting record that is itself done is not shown as waiting.
    f.store.move(c, 'Done', bot);
    assert.deepEqual(f.store.blocked('blank', bot).lists[0]!.records.map((r) => r.record.id), [b]);
  } finally {
    f.done();
  }
});

test('needs: a record another agent holds is given no needs by a third agent; its holder and a person may, and a held record may be needed', () => {
  const f = twoLists();
  try {
    f.store.grant('tasks', 'agent:spy', 'write', ann);
    const held = f.store.add('tasks', { title: 'Held' }, ann).id;
    const other = f.store.add('tasks', { title: 'Other' }, ann).id;
    const third = f.store.add('tasks', { title: 'Third' }, ann).id;
    f.store.take(held, bot);
    const before = f.store.get(held, ann);
    for (const remove of [false, true]) {
      const why = refusal(() => f.store.needs(held, [String(other)], spy, { remove }));
      assert.match(why, new RegExp(`^#${held} is taken by Bot until .*binder wait ${held}`));
    }
    const after = f.store.get(held, ann);
    assert.deepEqual([after.record, after.history, after.needs], [before.record, before.history, before.needs], 'nothing changed');

    assert.deepEqual(f.store.needs(held, [String(other)], bot).added, [other], 'its holder may');
    assert.deepEqual(f.store.needs(held, [String(third)], ann).added, [third], 'a person may');
    // Needing a held record changes the one that needs it, not the held one.
    assert.deepEqual(f.store.needs(other, [String(third)], spy).added, [third]);
  } finally {
    f.done();
  }
});
