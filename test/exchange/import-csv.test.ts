/**
 * CSV rows brought into a list: the mapping shown first and nothing written without a yes, the
 * columns mapped by name to fields and a record's parts, Binder's own CSV read back, a bad row
 * named by the line it starts on (quoted line breaks counted), and never approved unless asked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.js';
import { binder } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';
import { dumpStore } from '../survival/fuzz-kit.js';

const ann = { id: 'person:ann', kind: 'person' as const, name: 'ann' };

async function place(t: import('node:test').TestContext) {
  const root = tempDir(t);
  const store = join(root, 'store');
  const s = openStore(store);
  await s.createList({ template: 'people' }, ann);
  await s.createList({ template: 'batches' }, ann);
  await s.close();
  const admin = (...args: string[]) => binder(['admin', '--store', store, '--as', 'ann', ...args]);
  const file = (name: string, text: string): string => {
    const path = join(root, name);
    writeFileSync(path, text);
    return path;
  };
  return { root, store, admin, file };
}

const PEOPLE = 'Name,Role,E-mail,Shoe size,Status,notes,id,needs\r\n'
  + 'Ann,Lead,ann@x.example,38,Active,"first, note\nline two",a,\r\n'
  + 'Bob,Dev,bob@x.example,44,Former,,b,a\r\n';

test('csv: the mapping is shown first; without a yes nothing is written', async (t) => {
  const { admin, file, store } = await place(t);
  const path = file('people.csv', PEOPLE);
  const s = openStore(store);
  const before = dumpStore(s.db);
  await s.close();
  const asked = admin('import', path, '--into', 'People');
  assert.equal(asked.code, 1);
  assert.equal(asked.out, [
    '2 rows into People (people), the columns mapped so:',
    '  Name      → title',
    '  Role      → field Role',
    '  E-mail    → field E-mail',
    '  Shoe size → left out: People has no field of that name',
    '  Status    → state',
    '  notes     → a note',
    '  id        → its name in the file (for needs)',
    '  needs     → needs',
    '',
  ].join('\n'));
  assert.equal(asked.err, 'Nothing imported: run it again with --yes to import as shown.\n');
  const after = openStore(store);
  t.after(() => after.close());
  assert.equal(dumpStore(after.db), before);

  const done = admin('import', path, '--into', 'People', '--yes');
  assert.equal(done.code, 0, done.err);
  assert.match(done.out, /Imported 2 records into people \(#1 to #2\)\.\n1 need between them\.\nLeft out: the column "Shoe size" \(People has no field of that name\)\.\n$/);
  const bob = await after.get(2, ann);
  assert.deepEqual([bob.record.title, bob.record.state, bob.record.fields], ['Bob', 'former', { role: 'Dev', 'e-mail': 'bob@x.example' }]);
  assert.deepEqual(bob.needs!.map((l) => l.id), [1]);
  assert.equal((await after.get(1, ann)).record.notes[0]!.text, 'first, note\nline two');
  assert.equal(bob.record.approved, null);
  assert.deepEqual(bob.history.map((h) => [h.op, h.change]), [['import', { from: 'csv', ref: 'line 4' }]]);
});

test('csv: a bad row is named by the line it starts on, quoted line breaks counted, and nothing is written', async (t) => {
  const { admin, file } = await place(t);
  const path = file('bad.csv', 'title,Status,notes\nOne,Active,"a note\nover\nthree lines"\nTwo,Nowhere,\n');
  const refused = admin('import', path, '--into', 'people', '--yes');
  assert.equal(refused.code, 1);
  assert.equal(refused.err, 'Not done: Line 5: "Nowhere" is not a state of "People": its states are Active, Former.\nNothing was imported.\n');
  const unclosed = admin('import', file('open.csv', 'title\n"never closed\n'), '--into', 'people', '--yes');
  assert.match(unclosed.err, /^Not done: Line 2: a quoted field is never closed\./);
  const untitled = admin('import', file('untitled.csv', 'Role,Team\nx,y\n'), '--into', 'people', '--yes');
  assert.match(untitled.err, /^Not done: Line 1: no column holds the titles/);
  const into = admin('import', path, '--yes');
  assert.match(into.err, /^Not done: Say which list the rows go into: --into LIST/);
  assert.equal(admin('show', 'people').out.includes('One'), false);
});

test('csv: Binder\'s own CSV comes back: states, owners, needs, fields, formulas defused', async (t) => {
  const { admin, root } = await place(t);
  const source = join(root, 'source');
  const s = openStore(source);
  await s.createList({ template: 'tasks' }, ann);
  const a = (await s.add('tasks', { title: '=SUM(A1:A9)', fields: { Priority: 'Low', Branch: '-x' }, owners: ['me', 'agent:bot'] }, ann)).id;
  const b = (await s.add('tasks', { title: 'Second', state: 'Doing', due: '2027-01-02' }, ann)).id;
  await s.needs(b, [a], ann);
  await s.close();
  const csv = join(root, 'tasks.csv');
  assert.equal(binder(['admin', '--store', source, 'export', 'tasks', '--out', csv]).code, 0);
  assert.equal(admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  const done = admin('import', csv, '--into', 'tasks', '--yes');
  assert.equal(done.code, 0, done.err);
  assert.match(done.out, /  approved by → left out: an approval is never read from a file/);
  assert.match(done.out, /  list        → left out: the rows go into the list given with --into/);
  const target = openStore(join(root, 'store'));
  t.after(() => target.close());
  const first = (await target.get(1, ann)).record;
  assert.deepEqual([first.title, first.fields, first.owners], ['=SUM(A1:A9)', { priority: 'Low', branch: '-x' }, ['person:ann', 'agent:bot']]);
  const second = await target.get(2, ann);
  assert.deepEqual([second.record.state, second.record.due, second.needs!.map((l) => l.id)], ['doing', '2027-01-02', [1]]);

  // Into a list whose states are others: the first row says which.
  const other = admin('import', csv, '--into', 'batches', '--yes');
  assert.equal(other.code, 1);
  assert.match(other.err, /^Not done: Line 2: "To do" is not a state of "Batches"/);
});

test('csv: into a gated list, a row past the gate needs --approved, and is then approved by the person', async (t) => {
  const { admin, file, store } = await place(t);
  const path = file('b.csv', 'title,state\nProposed one,Proposed\nDoing one,Doing\n');
  const refused = admin('import', path, '--into', 'batches', '--yes');
  assert.equal(refused.code, 1);
  assert.match(refused.err, /^Not done: Line 3: "Doing" is past the gate "Approved" of Batches, and an imported record is not approved: import with --approved/);
  const done = admin('import', path, '--into', 'batches', '--yes', '--approved');
  assert.equal(done.code, 0, done.err);
  const s = openStore(store);
  t.after(() => s.close());
  assert.deepEqual((await s.show('batches', ann)).records.map((r) => [r.title, r.state, r.approved?.by.id]), [
    ['Proposed one', 'proposed', 'person:ann'], ['Doing one', 'doing', 'person:ann'],
  ]);
});
