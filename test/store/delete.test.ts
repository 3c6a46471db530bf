/**
 * Deleting is for good: no byte of a deleted record's title, notes or field values survives
 * in binder.db nor its write-ahead log, and its history is emptied down to who and when.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ann, bot, fresh, refusal, withBatches, eachStore, type Fixture } from './helpers.js';

const WORDS = ['Zanzibarquux', 'Plovdivrexel', 'Quibblethorpe'];

function bytesLeft(dir: string): string[] {
  const found: string[] = [];
  for (const name of ['binder.db', 'binder.db-wal']) {
    const path = join(dir, 'store', name);
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    for (const word of WORDS) {
      for (const form of [word, word.toLowerCase(), word.toUpperCase()]) {
        if (bytes.includes(Buffer.from(form, 'utf8'))) found.push(`${form} in ${name}`);
      }
    }
  }
  return found;
}

async function fill(f: Fixture): Promise<number> {
  const s = f.store;
  await s.createList({ template: 'tasks', title: 'Work' }, ann);
  await s.grant('work', 'bot', 'write', ann);
  // Neighbours before and after, so the deleted one shares pages and index segments.
  for (let i = 0; i < 30; i++) await s.add('work', { title: `neighbour ${i} plain words`, note: `note ${i}` }, bot);
  const r = await s.add('work', {
    title: `Secret ${WORDS[0]} plan`,
    note: `the ${WORDS[1]} detail`,
    fields: { branch: `feature/${WORDS[2]}` },
  }, bot);
  await s.note(r.id, `again ${WORDS[1]} and ${WORDS[0]}`, bot);
  await s.edit(r.id, { title: `Secret ${WORDS[0]} plan, revised` }, ann);
  await s.attach(r.id, { kind: 'link', ref: `https://example.com/${WORDS[2]}`, title: WORDS[0] }, bot);
  for (let i = 30; i < 60; i++) await s.add('work', { title: `neighbour ${i} plain words`, note: `note ${i}` }, bot);
  return r.id;
}

test('a deleted record leaves no byte of its text in the database nor its log', async () => {
  const f = await fresh();
  try {
    const id = await fill(f);
    await f.store.checkpoint();
    assert.ok(bytesLeft(f.dir).length > 0, 'the words are in the file before the delete');
    assert.equal((await f.store.search(WORDS[0]!, ann)).length, 1);

    assert.deepEqual(await f.store.delete(`#${id}`, ann), { id, list: 'work', notes: 2, attachments: 1 });
    assert.deepEqual(bytesLeft(f.dir), []);
    assert.equal((await f.store.search(WORDS[0]!, ann)).length, 0);
    assert.equal((await f.store.search('neighbour', ann, { limit: 500 })).length, 60, 'the others are still found');
  } finally {
    await f.done();
  }
});

test('a deleted record of many notes, some in its own row and some past it, some rewritten, leaves no byte of them', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'tasks', title: 'Work' }, ann);
    for (let i = 0; i < 10; i++) await f.store.add('work', { title: `neighbour ${i}`, note: `note ${i}` }, ann);
    const r = await f.store.add('work', { title: 'A long story' }, ann);
    const long = await f.store.note(r.id, `${'filler words '.repeat(300)} ${WORDS[0]}`, ann);
    await f.store.note(r.id, 'more filler '.repeat(650), ann);
    for (let i = 0; i < 70; i++) await f.store.note(r.id, `entry ${i} ${WORDS[i % 2 === 0 ? 1 : 2]}`, ann);
    // Longer, then short: the notes after it move out of the record's row, then back into it.
    await f.store.editNote(r.id, long.id, `${'filler words '.repeat(610)} ${WORDS[0]}`, ann);
    await f.store.editNote(r.id, long.id, `short ${WORDS[0]}`, ann);
    for (let i = 0; i < 10; i++) await f.store.add('work', { title: `neighbour after ${i}`, note: `note ${i}` }, ann);
    await f.store.checkpoint();
    assert.deepEqual((await f.store.search(`${WORDS[0]} ${WORDS[1]} ${WORDS[2]}`, ann)).map((h) => h.id), [r.id]);
    await f.store.delete(r.id, ann);
    assert.deepEqual(bytesLeft(f.dir), []);
    assert.equal((await f.store.search('neighbour', ann, { limit: 500 })).length, 20, 'the others are still found');
  } finally {
    await f.done();
  }
});

test('a deleted list leaves no byte of its records in the files', async () => {
  const f = await fresh();
  try {
    await fill(f);
    const gone = await f.store.deleteList('Work', ann);
    assert.equal(gone.records, 61);
    assert.deepEqual(bytesLeft(f.dir), []);
    assert.equal((await f.store.lists(ann)).length, 0);
    assert.match(await refusal(() => f.store.get(1, ann)), /There is no record #1 you can see\./);
    const access = f.store.db.prepare('SELECT count(*) FROM access').pluck().get();
    assert.equal(access, 0);
  } finally {
    await f.done();
  }
});

test('delete empties the history down to who and when, with one delete row', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'to go' }, bot);
    await f.store.note(r.id, 'a note', bot);
    await f.store.delete(r.id, ann);
    const rows = f.store.db.prepare('SELECT by, op, list, record, change FROM log WHERE record = ? ORDER BY id').all(r.id) as
      { by: string; op: string; list: string; record: number; change: string | null }[];
    assert.deepEqual(rows.map((x) => x.op), ['erased', 'erased', 'delete']);
    assert.ok(rows.every((x) => x.change === null));
    assert.equal(JSON.parse(rows[2]!.by).id, ann.id);
    assert.equal(rows[2]!.list, 'batches');
    assert.equal(f.store.db.prepare('SELECT count(*) FROM notes').pluck().get(), 0);
  } finally {
    await f.done();
  }
});

test('delete drops answers already delivered, keeps the ones still owed', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'quoted' }, bot);
    const ins = f.store.db.prepare('INSERT INTO asks (dir, id, at, answer, delivered) VALUES (?, ?, ?, ?, ?)');
    ins.run('/d', 'a1', 1, '{"text":"#1 quoted"}', 1);
    ins.run('/d', 'a2', 2, '{"text":"owed"}', 0);
    await f.store.delete(r.id, ann);
    const answers = f.store.db.prepare('SELECT id, answer FROM asks ORDER BY id').all();
    assert.deepEqual(answers, [{ id: 'a1', answer: null }, { id: 'a2', answer: '{"text":"owed"}' }]);
  } finally {
    await f.done();
  }
});

eachStore('an agent can delete nothing', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'stays' }, bot);
    assert.match(await refusal(() => f.store.delete(r.id, bot)), /Only a person can delete a record: a person does it on their screen or with `binder admin delete`\./);
    assert.match(await refusal(() => f.store.deleteList('batches', bot)), /Only a person can delete a list/);
    assert.equal((await f.store.get(r.id, ann)).record.title, 'stays');
  } finally {
    await f.done();
  }
});
