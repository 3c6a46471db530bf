/**
 * The brief's rules that claims.test.ts does not hold: whose notes each asker is told, and a
 * first brief on a long history of several lists — where it starts, its order, its pages.
 */
import assert from 'node:assert/strict';
import { ann, bea, bot, spy, withBatches, eachStore } from './helpers.js';
import type { Who } from '../../src/store/index.js';
import { inOrder } from '../helpers/temp.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const cara: Who = { id: 'person:cara', kind: 'person', name: 'Cara' };

eachStore('brief: a person is told everyone\'s notes but their own; an agent, people\'s only', async () => {
  const f = await withBatches();
  try {
    await f.store.grant('batches', 'agent:spy', 'read', ann);
    const id = (await f.store.add('batches', { title: 'Dark mode' }, ann)).id;
    for (const who of [ann, bea, bot, spy]) await f.store.brief(who);
    await f.store.note(id, 'by the agent', bot);
    await f.store.note(id, 'by Ann', ann);
    await f.store.note(id, 'by Bea', bea);
    const notes = async (who: Who): Promise<[string, string][]> =>
      (await f.store.brief(who)).items.map((i) => [i.by.id, i.kind === 'note' ? i.text ?? '' : i.kind]);

    assert.deepEqual(await notes(ann), [['agent:bot', 'by the agent'], ['person:bea', 'by Bea']]);
    assert.deepEqual(await notes(bea), [['agent:bot', 'by the agent'], ['person:ann', 'by Ann']]);
    assert.deepEqual(await notes(spy), [['person:ann', 'by Ann'], ['person:bea', 'by Bea']], 'another agent\'s note is not told to an agent');
    assert.deepEqual(await notes(bot), [['person:ann', 'by Ann'], ['person:bea', 'by Bea']]);
    assert.deepEqual(await notes(ann), [], 'each note told once');

    // The same through a list, a record, a peek, and a first look.
    await f.store.note(id, 'the agent again', bot);
    const told = (b: { items: { by: Who; text?: string }[] }): string[] => b.items.map((i) => i.text ?? '');
    assert.deepEqual(told(await f.store.brief(ann, { list: 'Batches' })), ['the agent again']);
    assert.deepEqual(told(await f.store.brief(ann, { record: id })), ['the agent again']);
    assert.deepEqual(told(await f.store.brief(ann, { peek: true })), ['the agent again']);
    assert.deepEqual((await f.store.brief(cara)).items.filter((i) => i.kind === 'note').map((i) => i.text),
      ['by the agent', 'by Ann', 'by Bea', 'the agent again']);
    assert.deepEqual((await f.store.brief(spy)).items, []);
  } finally {
    await f.done();
  }
});

