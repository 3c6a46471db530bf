/**
 * A record's contents and their rules: titles, typed fields, owners, due dates, notes,
 * attachments, archive and restore, limits, and the history every change writes.
 */
import assert from 'node:assert/strict';
import { ann, bea, bot, fresh, refusal, withBatches, eachStore } from './helpers.js';

async function withTasks() {
  const f = await fresh();
  await f.store.createList({ template: 'tasks' }, ann);
  await f.store.editList('tasks', {
    fields: [
      ...(await f.store.list('tasks', ann)).fields,
      { name: 'Estimate', type: 'number' },
      { name: 'Start', type: 'date' },
      { name: 'Reviewer', type: 'person' },
      { name: 'Page', type: 'url' },
    ],
  }, ann);
  await f.store.grant('tasks', 'bot', 'write', ann);
  await f.store.addSide('/home/ann/site/.binder', 'Claude', ann);
  return f;
}

eachStore('record refs: 12, "12" and "#12"; anything else is refused', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'x' }, bot);
    for (const ref of [r.id, String(r.id), `#${r.id}`, ` #${r.id} `]) assert.equal((await f.store.get(ref, bot)).record.id, r.id);
    assert.equal(await refusal(() => f.store.get('twelve', bot)), '"twelve" is not a record number: give it as 12 or #12.');
    assert.match(await refusal(() => f.store.get('1; DROP', bot)), /is not a record number/);
  } finally {
    await f.done();
  }
});

eachStore('list refs by id, title in any case, or the slug of the ref; state refs by name or id', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'tasks', title: 'Site Work' }, ann);
    for (const ref of ['site-work', 'SITE WORK', 'site work', 'Site-Work']) assert.equal((await f.store.list(ref, ann)).id, 'site-work');
    const r = await f.store.add('Site work', { title: 'x', state: 'review' }, ann);
    assert.equal(r.state, 'review');
    assert.equal((await f.store.move(r.id, 'TO DO', ann)).state, 'to-do');
    assert.equal(await refusal(() => f.store.move(r.id, 'Nowhere', ann)),
      '"Nowhere" is not a state of "Site Work": its states are To do, Doing, Review, Done.');
  } finally {
    await f.done();
  }
});

eachStore('titles: newlines become spaces, 1 to 300 characters', async () => {
  const f = await withBatches();
  try {
    assert.equal((await f.store.add('batches', { title: 'two\nlines\r\nhere' }, bot)).title, 'two lines here');
    assert.match(await refusal(() => f.store.add('batches', { title: '  \n ' }, bot)), /cannot be empty/);
    assert.match(await refusal(() => f.store.add('batches', { title: 'x'.repeat(301) }, bot)), /at most 300 characters/);
    assert.equal((await f.store.add('batches', { title: 'é'.repeat(300) }, bot)).title.length, 300);
    const r = await f.store.add('batches', { title: 'ok' }, bot);
    assert.match(await refusal(() => f.store.note(r.id, 'n'.repeat(8001), bot)), /at most 8000 characters/);
    assert.match(await refusal(() => f.store.note(r.id, ' ', bot)), /cannot be empty/);
    assert.match(await refusal(() => f.store.attach(r.id, { kind: 'link', ref: 'r'.repeat(2001) }, bot)), /at most 2000 characters/);
    assert.equal((await f.store.note(r.id, '\u001b[31m kept as given', bot)).text, '\u001b[31m kept as given');
  } finally {
    await f.done();
  }
});

