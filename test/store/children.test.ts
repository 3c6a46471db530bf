/**
 * Records under records: a parent in any list the asker can change, what `get` says both ways,
 * loops and a record under itself refused by name, a list the asker only reads refused, and a
 * parent kept from its last state while a child is not done.
 */
import assert from 'node:assert/strict';
import { ann, bot, fresh, refusal, eachStore } from './helpers.js';

async function twoLists() {
  const f = await fresh();
  await f.store.createList({ template: 'tasks' }, ann);
  await f.store.createList({ template: 'blank' }, ann);
  await f.store.grant('tasks', 'agent:bot', 'write', ann);
  await f.store.grant('blank', 'agent:bot', 'read', ann);
  return f;
}

eachStore('children: get names the parent on the child and the children with their states on the parent', async () => {
  const f = await twoLists();
  try {
    const epic = (await f.store.add('tasks', { title: 'Epic' }, bot)).id;
    const a = (await f.store.add('tasks', { title: 'A', parent: epic }, bot)).id;
    const b = (await f.store.add('blank', { title: 'B', parent: `#${epic}` }, ann)).id;
    const c = (await f.store.add('tasks', { title: 'C' }, bot)).id;
    const edited = await f.store.edit(c, { parent: String(epic) }, bot);
    assert.deepEqual(edited.changed, ['parent']);
    await f.store.move(b, 'Done', ann);

    const view = await f.store.get(epic, ann);
    assert.deepEqual(view.children!.map((l) => [l.id, l.list, l.stateName, l.done]),
      [[a, 'tasks', 'To do', false], [b, 'blank', 'Done', true], [c, 'tasks', 'To do', false]]);
    assert.equal(view.parent, undefined);
    assert.equal((await f.store.get(a, bot)).parent!.id, epic);
    assert.deepEqual((await f.store.get(c, bot)).history.at(-1)!.change, { parent: [null, epic] });

    // Taken from under it: the child has no parent, the parent one child less.
    assert.deepEqual((await f.store.edit(c, { parent: 'none' }, bot)).changed, ['parent']);
    assert.equal((await f.store.get(c, bot)).parent, undefined);
    assert.deepEqual((await f.store.get(epic, bot)).children!.map((l) => l.id), [a, b]);
    assert.deepEqual((await f.store.edit(c, { parent: 'none' }, bot)).changed, [], 'nothing to take away: no change');
  } finally {
    await f.done();
  }
});