eachStore('brief: a first look on a long history of several lists starts a day back and comes in history order, page by page', async () => {
  const f = await withBatches();
  try {
    await f.store.createList({ template: 'tasks', title: 'Secret' }, ann);
    await f.store.createList({ template: 'tasks', title: 'Third' }, ann);
    await f.store.grant('third', 'agent:bot', 'write', ann);
    const start = f.clock.ms;
    // Three days of adds, the lists taking turns, by a person and by the agent.
    const added: { id: number; list: string; by: string; at: number }[] = [];
    const lists = ['batches', 'secret', 'third'];
    for (let i = 0; i < 3 * 24 * 4; i++) {
      const list = lists[i % 3]!;
      const by = list === 'secret' || i % 2 === 0 ? ann : bot;
      added.push({ id: (await f.store.add(list, { title: `r${i}` }, by)).id, list, by: by.id, at: f.clock.ms });
      f.clock.ms += HOUR / 4;
    }
    // The first look comes exactly a day after one of the rows: that row is in it, the one before is not.
    f.clock.ms = added.at(-1)!.at + 1;
    const edge = added.find((a) => a.at >= f.clock.ms - DAY)!;
    f.clock.ms = edge.at + DAY;
    assert.ok(edge.at > start, 'the history began more than a day before');

    const pages = async (who: Who, limit: number): Promise<number[][]> => {
      const out: number[][] = [];
      for (let more = true; more;) {
        const b = await f.store.brief(who, { limit });
        assert.ok(b.items.length <= limit);
        assert.equal(b.more, b.items.length === limit && out.flat().length + limit < expectedFor(who).length);
        out.push(b.items.map((i) => i.record));
        more = b.more;
      }
      return out;
    };
    const expectedFor = (who: Who): number[] => added
      .filter((a) => a.at >= edge.at && a.by !== who.id && (who.kind === 'person' || a.list !== 'secret'))
      .map((a) => a.id);

    const forBea = expectedFor(bea);
    assert.ok(forBea.length > 60, 'more than a page');
    assert.deepEqual((await f.store.brief(bea, { peek: true, limit: 500 })).items.map((i) => i.record), forBea, 'a peek shows it all');
    assert.equal((await f.store.brief(bea, { peek: true, limit: 500 })).items[0]!.at, new Date(edge.at).toISOString());
    const beaPages = await pages(bea, 7);
    assert.deepEqual(beaPages.flat(), forBea, 'each change once, in history order, across pages');
    assert.ok(beaPages.slice(0, -1).every((p) => p.length === 7));
    assert.deepEqual((await f.store.brief(bea)).items, [], 'all seen');

    // Ann's first look: the agent's adds only, her own are not news.
    assert.deepEqual((await pages(ann, 50)).flat(), expectedFor(ann));
    // The agent sees two of the three lists, and not its own adds.
    const forBot = expectedFor(bot);
    assert.ok(forBot.every((id) => added.find((a) => a.id === id)!.list !== 'secret'));
    assert.deepEqual((await pages(bot, 5)).flat(), forBot);

    // A filtered first look moves nothing, and keeps to its list or its record.
    const third = added.filter((a) => a.list === 'third' && a.at >= edge.at && a.by !== cara.id).map((a) => a.id);
    const byList = await f.store.brief(cara, { list: 'Third', limit: 500 });
    assert.deepEqual(byList.items.map((i) => i.record), third);
    assert.deepEqual((await f.store.brief(cara, { list: 'Third', limit: 3 })).items.map((i) => i.record), third.slice(0, 3));
    assert.equal((await f.store.brief(cara, { list: 'Third', limit: 3 })).more, true);
    const one = third[4]!;
    await f.store.move(one, 'Doing', ann);
    assert.deepEqual((await f.store.brief(cara, { record: one })).items.map((i) => [i.record, i.kind]), [[one, 'added'], [one, 'moved']]);
    const old = added[0]!.id;
    await f.store.move(old, 'Doing', ann);
    assert.deepEqual((await f.store.brief(cara, { record: old })).items.map((i) => i.kind), ['moved'], 'its add was more than a day back');
    assert.deepEqual((await pages(cara, 50)).flat(), [...expectedFor(cara), one, old], 'the filtered looks moved nothing');
  } finally {
    await f.done();
  }
});

eachStore('brief: a first look when the whole history is less than a day old, or more than a day old', async () => {
  const f = await withBatches();
  try {
    assert.deepEqual((await f.store.brief(bea)).items, [], 'an empty history');
    const ids = await inOrder([1, 2, 3], async (i) => (await f.store.add('batches', { title: `r${i}` }, bot)).id);
    assert.deepEqual((await f.store.brief(ann)).items.map((i) => i.record), ids, 'all of it, from the first row');
    f.clock.ms += DAY + 1;
    assert.deepEqual((await f.store.brief(cara)).items, [], 'none of it');
    await f.store.approve(ids[1]!, true, ann);
    assert.deepEqual((await f.store.brief({ ...cara, id: 'person:dan' })).items.map((i) => [i.record, i.kind]), [[ids[1], 'approved']]);
  } finally {
    await f.done();
  }
});

eachStore('brief: an agent far behind (more than a page) is told a summary and the latest few, and its place moves to now', async () => {
  const f = await withBatches();
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    await f.store.grant('tasks', 'agent:bot', 'read', ann);
    await f.store.createList({ template: 'tasks', title: 'Secret' }, ann);
    const batch = await inOrder(Array.from({ length: 120 }, (_, i) => i), async (_, i) => (await f.store.add('batches', { title: `b${i}` }, ann)).id);
    for (const id of batch.slice(0, 30)) await f.store.approve(id, true, ann);
    for (const id of batch.slice(0, 20)) await f.store.move(id, 'Doing', ann);
    const tasks = await inOrder(Array.from({ length: 40 }, (_, i) => i), async (_, i) => (await f.store.add('tasks', { title: `t${i}` }, ann)).id);
    for (const id of tasks.slice(0, 5)) await f.store.note(id, 'a person\'s note', ann);
    for (let i = 0; i < 10; i++) await f.store.add('secret', { title: `s${i}` }, ann);
    const last = (await f.store.add('batches', { title: 'the latest' }, ann)).id;

    const b = await f.store.brief(bot);
    assert.ok(b.summary, 'a summary');
    assert.equal(b.more, false);
    assert.equal(b.summary.total, 121 + 30 + 20 + 40 + 5);
    assert.deepEqual(b.summary.lists, [
      { list: 'batches', title: 'Batches', total: 171, counts: { added: 121, approved: 30, moved: 20 } },
      { list: 'tasks', title: 'Tasks', total: 45, counts: { added: 40, note: 5 } },
    ]);
    assert.equal(b.items.length, 10, 'the latest few');
    assert.equal(b.items.at(-1)!.record, last);
    assert.deepEqual(b.items.map((i) => [i.kind, i.record]), [
      ...tasks.slice(-4).map((id) => ['added', id]), ...tasks.slice(0, 5).map((id) => ['note', id]), ['added', last],
    ], 'in history order');
    assert.deepEqual((await f.store.brief(bot, { peek: true })).items, [], 'its place is now the latest change');
    assert.deepEqual((await f.store.brief(bot)).items, []);

    // Less than a page behind: each change, as before.
    const few = await inOrder(Array.from({ length: 50 }, (_, i) => i), async (_, i) => (await f.store.add('batches', { title: `c${i}` }, ann)).id);
    const told = await f.store.brief(bot);
    assert.equal(told.summary, undefined);
    assert.deepEqual(told.items.map((i) => i.record), few);

    // A person far behind still reads page by page (the screen pages through them).
    const forBea = await f.store.brief(bea);
    assert.equal(forBea.summary, undefined);
    assert.equal(forBea.items.length, 50);
    assert.equal(forBea.more, true);
  } finally {
    await f.done();
  }
});

