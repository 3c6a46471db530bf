/**
 * A labels field through export and import: Binder's own file keeps the labels, and Taskwarrior's
 * tags come into a list's labels field, each a label that label: finds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.js';
import { binder, ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const ann = { id: 'person:ann', kind: 'person' as const, name: 'ann' };

async function withLabels(store: string): Promise<void> {
  const s = openStore(store);
  await s.createList({ template: 'tasks', title: 'Work' }, ann);
  const list = await s.list('work', ann);
  await s.editList('work', {
    fields: [...list.fields.map((f) => ({ id: f.id, name: f.name, type: f.type, ...(f.choices ? { choices: f.choices } : {}) })),
      { name: 'Labels', type: 'labels' }],
  }, ann);
  await s.close();
}

const found = async (store: string, query: string): Promise<string[]> => {
  const s = openStore(store);
  try {
    return (await s.search(query, ann)).map((h) => h.title).sort();
  } finally {
    await s.close();
  }
};

test('labels are kept through export and import, and Taskwarrior tags become labels', async (t) => {
  const root = tempDir(t);
  const first = join(root, 'first');
  await withLabels(first);
  const s = openStore(first);
  await s.add('work', { title: 'Crash on save', fields: { Labels: 'bug urgent' } }, ann);
  await s.add('work', { title: 'Old idea', fields: { Labels: 'wontfix' } }, ann);
  await s.close();
  const file = join(root, 'binder.json');
  assert.equal(binder(['admin', '--store', first, '--as', 'ann', 'export', '--out', file]).code, 0);
  const second = join(root, 'second');
  const imported = binder(['admin', '--store', second, '--as', 'ann', 'import', file, '--yes']);
  assert.equal(imported.code, 0, imported.err);
  assert.deepEqual(await found(second, 'label:urgent'), ['Crash on save']);
  assert.deepEqual(await found(second, '-label:wontfix'), ['Crash on save']);

  const third = join(root, 'third');
  await withLabels(third);
  const tw = binder(['admin', '--store', third, '--as', 'ann', 'import', join(ROOT, 'test', 'fixtures', 'exchange', 'taskwarrior-export.json'), '--into', 'Work'],
    { env: { TZ: 'UTC' } });
  assert.equal(tw.code, 0, tw.err);
  assert.doesNotMatch(tw.out, /tags \(Work has no field/);
  assert.deepEqual(await found(third, 'label:outdoor OR label:writing'), ['Buy seeds', 'Write the garden plan'], tw.out);
});