eachStore('children: a record is not its own parent nor under its own child, and a list only read is refused', async () => {
  const f = await twoLists();
  try {
    const top = (await f.store.add('tasks', { title: 'Top' }, bot)).id;
    const mid = (await f.store.add('tasks', { title: 'Mid', parent: top }, bot)).id;
    const low = (await f.store.add('tasks', { title: 'Low', parent: mid }, bot)).id;
    assert.match(await refusal(() => f.store.edit(top, { parent: top }, bot)), new RegExp(`#${top} cannot be its own parent`));
    const loop = await refusal(() => f.store.edit(top, { parent: low }, bot));
    assert.match(loop, new RegExp(`#${top} cannot go under #${low}: #${low} under #${mid} under #${top}`));
    assert.equal((await f.store.get(top, bot)).parent, undefined, 'nothing was written');

    const theirs = (await f.store.add('blank', { title: 'Only read by bot' }, ann)).id;
    assert.match(await refusal(() => f.store.edit(low, { parent: theirs }, bot)), /only read/);
    assert.match(await refusal(() => f.store.add('tasks', { title: 'Under theirs', parent: theirs }, bot)), /only read/);
    assert.deepEqual((await f.store.get(theirs, ann)).children, []);
    assert.match(await refusal(() => f.store.edit(low, { parent: 999_999 }, bot)), /no record #999999/);
    // A new record under the number it would itself be given: no such record yet, and nothing made.
    const next = theirs + 1;
    assert.match(await refusal(() => f.store.add('tasks', { title: 'Under itself', parent: next }, bot)), new RegExp(`no record #${next}`));
    assert.match(await refusal(() => f.store.get(next, ann)), new RegExp(`no record #${next}`));
  } finally {
    await f.done();
  }
});

eachStore('children: a parent cannot be done while a child is not, and the refusal names them', async () => {
  const f = await twoLists();
  try {
    const epic = (await f.store.add('tasks', { title: 'Epic' }, bot)).id;
    const a = (await f.store.add('tasks', { title: 'A', parent: epic }, bot)).id;
    const b = (await f.store.add('blank', { title: 'B', parent: epic }, ann)).id;
    await f.store.move(a, 'Done', ann);
    const said = await refusal(() => f.store.move(epic, 'Done', ann));
    assert.match(said, new RegExp(`#${epic} cannot be done while records under it are not: #${b}\\.`));
    await f.store.move(epic, 'Doing', ann);
    await f.store.move(b, 'Done', ann);
    assert.equal((await f.store.move(epic, 'Done', ann)).state, 'done');
  } finally {
    await f.done();
  }
});

eachStore('children: deleting a parent says what becomes of its children: refused without, orphaned, or deleted with it', async () => {
  const f = await twoLists();
  try {
    const epic = (await f.store.add('tasks', { title: 'Epic' }, bot)).id;
    const a = (await f.store.add('tasks', { title: 'A', parent: epic }, bot)).id;
    const a1 = (await f.store.add('tasks', { title: 'A1', parent: a }, bot)).id;
    const b = (await f.store.add('blank', { title: 'B', parent: epic }, ann)).id;
    const said = await refusal(() => f.store.delete(epic, ann));
    assert.match(said, new RegExp(`#${epic} has records under it \\(#${a}, #${b}\\): say what becomes of them, --children orphan`));
    assert.equal((await f.store.get(epic, ann)).children!.length, 2, 'nothing was deleted');

    const gone = await f.store.delete(a, ann, { children: 'delete' });
    assert.deepEqual(gone.children, [a1]);
    assert.match(await refusal(() => f.store.get(a1, ann)), /no record/);

    const orphaned = await f.store.delete(epic, ann, { children: 'orphan' });
    assert.equal(orphaned.children, undefined);
    const left = await f.store.get(b, ann);
    assert.equal(left.parent, undefined);
    assert.equal(left.record.title, 'B');

    // A record with none under it is deleted as before, with nothing said.
    assert.equal((await f.store.delete(b, ann)).id, b);
  } finally {
    await f.done();
  }
});

eachStore('children first: where the list says so, a parent is not ready (nor taken by take --next) while a child is not done', async () => {
  const f = await twoLists();
  try {
    const epic = (await f.store.add('tasks', { title: 'Epic' }, bot)).id;
    const a = (await f.store.add('tasks', { title: 'A', parent: epic }, bot)).id;
    const b = (await f.store.add('blank', { title: 'B', parent: epic }, ann)).id;
    const ready = async (): Promise<number[]> => (await f.store.ready('tasks', bot)).lists[0]!.records.map((r) => r.id);
    assert.deepEqual(await ready(), [epic, a], 'off by default: a parent is ready as any record');

    const list = await f.store.editList('tasks', { childrenFirst: true }, ann);
    assert.equal(list.childrenFirst, true);
    assert.deepEqual(await ready(), [a], 'a parent with children not done waits');
    assert.equal((await f.store.takeNext('tasks', bot)).record.id, a, 'take --next passes it over');
    await f.store.release(a, bot);

    await f.store.move(a, 'Done', ann);
    assert.deepEqual(await ready(), [], 'one child, in another list, is not done yet');
    // An archived child counts no more, as for a parent's own move to done.
    await f.store.archive(b, true, ann);
    assert.deepEqual(await ready(), [epic]);
    assert.equal((await f.store.takeNext('tasks', bot)).record.id, epic);
    await f.store.release(epic, bot);

    await f.store.archive(b, false, ann);
    assert.deepEqual(await ready(), []);
    await f.store.editList('tasks', { childrenFirst: false }, ann);
    assert.deepEqual(await ready(), [epic], 'turned off, the parent is ready again');
    assert.equal((await f.store.list('tasks', ann)).childrenFirst, undefined);
  } finally {
    await f.done();
  }
});

eachStore('children first: ready --blocked lists a parent that waits on its children, with them, as ready leaves it out', async () => {
  const f = await twoLists();
  try {
    await f.store.createList({ template: 'blank', title: 'Hidden' }, ann);
    const epic = (await f.store.add('tasks', { title: 'Epic' }, bot)).id;
    const a = (await f.store.add('tasks', { title: 'A', parent: epic }, bot)).id;
    const b = (await f.store.add('blank', { title: 'B', parent: epic }, ann)).id;
    const unseen = (await f.store.add('hidden', { title: 'Unseen', parent: epic }, ann)).id;
    const other = (await f.store.add('tasks', { title: 'Other' }, bot)).id;
    const both = (await f.store.add('tasks', { title: 'Both' }, bot)).id;
    await f.store.add('tasks', { title: 'Under both', parent: both }, bot);
    await f.store.needs(both, [other], bot);
    const blocked = async () => (await f.store.blocked('tasks', bot)).lists[0]!;
    const ready = async (): Promise<number[]> => (await f.store.ready('tasks', bot)).lists[0]!.records.map((r) => r.id);

    const off = await blocked();
    assert.deepEqual(off.records.map((r) => [r.record.id, r.children]), [[both, undefined]], 'off: only what needs another waits');
    assert.equal(off.total, 1);

    await f.store.editList('tasks', { childrenFirst: true }, ann);
    assert.equal((await ready()).includes(epic), false);
    const on = await blocked();
    assert.equal(on.total, 2);
    assert.deepEqual(on.records.map((r) => r.record.id), [epic, both]);
    const [parent, needing] = on.records;
    assert.deepEqual(parent!.children!.map((l) => [l.id, l.stateName]), [[a, 'To do'], [b, 'To do']]);
    assert.equal(parent!.hiddenChildren, 1, 'a child in a list it cannot see is counted, never named');
    assert.deepEqual(parent!.waitsOn, []);
    assert.deepEqual(needing!.waitsOn.map((l) => l.id), [other]);
    assert.equal(needing!.children!.length, 1);

    // A done child, or an archived one, is waited on no more: as ready reads it.
    await f.store.move(a, 'Done', ann);
    await f.store.archive(unseen, true, ann);
    assert.deepEqual((await blocked()).records[0]!.children!.map((l) => l.id), [b]);
    await f.store.move(b, 'Done', ann);
    assert.deepEqual((await blocked()).records.map((r) => r.record.id), [both]);
    assert.equal((await ready()).includes(epic), true);
  } finally {
    await f.done();
  }
});