eachStore('fields are typed; an unknown field names the list\'s fields; empty clears', async () => {
  const f = await withTasks();
  try {
    const r = await f.store.add('tasks', {
      title: 'typed',
      fields: { priority: 'high', Branch: 'site:dark', estimate: '3.5', start: '2026-02-28', reviewer: 'Claude', page: 'https://x.example/a' },
    }, bot);
    assert.deepEqual(r.fields, {
      priority: 'High', branch: 'site:dark', estimate: '3.5', start: '2026-02-28', reviewer: 'agent:claude', page: 'https://x.example/a',
    });
    assert.match(await refusal(() => f.store.edit(r.id, { fields: { estimate: 'lots' } }, bot)), /Estimate is a number/);
    assert.match(await refusal(() => f.store.edit(r.id, { fields: { start: '2026-02-30' } }, bot)), /Start is a date: write it as YYYY-MM-DD/);
    assert.match(await refusal(() => f.store.edit(r.id, { fields: { priority: 'urgent' } }, bot)), /Priority is one of High, Normal, Low/);
    assert.match(await refusal(() => f.store.edit(r.id, { fields: { page: 'javascript:alert(1)' } }, bot)), /web address/);
    assert.equal(await refusal(() => f.store.edit(r.id, { fields: { colour: 'red' } }, bot)),
      '"colour" is not a field of "Tasks": its fields are Priority, Branch, Estimate, Start, Reviewer, Page.');
    assert.match(await refusal(() => f.store.edit(r.id, { fields: { branch: 'b'.repeat(2001) } }, bot)), /at most 2000 characters/);
    assert.equal((await f.store.edit(r.id, { fields: { reviewer: 'me' } }, bot)).fields.reviewer, 'agent:bot');
    const cleared = await f.store.edit(r.id, { fields: { branch: '' } }, bot);
    assert.equal('branch' in cleared.fields, false);
  } finally {
    await f.done();
  }
});

eachStore('owners: me, ids, agents by a side\'s name, people by name; at most 20', async () => {
  const f = await withTasks();
  try {
    const r = await f.store.add('tasks', { title: 'o', owners: ['me', 'Claude', 'Zoé', 'person:bea', 'me'] }, bot);
    assert.deepEqual(r.owners, ['agent:bot', 'agent:claude', 'person:Zoé', 'person:bea']);
    assert.deepEqual((await f.store.edit(r.id, { owners: [] }, bot)).owners, []);
    const many = Array.from({ length: 21 }, (_, i) => `person:p${i}`);
    assert.match(await refusal(() => f.store.edit(r.id, { owners: many }, bot)), /at most 20 owners/);
  } finally {
    await f.done();
  }
});

eachStore('due dates: a date or a date and time, a real one; none clears', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'd', due: '2026-11-04T09:30' }, bot);
    assert.equal(r.due, '2026-11-04 09:30');
    assert.equal((await f.store.edit(r.id, { due: '2026-11-05' }, bot)).due, '2026-11-05');
    for (const bad of ['2026-02-30', '2026-13-01', '04/11/2026', '2026-11-04 25:00', 'tomorrow']) {
      assert.match(await refusal(() => f.store.edit(r.id, { due: bad }, bot)), /is not a due date/);
    }
    assert.equal((await f.store.edit(r.id, { due: 'none' }, bot)).due, null);
    assert.equal((await f.store.edit(r.id, { due: '2026-11-05 08:00' }, bot)).due, '2026-11-05 08:00');
    assert.equal((await f.store.edit(r.id, { due: '' }, bot)).due, null);
  } finally {
    await f.done();
  }
});

eachStore('notes, attachments and a note rewritten by its author only', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'n', note: 'first' }, bot);
    const mine = await f.store.note(r.id, 'by Ann', ann);
    assert.equal((await f.store.editNote(r.id, mine.id, 'by Ann, better', ann)).edited, true);
    const theirs = (await f.store.get(r.id, ann)).record.notes[0]!;
    assert.match(await refusal(() => f.store.editNote(r.id, theirs.id, 'not mine', ann)), /Only its author, Bot, can rewrite note/);
    assert.match(await refusal(() => f.store.editNote(r.id, 9999, 'x', ann)), /has no note 9999/);
    assert.match(await refusal(() => f.store.editNote(r.id, mine.id, 'x', bea)), /Only its author, Ann/);

    const other = await f.store.add('batches', { title: 'other' }, bot);
    const link = await f.store.attach(r.id, { kind: 'record', ref: String(other.id), title: 'see\nalso' }, bot);
    assert.deepEqual([link.ref, link.title], [`#${other.id}`, 'see also']);
    await f.store.attach(r.id, { kind: 'branch', ref: 'site:dark' }, bot);
    assert.equal((await f.store.show('batches', bot)).records.find((x) => x.id === r.id)!.attached, 2);
    assert.equal((await f.store.detach(r.id, 'site:dark', bot)).kind, 'branch');
    assert.equal((await f.store.detach(r.id, String(link.id), bot)).ref, `#${other.id}`);
    assert.match(await refusal(() => f.store.detach(r.id, 'site:dark', bot)), /Nothing attached to #\d+ is "site:dark"/);
    assert.match(await refusal(() => f.store.attach(r.id, { kind: 'nope' as 'link', ref: 'x' }, bot)), /not a kind of attachment/);
  } finally {
    await f.done();
  }
});

