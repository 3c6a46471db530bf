/**
 * Records under records through export and import: Binder's own file keeps each record's parent
 * and its list's "children first", and an import renumbered puts each copy under its parent's
 * copy, in its history too; Beads' parent-child link becomes the parent; a loop of parents in a
 * file is refused by line; `check` finds a record lying under itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../../src/store/index.js';
import { binder } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const ann = { id: 'person:ann', kind: 'person' as const, name: 'ann' };

test('export and import keep parents: the copies lie under the copies, their history renumbered, the list\'s setting kept', async (t) => {
  const root = tempDir(t);
  const dir = join(root, 'store');
  const s = openStore(dir);
  await s.createList({ template: 'tasks', title: 'Work' }, ann);
  await s.editList('work', { childrenFirst: true }, ann);
  const epic = (await s.add('work', { title: 'Epic' }, ann)).id;
  const a = (await s.add('work', { title: 'A', parent: epic }, ann)).id;
  const b = (await s.add('work', { title: 'B' }, ann)).id;
  await s.edit(b, { parent: epic }, ann);
  await s.close();

  const file = join(root, 'binder.json');
  assert.equal(binder(['admin', '--store', dir, '--as', 'ann', 'export', '--out', file]).code, 0);
  // The same store again: every number is taken, so each record gets a new one.
  const done = binder(['admin', '--store', dir, '--as', 'ann', 'import', file, '--yes']);
  assert.equal(done.code, 0, done.err);
  assert.match(done.out, /3 records got a new number[^]*2 records under another of them\./);

  const r = openStore(dir);
  t.after(() => r.close());
  const copyOf = (n: number): number => n + 3;
  const epicCopy = await r.get(copyOf(epic), ann);
  assert.equal(epicCopy.list.id, 'work-2');
  assert.equal(epicCopy.list.childrenFirst, true, 'the list says children first, as it did');
  assert.deepEqual(epicCopy.children!.map((l) => l.id), [copyOf(a), copyOf(b)]);
  const aCopy = await r.get(copyOf(a), ann);
  assert.equal(aCopy.parent!.id, copyOf(epic));
  assert.equal((aCopy.history.find((h) => h.op === 'add')!.change as { parent: number }).parent, copyOf(epic));
  const bCopy = await r.get(copyOf(b), ann);
  assert.deepEqual(bCopy.history.find((h) => h.op === 'edit')!.change, { parent: [null, copyOf(epic)] });
  // The originals are as they were.
  assert.deepEqual((await r.get(epic, ann)).children!.map((l) => l.id), [a, b]);
});

test('a loop of parents in a Binder file is refused by its line, and nothing is written', async (t) => {
  const root = tempDir(t);
  const dir = join(root, 'store');
  const s = openStore(dir);
  await s.createList({ template: 'blank', title: 'Work' }, ann);
  const one = (await s.add('work', { title: 'One' }, ann)).id;
  const two = (await s.add('work', { title: 'Two', parent: one }, ann)).id;
  await s.close();
  const file = join(root, 'binder.json');
  assert.equal(binder(['admin', '--store', dir, '--as', 'ann', 'export', '--out', file]).code, 0);
  // One under two and two under one: what the binder never lets anyone make.
  const text = readFileSync(file, 'utf8').replace(`"id":${one},`, `"id":${one},"parent":${two},`);
  writeFileSync(file, text);
  const other = join(root, 'other');
  const refused = binder(['admin', '--store', other, '--as', 'ann', 'import', file, '--yes']);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /^Not done: Line \d+: #1 cannot go under #2: #2 under #1, so it would lie under itself/);
  const o = openStore(other);
  t.after(() => o.close());
  assert.deepEqual((await o.lists(ann)).map((l) => l.id), [], 'nothing was written');
});

test('beads: a parent-child link puts the child under its parent', async (t) => {
  const root = tempDir(t);
  const dir = join(root, 'store');
  const s = openStore(dir);
  await s.createList({ template: 'tasks', title: 'Work' }, ann);
  await s.close();
  const file = join(root, 'issues.jsonl');
  writeFileSync(file, [
    '{"id":"bd-1","title":"Epic","status":"open"}',
    '{"id":"bd-1.1","title":"Child","status":"open","dependencies":[{"issue_id":"bd-1.1","depends_on_id":"bd-1","type":"parent-child"}]}',
  ].join('\n'));
  const done = binder(['admin', '--store', dir, '--as', 'ann', 'import', file, '--into', 'work']);
  assert.equal(done.code, 0, done.err);
  assert.match(done.out, /1 record under another of them\./);
  const r = openStore(dir);
  t.after(() => r.close());
  const child = await r.get(2, ann);
  assert.equal(child.parent!.id, 1);
  assert.deepEqual(child.record.attached, [], 'the link is the parent, not an attachment');
});

test('check finds records lying under themselves, which the binder never makes', async (t) => {
  const root = tempDir(t);
  const dir = join(root, 'store');
  const s = openStore(dir);
  await s.createList({ template: 'blank' }, ann);
  const one = (await s.add('blank', { title: 'One' }, ann)).id;
  const two = (await s.add('blank', { title: 'Two', parent: one }, ann)).id;
  await s.close();
  const sound = binder(['admin', '--store', dir, 'check']);
  assert.equal(sound.code, 0, sound.out);
  assert.match(sound.out, /  records under records: none under itself/);
  const db = new Database(join(dir, 'binder.db'));
  db.prepare('INSERT INTO parents (record, parent) VALUES (?, ?)').run(one, two);
  db.close();
  const found = binder(['admin', '--store', dir, 'check']);
  assert.equal(found.code, 1);
  assert.match(found.out, /  records under records: 2 records in a loop of parents, each under itself/);
});
