/**
 * Binder's own JSON brought back in: a round trip of a 10,000-record binder with notes, needs,
 * approvals and history gives the same binder; numbers taken here are mapped; a bad row refuses
 * the whole import, naming its line, and leaves the store as it was; history brought in is never
 * told as news in an agent's brief.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/index.js';
import { binder } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';
import { dumpStore } from '../survival/fuzz-kit.js';

const ann = { id: 'person:ann', kind: 'person' as const, name: 'ann' };
const bot = { id: 'agent:bot', kind: 'agent' as const, name: 'Bot' };

/** Lists and records, with notes, attachments, needs, approvals, moves and an archived one. */
async function fill(store: Store, n: number): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.createList({ template: 'batches' }, ann);
    await tx.createList({ template: 'tasks', title: 'Work' }, ann);
    await tx.grant('batches', 'agent:bot', 'write', ann);
    await tx.grant('work', 'agent:bot', 'read', ann);
    await tx.editList('work', { fields: [...(await tx.list('work', ann)).fields.map((f) => ({ ...f })), { name: 'Size', type: 'number' }] }, ann);
    for (let i = 1; i <= n; i++) {
      const list = i % 3 === 0 ? 'work' : 'batches';
      const by = i % 2 ? bot : ann;
      const r = await tx.add(list, {
        title: `record ${i} — «${'é'.repeat(i % 4)}»`,
        ...(list === 'work' ? { fields: { Priority: ['High', 'Normal', 'Low'][i % 3]!, Size: String(i % 17) } } : {}),
        ...(i % 5 === 0 ? { due: `2027-0${1 + (i % 9)}-1${i % 10}` } : {}),
        ...(i % 4 === 0 ? { note: `first note of ${i}\nsecond line` } : {}),
      }, list === 'work' ? ann : by);
      if (i % 7 === 0) await tx.note(r.id, `a later note on ${i}`, ann);
      if (list === 'batches' && i % 4 === 1) {
        await tx.approve(r.id, true, ann);
        await tx.move(r.id, 'Doing', bot);
      }
      if (i % 11 === 0) await tx.attach(r.id, { kind: 'link', ref: `https://example.com/${i}`, title: 'spec' }, ann);
      if (i > 3 && i % 13 === 0 && (i - 1) % 97 && (i - 2) % 97) await tx.needs(r.id, [r.id - 1, r.id - 2], ann);
      if (i % 97 === 0) await tx.archive(r.id, true, ann);
    }
  });
}

/** An export without its first line (which says when and by whom it was made). */
const body = (text: string): string => text.slice(text.indexOf('\n') + 1);