eachStore('brief: a person reads the newest first with a count of each kind, from any number of screens, until they mark them seen', async () => {
  const f = await withBatches();
  try {
    await f.store.brief(ann);
    const ids = await inOrder([0, 1, 2], async (_, i) => (await f.store.add('batches', { title: `r${i}` }, bot)).id);
    await f.store.move(ids[0]!, 'Approved', bea);
    await f.store.note(ids[1]!, 'looked at it', bea);
    await f.store.add('batches', { title: 'mine' }, ann);

    const look = await f.store.brief(ann, { peek: true, newest: true, limit: 3 });
    assert.deepEqual(look.items.map((i) => [i.kind, i.record]), [['note', ids[1]], ['moved', ids[0]], ['added', ids[2]]], 'the newest first');
    assert.equal(look.more, true);
    assert.deepEqual(look.counts, { total: 5, kinds: { added: 3, moved: 1, note: 1 } }, 'counted past the page, the person\'s own not');
    // Where the history stands, without counting all that wait: the same look, counts of what it shows.
    const where = await f.store.brief(ann, { peek: true, newest: true, limit: 1, counted: false });
    assert.equal(where.through, look.through);
    assert.deepEqual(where.counts, { total: 1, kinds: { note: 1 } });
    const all = await f.store.brief(ann, { peek: true, newest: true });
    assert.equal(all.more, false);
    assert.deepEqual(all.counts, { total: 5, kinds: { added: 3, moved: 1, note: 1 } });
    // A second screen of the same person sees the same: reading marks nothing.
    assert.deepEqual((await f.store.brief(ann, { peek: true, newest: true })).items, all.items);

    // Marked seen through what was shown: a change that came after it still waits.
    await f.store.add('batches', { title: 'after the look' }, bot);
    assert.deepEqual(await f.store.markSeen(ann, all.through!), { through: all.through });
    const next = await f.store.brief(ann, { peek: true, newest: true });
    assert.deepEqual(next.items.map((i) => i.title), ['after the look']);
    assert.deepEqual(next.counts, { total: 1, kinds: { added: 1 } });
    // Never back, never past the history's end.
    assert.equal((await f.store.markSeen(ann, 1)).through, all.through);
    const end = (await f.store.markSeen(ann, 1e9)).through;
    assert.equal(end, next.through);
    assert.deepEqual((await f.store.brief(ann)).items, []);
    // Another person's place is their own.
    assert.ok((await f.store.brief(bea, { peek: true, newest: true })).items.length > 0);
  } finally {
    await f.done();
  }
});

eachStore('brief: a change that brings a record to wait for a person\'s approval says so, and no other does', async () => {
  const f = await withBatches();
  try {
    await f.store.brief(ann);
    const proposed = (await f.store.add('batches', { title: 'Proposed by the agent' }, bot)).id;
    const byBea = (await f.store.add('batches', { title: 'Added by Bea' }, bea)).id;
    await f.store.approve(proposed, true, ann);
    await f.store.move(proposed, 'Doing', bot);
    await f.store.edit(proposed, { title: 'Changed by the agent' }, bot);
    await f.store.note(byBea, 'a note', bot);
    const told = (await f.store.brief(ann)).items.map((i) => [i.kind, i.record, i.waits === true]);
    assert.deepEqual(told, [
      ['added', proposed, true],
      ['added', byBea, false],
      ['moved', proposed, false],
      ['withdrawn', proposed, true],
      ['note', byBea, false],
    ]);
  } finally {
    await f.done();
  }
});
