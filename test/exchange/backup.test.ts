/**
 * Backups: made while a keeper answers eight agents asking without pause, the copy is one
 * consistent snapshot that restores to a binder passing `check`; putting one back is refused
 * while any process has the store open, and asks a person first; `check` says what it found,
 * and finds what is wrong.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { askKeeper } from '../../src/agent/ask.js';
import { openStore } from '../../src/store/index.js';
import { binder, binderAsync, serveKeeper } from '../helpers/processes.js';
import { tempDir, until } from '../helpers/temp.js';

const ann = { id: 'person:ann', kind: 'person' as const, name: 'ann' };

test('a backup made while a keeper answers 8 agents restores to a binder that passes check', { timeout: 170_000 }, async (t) => {
  const root = tempDir(t);
  const storeDir = join(root, 'store');
  const store = openStore(storeDir);
  await store.createList({ template: 'tasks', title: 'Work' }, ann);
  const dirs: string[] = [];
  for (let i = 0; i < 8; i++) {
    const dir = join(root, `agent${i}`, '.binder');
    mkdirSync(dir, { recursive: true });
    await store.addSide(dir, `Agent ${i}`, ann);
    await store.grant('work', `Agent ${i}`, 'write', ann);
    dirs.push(dir);
  }
  await store.close();
  const keeper = await serveKeeper(t, ['--store', storeDir, '--quiet']);

  // Eight agents add, note and move records until told to stop.
  let stop = false;
  let answered = 0;
  const failures: string[] = [];
  const agents = dirs.map(async (dir, i) => {
    for (let n = 0; !stop; n++) {
      const added = await askKeeper(dir, 'add', { list: 'work', title: `agent ${i} record ${n}`, note: `written by agent ${i}` }, { want: 'json', waitMs: 20_000 });
      if (added.outcome !== 'answered' || !added.ok) { failures.push(JSON.stringify(added)); return; }
      const id = (added.data as { id: number }).id;
      for (const [op, args] of [['note', { id, text: `more from ${i}` }], ['move', { id, state: 'Doing' }]] as const) {
        const a = await askKeeper(dir, op, args, { waitMs: 20_000 });
        if (a.outcome !== 'answered' || !a.ok) { failures.push(JSON.stringify(a)); return; }
      }
      answered += 3;
    }
  });
  await until(() => answered >= 120 || failures.length > 0, 60_000, 'the agents to be well under way');

  // While they ask: a backup, and a restore refused.
  const file = join(root, 'backup.db');
  const made = await binderAsync(['admin', '--store', storeDir, '--as', 'ann', 'backup', file]);
  assert.equal(made.code, 0, made.err);
  assert.match(made.out, /^Backed up the binder \(1 list, \d+ records\) to .*backup\.db; the copy passes SQLite's check\./);
  const refused = await binderAsync(['admin', '--store', storeDir, '--as', 'ann', 'restore-backup', file, '--yes']);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /^Not done: The binder in .* is open in another process — a keeper \(binder serve, binder tui\) or another binder admin: stop it first/);
  const later = answered;
  await until(() => answered >= later + 24 || failures.length > 0, 60_000, 'more asks after the backup');
  stop = true;
  await Promise.all(agents);
  assert.deepEqual(failures, []);
  await keeper.stop();

  // Put back in a new place, with no keeper: a sound binder, one consistent moment of the live one.
  const restoredDir = join(root, 'restored');
  const restored = binder(['admin', '--store', restoredDir, '--as', 'ann', 'restore-backup', file, '--yes']);
  assert.equal(restored.code, 0, restored.err);
  const checked = binder(['admin', '--store', restoredDir, 'check']);
  assert.equal(checked.code, 0, checked.out + checked.err);
  assert.match(checked.out, /Nothing is wrong\.\n$/);
  const copy = openStore(restoredDir);
  const live = openStore(storeDir);
  t.after(async () => { await copy.close(); await live.close(); });
  const count = (s: typeof copy, sql: string) => s.db.prepare(sql).pluck().get() as number;
  const records = count(copy, 'SELECT count(*) FROM records');
  assert.ok(records > 0 && records < count(live, 'SELECT count(*) FROM records'), 'a moment before the end');
  assert.equal(count(copy, "SELECT count(*) FROM records r WHERE NOT EXISTS (SELECT 1 FROM log WHERE record = r.id AND op = 'add')"), 0, 'every record with its history');
  assert.equal(count(copy, "SELECT count(*) FROM log l WHERE op = 'add' AND NOT EXISTS (SELECT 1 FROM records WHERE id = l.record)"), 0, 'no history without its record');
  // Every record of the copy is as it was in the binder at that moment: the same in the live one, or moved on since.
  for (const r of (await copy.show('work', ann, { limit: 1000 })).records) {
    const now = (await live.get(r.id, ann)).record;
    assert.equal(now.title, r.title);
    assert.ok(now.notes.length >= r.notes);
  }
});

test('restore-backup asks a person first, and refuses what is not a backup', async (t) => {
  const root = tempDir(t);
  const storeDir = join(root, 'store');
  const s = openStore(storeDir);
  await s.createList({ template: 'blank' }, ann);
  await s.add('blank', { title: 'kept' }, ann);
  await s.close();
  const file = join(root, 'b.db');
  assert.equal(binder(['admin', '--store', storeDir, 'backup', file]).code, 0);
  const other = join(root, 'other');
  const o = openStore(other);
  await o.createList({ template: 'tasks' }, ann);
  await o.close();
  const asked = binder(['admin', '--store', other, 'restore-backup', file]);
  assert.equal(asked.code, 1);
  assert.match(asked.err, /^Not done: Nothing changed: run it again with --yes/);
  assert.equal(binder(['admin', '--store', other, 'lists']).out.includes('tasks'), true, 'still the other binder');
  const done = binder(['admin', '--store', other, 'restore-backup', file, '--yes']);
  assert.equal(done.code, 0, done.err);
  assert.match(binder(['admin', '--store', other, 'show', 'blank']).out, /#1 kept/);
  const notOne = binder(['admin', '--store', other, 'restore-backup', join(root, 'store', 'nowhere.db'), '--yes']);
  assert.equal(notOne.code, 1);
  assert.match(notOne.err, /^Not done: Binder cannot read the backup/);
});

test('check says what is wrong: counts off, rows naming what is not there, a damaged search index', async (t) => {
  const root = tempDir(t);
  const storeDir = join(root, 'store');
  const s = openStore(storeDir);
  await s.createList({ template: 'blank' }, ann);
  for (let i = 0; i < 50; i++) await s.add('blank', { title: `record ${i} with words`, note: `note ${i}` }, ann);
  await s.close();
  assert.equal(binder(['admin', '--store', storeDir, 'check']).code, 0);
  const db = new Database(join(storeDir, 'binder.db'));
  db.pragma('foreign_keys = OFF');
  db.exec("UPDATE record_counts SET n = n + 1; INSERT INTO notes (record, at, by, text) VALUES (999, 'x', '{}', 'orphan')");
  // Shadow tables are written only with SQLite's defensive mode off.
  db.unsafeMode(true);
  db.exec('DELETE FROM record_text_data WHERE id > 10');
  db.close();
  const found = binder(['admin', '--store', storeDir, 'check']);
  assert.equal(found.code, 1);
  assert.match(found.out, /  the database file: DAMAGED — SQLite found 1 problem: fts5: corruption/);
  assert.match(found.out, /  rows that name others: 1 row name what is not there \(notes → records\)/);
  assert.match(found.out, /  the search index: DAMAGED/);
  assert.match(found.out, /  the counts kept per list: 1 count wrong/);
  assert.match(found.out, /Something is wrong: put a backup back/);
});