test('a round trip of a 10,000-record binder gives the same binder, approvals, needs and history included', { timeout: 170_000 }, async (t) => {
  const root = tempDir(t);
  const first = join(root, 'first');
  const store = openStore(first);
  await fill(store, 10_000);
  const counts = (await store.lists(ann)).map((l) => [l.id, l.count, l.waiting]);
  await store.close();
  const out1 = join(root, 'one.json');
  const out2 = join(root, 'two.json');
  const exported = binder(['admin', '--store', first, '--as', 'ann', 'export', '--out', out1]);
  assert.equal(exported.code, 0, exported.err);
  assert.match(exported.out, /Exported 2 lists and 10000 records/);

  const second = join(root, 'second');
  // What the file grants and approves is said, and asked: piped, without --yes, nothing is imported.
  const asked = binder(['admin', '--store', second, '--as', 'ann', 'import', out1]);
  assert.equal(asked.code, 1);
  assert.match(asked.out, /This file gives agents access: .*\(write\) to /);
  assert.match(asked.out, /It brings [\d,]+ records approved, by ann: .* They pass their lists' gates as soon as they are in\./);
  assert.match(asked.err + asked.out, /Nothing imported: run it again with --yes/);
  const imported = binder(['admin', '--store', second, '--as', 'ann', 'import', out1, '--yes']);
  assert.equal(imported.code, 0, imported.err);
  assert.match(imported.out, /\nImported 2 lists \(batches, work\) and 10,000 records \(#1 to #10000\)\.\n/);
  assert.equal(binder(['admin', '--store', second, '--as', 'ann', 'export', '--out', out2]).code, 0);
  assert.equal(body(readFileSync(out2, 'utf8')), body(readFileSync(out1, 'utf8')), 'the same binder, line for line');

  // The same through the store's own reading: search finds what was imported, counts agree.
  const again = openStore(second);
  t.after(() => again.close());
  assert.equal(again.db.prepare("SELECT count(*) FROM notes WHERE text LIKE 'a later note%'").pluck().get(), Math.floor(10_000 / 7));
  assert.equal((await again.search('later note on 7000', ann))[0]?.id, 7000, 'the search index was made');
  assert.deepEqual((await again.lists(ann)).map((l) => [l.id, l.count, l.waiting]), counts);
  const approved = await again.get(5, ann);
  assert.equal(approved.record.approved?.by.id, 'person:ann');
  assert.equal((await again.get(13, ann)).needs!.map((l) => l.id).join(), '11,12');
});

test('numbers taken here are mapped, with everything that names them', async (t) => {
  const root = tempDir(t);
  const a = join(root, 'a');
  const store = openStore(a);
  await fill(store, 40);
  await store.close();
  const file = join(root, 'a.json');
  assert.equal(binder(['admin', '--store', a, '--as', 'ann', 'export', '--out', file]).code, 0);
  const done = binder(['admin', '--store', a, '--as', 'ann', 'import', file, '--yes']);
  assert.equal(done.code, 0, done.err);
  assert.match(done.out, /Imported 2 lists \(batches as batches-2, its id being taken, work as work-2, its id being taken\) and 40 records \(#41 to #80\)\.\n40 records got a new number/);
  const s = openStore(a);
  t.after(() => s.close());
  // #39 needed #37 and #38; its copy #79 needs their copies, and its history says so.
  const copy = await s.get(79, ann);
  assert.equal(copy.list.id, 'work-2');
  assert.deepEqual(copy.needs!.map((l) => l.id), [77, 78]);
  assert.deepEqual(copy.history.find((h) => h.op === 'needs')!.change, { add: [78, 77] });
  const noted = await s.get(44, ann);
  const note = noted.record.notes[0]!;
  assert.deepEqual(noted.history.find((h) => h.op === 'add')!.change, { title: noted.record.title, state: 'proposed', note: note.id });
  assert.ok(note.id > 15, 'notes numbered after the binder\'s own 15');
});

test('a bad row refuses the whole import with its line, and nothing is written', async (t) => {
  const root = tempDir(t);
  const a = join(root, 'a');
  const store = openStore(a);
  await fill(store, 30);
  await store.close();
  const file = join(root, 'a.json');
  assert.equal(binder(['admin', '--store', a, '--as', 'ann', 'export', '--out', file]).code, 0);
  const lines = readFileSync(file, 'utf8').split('\n');
  // The 20th record (line 1 + 2 lists + 1 + 20): a state its list does not have.
  const at = 1 + 2 + 1 + 20;
  const record = JSON.parse(lines[at - 1]!.replace(/,$/, ''));
  record.state = 'nowhere';
  const bad = [...lines];
  bad[at - 1] = `${JSON.stringify(record)},`;
  const badFile = join(root, 'bad.json');
  writeFileSync(badFile, bad.join('\n'));

  const b = join(root, 'b');
  const target = openStore(b);
  await target.createList({ template: 'blank', title: 'Already here' }, ann);
  const before = dumpStore(target.db);
  await target.close();
  const refused = binder(['admin', '--store', b, '--as', 'ann', 'import', badFile, '--yes']);
  assert.equal(refused.code, 1);
  assert.equal(refused.err, `Not done: Line ${at}: "nowhere" is not a state of "Batches": its states are Proposed, Approved, Doing, Done.\nNothing was imported.\n`);
  const after = openStore(b);
  t.after(() => after.close());
  assert.equal(dumpStore(after.db), before, 'not a row changed');

  // Broken JSON is refused the same way, by line.
  bad[at - 1] = '{"id": 20, "title": },';
  writeFileSync(badFile, bad.join('\n'));
  const broken = binder(['admin', '--store', b, '--as', 'ann', 'import', badFile, '--yes']);
  assert.equal(broken.code, 1);
  assert.match(broken.err, new RegExp(`^Not done: Line ${at}: this is not JSON`));
  assert.equal(dumpStore(after.db), before);
});

test('history brought in by an import is never an agent\'s news; the import itself is one history row', async (t) => {
  const root = tempDir(t);
  const a = join(root, 'a');
  const store = openStore(a);
  await fill(store, 12);
  await store.close();
  const file = join(root, 'a.json');
  assert.equal(binder(['admin', '--store', a, '--as', 'ann', 'export', 'batches', '--out', file]).code, 0);

  const b = join(root, 'b');
  const target = openStore(b);
  await target.createList({ template: 'blank' }, ann);
  await target.grant('blank', 'agent:bot', 'write', ann);
  await target.brief(bot);
  await target.close();
  assert.equal(binder(['admin', '--store', b, '--as', 'ann', 'import', file, '--yes']).code, 0);
  const s = openStore(b);
  t.after(() => s.close());
  // The imported list grants bot write access, as the export said: its history is still no news.
  assert.deepEqual((await s.lists(bot)).map((l) => l.id), ['blank', 'batches']);
  assert.deepEqual((await s.brief(bot)).items, []);
  const row = s.db.prepare("SELECT * FROM log WHERE op = 'import'").get() as { by: string; change: string };
  assert.equal(JSON.parse(row.by).id, 'person:ann');
  assert.deepEqual(JSON.parse(row.change), { format: 'binder', file: 'a.json', lists: ['batches'], records: 8 });
  // New changes are news again.
  await s.note(1, 'after the import', ann);
  assert.deepEqual((await s.brief(bot)).items.map((i) => i.text), ['after the import']);
});

test('states and fields come back by their ids, whatever their names became', async (t) => {
  const root = tempDir(t);
  const a = join(root, 'a');
  const store = openStore(a);
  await store.createList({ template: 'tasks' }, ann);
  // "Review" renamed "Checking", and "Done" renamed "review": a name that is another state's id.
  const states = (await store.list('tasks', ann)).states.map((s) => ({ ...s, name: s.id === 'review' ? 'Checking' : s.id === 'done' ? 'review' : s.name }));
  await store.editList('tasks', { states }, ann);
  const id = (await store.add('tasks', { title: 'in checking', state: 'Checking' }, ann)).id;
  await store.close();
  const file = join(root, 'a.json');
  assert.equal(binder(['admin', '--store', a, 'export', '--out', file]).code, 0);
  const b = join(root, 'b');
  assert.equal(binder(['admin', '--store', b, 'import', file, '--yes']).code, 0);
  const s = openStore(b);
  t.after(() => s.close());
  assert.equal((await s.get(id, ann)).record.state, 'review', 'the state whose id is review, named Checking');
});

test('a Binder file that grants agents access or brings approvals (an agent could have written it) is said first, and imported only on a yes', async (t) => {
  const root = tempDir(t);
  const a = join(root, 'a');
  const store = openStore(a);
  await store.createList({ template: 'batches', title: 'Deploys' }, { id: 'person:root', kind: 'person', name: 'root' });
  await store.grant('deploys', 'Alice', 'write', { id: 'person:root', kind: 'person', name: 'root' });
  const r = await store.add('deploys', { title: 'Drop the production database' }, { id: 'agent:alice', kind: 'agent', name: 'Alice' });
  await store.approve(r.id, true, { id: 'person:root', kind: 'person', name: 'root' });
  await store.close();
  const file = join(root, 'tasks.json');
  assert.equal(binder(['admin', '--store', a, '--as', 'root', 'export', '--out', file]).code, 0);

  const b = join(root, 'b');
  const asked = binder(['admin', '--store', b, '--as', 'ann', 'import', file]);
  assert.equal(asked.code, 1);
  assert.match(asked.out, /This file gives agents access: alice \(write\) to Deploys\./);
  assert.match(asked.out, /It brings 1 record approved, by root: "Drop the production database"\./);
  const lists = binder(['admin', '--store', b, '--as', 'ann', 'lists']);
  assert.doesNotMatch(lists.out, /Deploys/, 'nothing imported');
  assert.equal(binder(['admin', '--store', b, '--as', 'ann', 'import', file, '--yes']).code, 0);
  assert.match(binder(['admin', '--store', b, '--as', 'ann', 'lists']).out, /Deploys/);
});

test('a number past the 15 digits every face reads is not kept: it gets the next free one', async () => {
  const { numbering } = await import('../../src/store/exchange-lists.js');
  assert.deepEqual(numbering(10, [9_007_199_254_740_991, 12]), [13, 12]);
  assert.deepEqual(numbering(10, [999_999_999_999_999, 12]), [999_999_999_999_999, 12], 'fifteen digits are kept');
});
