/**
 * Opening a store: the folder and file modes, the pragmas, migrations safe for two processes
 * at once, and a clear refusal when the place cannot hold a store.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openStore, Refused } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/schema.js';
import { ann } from './helpers.js';
import { binder } from '../helpers/processes.js';

const temp = (): string => mkdtempSync(join(tmpdir(), 'binder-open-'));

test('a new store: folder 0700, file 0600, WAL and the other pragmas, migrations applied', async () => {
  const root = temp();
  try {
    const dir = join(root, 'deep', 'store');
    const store = openStore(dir);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(join(dir, 'binder.db')).mode & 0o777, 0o600);
    assert.equal(store.path, join(dir, 'binder.db'));
    const p = (name: string): unknown => store.db.pragma(name, { simple: true });
    assert.equal(p('journal_mode'), 'wal');
    assert.equal(p('synchronous'), 2);
    assert.equal(p('foreign_keys'), 1);
    assert.equal(p('busy_timeout'), 5000);
    assert.equal(p('secure_delete'), 1);
    assert.equal(p('user_version'), MIGRATIONS.length);
    await store.close();
    const again = openStore(dir);
    assert.equal((await again.lists(ann)).length, 0);
    await again.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a place that cannot hold a store is refused with one sentence naming it', async () => {
  const root = temp();
  try {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    assert.throws(() => openStore(file), (e: unknown) =>
      e instanceof Refused && e.message === `Binder cannot keep its store in ${file}: it is not a folder.`);

    const notDb = join(root, 'not-db');
    mkdirSync(notDb);
    writeFileSync(join(notDb, 'binder.db'), 'this is plain text, long enough to be read as a header by SQLite......'.repeat(20));
    assert.throws(() => openStore(notDb), (e: unknown) =>
      e instanceof Refused && e.message === `Binder cannot open its store ${join(notDb, 'binder.db')}: the file is not a database.`);

    const newer = join(root, 'newer');
    await openStore(newer).close();
    const s = openStore(newer);
    s.db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    await s.close();
    assert.throws(() => openStore(newer), /made by a newer Binder/);

    if (process.getuid?.() !== 0) {
      const locked = join(root, 'locked');
      mkdirSync(locked);
      chmodSync(locked, 0o500);
      assert.throws(() => openStore(locked), (e: unknown) => e instanceof Refused && /not writable/.test(e.message));
      chmodSync(locked, 0o700);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a store under a folder that takes no folder (/proc) is refused at once, not looked for for ever', { skip: process.platform === 'linux' ? false : 'Linux\'s /proc' }, () => {
  // Node 20's recursive mkdir loops for ever there: run apart, so that a loop fails this test, not the file.
  const at = '/proc/binder-no-such/store';
  const run = binder(['admin', '--store', at, '--as', 'Ann', 'lists'], { timeoutMs: 20_000 });
  assert.equal(run.code, 2, `ended, refused: ${run.err}`);
  assert.match(run.err, new RegExp(`Binder cannot make the store folder ${at}: `));
});

test('two processes opening a new store at once both succeed, with one schema', async () => {
  const root = temp();
  try {
    const dir = join(root, 'store');
    const index = fileURLToPath(new URL('../../src/store/index.js', import.meta.url));
    const script = `import { openStore } from ${JSON.stringify(index)};
      const s = openStore(${JSON.stringify(dir)});
      await s.createList({ template: 'blank', title: 'from ' + process.pid }, { id: 'person:p', kind: 'person', name: 'P' });
      await s.close(); console.log('ok');`;
    const run = (): Promise<string> => new Promise((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => { out += String(d); });
      child.stderr.on('data', (d) => { out += String(d); });
      child.on('close', () => resolve(out.trim()));
    });
    const outs = await Promise.all([run(), run(), run()]);
    assert.deepEqual(outs, ['ok', 'ok', 'ok']);
    const s = openStore(dir);
    assert.equal((await s.lists(ann)).length, 3);
    await s.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