eachStore('an archived record leaves the views and cannot change until restored', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'shelve me' }, bot);
    await f.store.archive(r.id, true, bot);
    assert.equal((await f.store.show('batches', bot)).records.length, 0);
    assert.equal((await f.store.show('batches', bot, { archived: true })).records[0]!.id, r.id);
    assert.deepEqual(await f.store.search('shelve', bot), []);
    assert.equal((await f.store.search('shelve', bot, { archived: true }))[0]!.archived, true);
    assert.equal((await f.store.lists(bot))[0]!.count, 0);
    const sentence = `#${r.id} is archived: restore it first (binder restore ${r.id}).`;
    assert.equal(await refusal(() => f.store.edit(r.id, { title: 'x' }, bot)), sentence);
    assert.equal(await refusal(() => f.store.move(r.id, 'Done', ann)), sentence);
    assert.equal(await refusal(() => f.store.note(r.id, 'x', bot)), sentence);
    assert.equal(await refusal(() => f.store.approve(r.id, true, ann)), sentence);
    assert.equal((await f.store.get(r.id, bot)).record.archived, true, 'get still finds it');
    assert.equal((await f.store.archive(r.id, false, bot)).archived, false);
    assert.equal((await f.store.edit(r.id, { title: 'back' }, bot)).title, 'back');
  } finally {
    await f.done();
  }
});

eachStore('every change writes a history row saying who, what and how', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'old' }, bot);
    f.clock.ms += 1000;
    await f.store.edit(r.id, { title: 'new' }, bot);
    await f.store.move(r.id, 'Doing', ann);
    await f.store.note(r.id, 'n', bot);
    await f.store.attach(r.id, { kind: 'link', ref: 'https://x.example' }, bot);
    await f.store.detach(r.id, 'https://x.example', bot);
    await f.store.archive(r.id, true, bot);
    await f.store.archive(r.id, false, bot);
    await f.store.edit(r.id, { title: 'new' }, bot);
    const h = (await f.store.get(r.id, ann)).history;
    assert.deepEqual(h.map((x) => x.op), ['add', 'edit', 'move', 'note', 'attach', 'detach', 'archive', 'restore']);
    assert.deepEqual(h[1]!.change, { title: ['old', 'new'] });
    assert.equal(h[1]!.at, new Date(f.clock.ms).toISOString());
    assert.deepEqual(h[1]!.by, bot);
    assert.deepEqual(h[2]!.change, { from: 'proposed', to: 'doing', approved: true });
    assert.equal(h[2]!.by.id, ann.id);
    assert.ok(h.every((x) => x.record === r.id && x.list === 'batches'));
  } finally {
    await f.done();
  }
});

eachStore('get returns at most the last 200 history rows, newest last', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 't0' }, bot);
    for (let i = 1; i <= 210; i++) await f.store.edit(r.id, { title: `t${i}` }, bot);
    const h = (await f.store.get(r.id, bot)).history;
    assert.equal(h.length, 200);
    assert.deepEqual(h.at(-1)!.change, { title: ['t209', 't210'] });
    assert.ok(h[0]!.id < h[199]!.id);
  } finally {
    await f.done();
  }
});
