/**
 * The started pump: woken by file events, served by the safety poll where events fail, folders
 * following sides(), heartbeats, and nothing left running after close(). This file is also the
 * child process that checks the last point.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/store/index.js';
import { createFolderPump, type PumpDeps } from '../../src/keeper/folder-pump.js';
import { pumpStore } from './pump-store.js';
import { readHeartbeat } from '../../src/keeper/heartbeat.js';
import { fileKey } from '../../src/keeper/folder-files.js';
import { ANSWERS_FILE, ASKS_FILE, heartbeatSaysNobody } from '../../src/keeper/protocol.js';
import type { SideConfig } from '../../src/keeper/keeper-types.js';
import { tempDir, until } from '../helpers/temp.js';

const SELF = fileURLToPath(import.meta.url);
const CHILD = 'BINDER_TEST_WATCH_CHILD';

function setup(root: string, more: Partial<PumpDeps> = {}) {
  const db = new Database(join(root, 'store.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  for (const migration of MIGRATIONS) db.exec(migration);
  const logs: string[] = [];
  const sides: SideConfig[] = [{ dir: join(root, 'agent', '.binder'), who: { id: 'agent:w', kind: 'agent', name: 'W' } }];
  const store = pumpStore(db);
  const pump = createFolderPump({
    store,
    now: Date.now,
    sides: () => sides,
    perform: async (op) => ({ ok: true, text: `did ${op}` }),
    log: (line) => logs.push(line),
    ...more,
  });
  return { db, pump, logs, sides, dir: sides[0]!.dir, transactions: () => store.transactions() };
}

function started(t: TestContext, more: Partial<PumpDeps> = {}) {
  const root = tempDir(t, 'binder-watch-');
  const s = setup(root, more);
  t.after(async () => {
    await s.pump.close();
    s.db.close();
  });
  const ask = (id: string, dir = s.dir) =>
    appendFileSync(join(dir, ASKS_FILE), `${JSON.stringify({ id, at: new Date().toISOString(), op: 'get', args: {} })}\n`);
  const answered = (dir = s.dir) =>
    existsSync(join(dir, ANSWERS_FILE))
      ? readFileSync(join(dir, ANSWERS_FILE), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { ask: string }).ask)
      : [];
  return { ...s, root, ask, answered };
}

if (process.env[CHILD]) {
  // Started, one ask answered, closed: the process must then end by itself.
  const s = setup(process.env[CHILD]);
  await s.pump.start();
  appendFileSync(join(s.dir, ASKS_FILE), `${JSON.stringify({ id: 'c1', at: new Date().toISOString(), op: 'get', args: {} })}\n`);
  const wait = setInterval(async () => {
    if (existsSync(join(s.dir, ANSWERS_FILE))) {
      clearInterval(wait);
      await s.pump.close();
      s.db.close();
      process.stdout.write('closed\n');
    }
  }, 5);
} else {
  test('a file event wakes the pump: an ask is answered with the safety poll a minute away', async (t) => {
    const s = started(t, { pollMs: 60_000 });
    await s.pump.start();
    await until(() => existsSync(s.dir), 5000, 'the folder to be made');
    s.ask('w1');
    await until(() => s.answered().includes('w1'), 10_000, 'the answer');
    s.ask('w2');
    s.ask('w3');
    await until(() => s.answered().length === 3, 10_000, 'the next answers');
    assert.deepEqual(s.answered(), ['w1', 'w2', 'w3']);
  });

  test('a burst of asks while started is taken in few transactions', async (t) => {
    const s = started(t, { pollMs: 60_000 });
    await s.pump.start();
    const before = s.transactions();
    appendFileSync(join(s.dir, ASKS_FILE), Array.from({ length: 500 }, (_, i) => `${JSON.stringify({ id: `b${i}`, at: new Date().toISOString(), op: 'get', args: {} })}\n`).join(''));
    await until(() => s.answered().length === 500, 10_000, 'every answer');
    // A folder's share is 128 asks a pass: four passes, a transaction each, and a few for the rest.
    assert.ok(s.transactions() - before <= 8, `500 asks in ${s.transactions() - before} transactions`);
  });

  test('where fs.watch fails, the safety poll answers, and nothing is said of it', async (t) => {
    const s = started(t, {
      watch: (() => {
        throw Object.assign(new Error('no watching here'), { code: 'ENOSPC' });
      }) as unknown as typeof watch,
    });
    await s.pump.start();
    s.ask('p1');
    await until(() => s.answered().includes('p1'), 10_000, 'the poll to answer');
    assert.deepEqual(s.logs, []);
  });

  test('a watcher that fails later falls back to the poll', async (t) => {
    const made: FSWatcher[] = [];
    const s = started(t, {
      watch: ((dir: string, options: object, listener: () => void) => {
        const w = watch(dir, options, listener);
        made.push(w);
        return w;
      }) as unknown as typeof watch,
    });
    await s.pump.start();
    await until(() => made.length === 1, 5000, 'a watcher');
    made[0]!.emit('error', new Error('gone'));
    s.ask('e1');
    await until(() => s.answered().includes('e1'), 10_000, 'the poll to answer');
    assert.deepEqual(s.logs, []);
  });

  test('the folders watched follow sides(): one added is served, one removed is let go', async (t) => {
    // Watched through the directory opened for a pass: known here by the identity of what is watched.
    const identity = (path: string) => fileKey(statSync(path));
    const watched: string[] = [];
    const closed: string[] = [];
    const s = started(t, {
      watch: ((dir: string, options: object, listener: () => void) => {
        const w = watch(dir, options, listener);
        const key = identity(dir);
        watched.push(key);
        const close = w.close.bind(w);
        w.close = () => {
          closed.push(key);
          close();
        };
        return w;
      }) as unknown as typeof watch,
    });
    await s.pump.start();
    const extra = join(s.root, 'other', '.binder');
    mkdirSync(extra, { recursive: true });
    s.sides.push({ dir: extra, who: { id: 'agent:o', kind: 'agent', name: 'O' } });
    await until(() => watched.includes(identity(extra)), 10_000, 'the new folder to be watched');
    s.ask('o1', extra);
    await until(() => s.answered(extra).includes('o1'), 10_000, 'its answer');
    s.sides.pop();
    await until(() => closed.includes(identity(extra)), 10_000, 'its watcher to be closed');
    assert.equal(s.pump.folders().length, 1);
  });

  test('heartbeats say the folder is kept while started, and stopped after close', async (t) => {
    const s = started(t);
    await s.pump.start();
    await until(() => readHeartbeat(s.dir), 5000, 'a heartbeat');
    const beat = readHeartbeat(s.dir)!;
    assert.equal(beat.stopped, false);
    assert.equal(heartbeatSaysNobody(beat, Date.now()), false);
    await s.pump.close();
    assert.equal(readHeartbeat(s.dir)!.stopped, true);
    assert.equal(heartbeatSaysNobody(readHeartbeat(s.dir), Date.now()), true);
  });

  test('after close() nothing keeps the process alive', (t) => {
    const root = tempDir(t, 'binder-watch-child-');
    mkdirSync(join(root, 'agent', '.binder'), { recursive: true });
    const run = spawnSync(process.execPath, [SELF], { env: { ...process.env, [CHILD]: root }, encoding: 'utf8', timeout: 20_000 });
    assert.equal(run.signal, null, 'the process had to be killed: something kept it alive');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'closed\n');
  });
}
