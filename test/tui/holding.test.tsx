/**
 * The cursor holds a record, not a place: agents adding, archiving and taking records above it
 * move the rows, never the selection; the record held leaving puts the cursor on its neighbour
 * and says so; and a key that changes a record is not done on one that slid under the cursor a
 * moment before (the clock is the screen's own, injected).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Store } from '../../src/store/index.js';
import { AGENT, KEYS, PERSON, openScreen } from './harness.js';

async function tasks(store: Store, todo: number, doing = 0): Promise<void> {
  await store.createList({ template: 'tasks', lang: 'en' }, PERSON);
  await store.grant('tasks', AGENT.id, 'write', PERSON);
  for (let i = 1; i <= todo; i++) await store.add('tasks', { title: `Task ${i}` }, PERSON);
  for (let i = 1; i <= doing; i++) await store.add('tasks', { title: `Busy ${i}`, state: 'Doing' }, PERSON);
}

/** The record each frame shows under the cursor (a card or row marked `>`), frames without one left out. */
const underCursor = (frames: readonly string[]): string[] =>
  frames.flatMap((f) => {
    const m = /(?:^|[│ ])>\s?(#\d+)/m.exec(f.replace(/\u001b\[[0-9;]*m/g, ''));
    return m ? [m[1]!] : [];
  });

test('on a board, a card archived above leaves the cursor on its record; the record leaving puts it on its neighbour, and says so', async (t) => {
  let clock = 1_000_000;
  const s = await openScreen(t, { now: () => clock, prepare: (store) => tasks(store, 12) });
  await s.until((f) => f.includes('To do (12)'), 'the board');
  await s.press(KEYS.enter, KEYS.down, KEYS.down, KEYS.down, KEYS.down);
  await s.until((f) => f.includes('>#5 Task 5'), 'the cursor on #5');
  const from = s.frames.length;
  assert.ok((await s.keeper.act('archive', { id: 2 }, AGENT)).ok);
  assert.ok((await s.keeper.act('archive', { id: 3 }, AGENT)).ok);
  await s.until((f) => f.includes('To do (10)'), 'two cards gone above');
  assert.deepEqual([...new Set(underCursor(s.frames.slice(from)))], ['#5'], 'no frame showed another card under the cursor');

  assert.ok((await s.keeper.act('archive', { id: 5 }, AGENT)).ok);
  const f = await s.until((x) => x.includes('#5 was archived: the cursor is on #6.'), 'the status line says where the cursor went');
  assert.ok(f.includes('>#6 Task 6'), 'the cursor on the neighbour');

  // `a` a moment after #6 slid under the cursor: shown, and asked again, nothing approved.
  clock += 100;
  await s.press('a');
  await s.until((x) => x.includes('#6 has just come under the cursor: nothing was done. a again acts on #6.'), 'asked again');
  assert.equal((await s.store.get(6, PERSON)).record.approved, null);
  // Asked and seen: the next `a` approves what the screen shows.
  await s.press('a');
  await s.until((x) => x.includes('Approved #6') || /approved/i.test(x.split('\n').at(-2) ?? ''), 'approved');
  assert.notEqual((await s.store.get(6, PERSON)).record.approved, null);
});

test('a record that slid under the cursor more than a moment ago is acted on at once', async (t) => {
  let clock = 1_000_000;
  const s = await openScreen(t, { now: () => clock, prepare: (store) => tasks(store, 6) });
  await s.until((f) => f.includes('To do (6)'), 'the board');
  await s.press(KEYS.enter, KEYS.down, KEYS.down);
  await s.until((f) => f.includes('>#3 Task 3'), 'the cursor on #3');
  assert.ok((await s.keeper.act('archive', { id: 3 }, AGENT)).ok);
  await s.until((x) => x.includes('#3 was archived: the cursor is on #4.'), 'the cursor on the neighbour');
  clock += 600;
  await s.press('>');
  await s.until((x) => x.includes('Moved #4 to Doing') && x.includes('>#4 Task 4'), 'moved at once, the cursor with it');
  await s.press(KEYS.left);
  await s.until((x) => x.includes('>#5 Task 5'), 'back in To do, on #5');

  // An agent moves #5 on: the cursor goes with it, says so, and a key pressed a moment later asks again.
  assert.ok((await s.keeper.act('move', { id: 5, state: 'Doing' }, AGENT)).ok);
  await s.until((x) => x.includes('#5 was moved to Doing: the cursor went with it.') && x.includes('>#5 Task 5'), 'the cursor with #5 in Doing');
  clock += 100;
  await s.press('>');
  await s.until((x) => x.includes('#5 has just come under the cursor: nothing was done.'), 'asked again');
  assert.equal((await s.store.get(5, PERSON)).record.state, 'doing');
});

test('in a table, the selection stays on its record through 200 changes above it by agents adding, archiving and taking', async (t) => {
  const s = await openScreen(t, { prepare: (store) => tasks(store, 30, 6) });
  await s.until((f) => f.includes('36'), 'the table');
  await s.store.editList('tasks', { view: 'table' }, PERSON);
  await s.press(KEYS.enter);
  // #33 is the third in Doing, after the thirty in To do.
  for (let i = 0; i < 32; i++) await s.press(KEYS.down);
  await s.until((f) => underCursor([f])[0] === '#33', 'the cursor on #33');
  const from = s.frames.length;
  // Every change is to a record in To do, above Doing in the table.
  const toDo = Array.from({ length: 30 }, (_, i) => i + 1);
  for (let i = 0; i < 200; i++) {
    const kind = i % 4;
    if (kind === 0 || kind === 1) {
      const added = await s.keeper.act('add', { list: 'tasks', title: `New ${i}` }, AGENT);
      assert.ok(added.ok);
      toDo.push((added.data as { id: number }).id);
    } else if (kind === 2) assert.ok((await s.keeper.act('archive', { id: toDo.shift()! }, AGENT)).ok);
    else assert.ok((await s.keeper.act('take', { id: toDo.shift()! }, AGENT)).ok);
    // Now and then a breath, so that the screen reads while the changes come.
    if (i % 20 === 0) await new Promise((r) => setTimeout(r, 60));
  }
  await s.until((f) => f.includes('Tasks · 86 records'), 'every change read', 30_000);
  await s.until((f) => underCursor([f])[0] === '#33', 'the cursor still on #33');
  const seen = [...new Set(underCursor(s.frames.slice(from)))];
  assert.deepEqual(seen, ['#33'], 'no frame showed another record under the cursor');
  // And a key acts on it.
  await s.press('a');
  await s.until(() => true, 'a frame');
  await s.until((x) => /#33/.test(x.split('\n').slice(-3).join(' ')), 'the approval said');
  assert.notEqual((await s.store.get(33, PERSON)).record.approved, null);
});

test('in a record opened, the cursor holds the attached thing it is on: notes added above move it, and T detaches that one', async (t) => {
  let clock = 1_000_000;
  const s = await openScreen(t, {
    now: () => clock,
    prepare: async (store) => {
      await tasks(store, 1);
      for (const ref of ['https://example.org/one', 'https://example.org/two', 'https://example.org/three']) await store.attach(1, { kind: 'link', ref }, PERSON);
    },
  });
  const lineWith = (f: string, text: string) => f.split('\n').find((l) => l.includes(text)) ?? '';
  await s.until((f) => f.includes('#1 Task 1'), 'the board');
  await s.press(KEYS.enter, KEYS.enter);
  await s.until((f) => f.includes('Attached (3)'), 'the record');
  while (!lineWith(s.frame(), 'example.org/two').startsWith('>')) await s.press(KEYS.down);
  // An agent's notes of several lines come above the things attached.
  assert.ok((await s.keeper.act('note', { id: 1, text: 'first line\nsecond line\nthird line' }, AGENT)).ok);
  assert.ok((await s.keeper.act('note', { id: 1, text: 'another' }, AGENT)).ok);
  await s.until((f) => f.includes('Notes (2)') && lineWith(f, 'example.org/two').startsWith('>'), 'the cursor still on the second thing');
  clock += 1000;
  await s.press('T');
  await s.until((f) => f.includes('Attached (2)'), 'one detached');
  const refs = (await s.store.get(1, PERSON)).record.attached.map((a) => a.ref);
  assert.deepEqual(refs, ['https://example.org/one', 'https://example.org/three'], 'the one under the cursor, not another');

  // The thing under the cursor detached by an agent: the next takes its place, and T a moment later asks again.
  const three = (await s.store.get(1, PERSON)).record.attached.find((a) => a.ref.endsWith('three'))!;
  const one = (await s.store.get(1, PERSON)).record.attached.find((a) => a.ref.endsWith('one'))!;
  await s.press(KEYS.up);
  await s.until((f) => lineWith(f, 'example.org/one').startsWith('>'), 'on the first thing');
  assert.ok((await s.keeper.act('detach', { id: 1, what: String(one.id) }, AGENT)).ok);
  await s.until((f) => f.includes('Attached (1)') && lineWith(f, 'example.org/three').startsWith('>'), 'the next under the cursor');
  clock += 100;
  await s.press('T');
  await s.until((f) => f.includes('has just come under the cursor: nothing was done.'), 'asked again');
  assert.deepEqual((await s.store.get(1, PERSON)).record.attached.map((a) => a.id), [three.id]);
});
