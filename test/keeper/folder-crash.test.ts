/**
 * Exactly once across crashes and keepers: a keeper killed between doing and answering (a real
 * process, SIGKILL) is answered for by the next one, never redone; two keeper processes on one
 * store do each ask once and answer it once. This file is also the keeper process those tests run.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/store/index.js';
import { createFolderPump, type PumpDeps } from '../../src/keeper/folder-pump.js';
import { ANSWERS_FILE, ASKS_FILE } from '../../src/keeper/protocol.js';
import { tempDir, until } from '../helpers/temp.js';
import { pumpStore } from './pump-store.js';

const SELF = fileURLToPath(import.meta.url);
const CHILD = 'BINDER_TEST_PUMP_CHILD';

interface ChildPlan { store: string; dirs: string[]; mode: 'crash-after-commit' | 'crash-after-append' | 'crash-after-second-append' | 'once' | 'keep' }

/** An agent's ask of `id` appended to the folder `dir`. */
const askIn = (dir: string, id: string): void =>
  appendFileSync(join(dir, ASKS_FILE), `${JSON.stringify({ id, at: new Date().toISOString(), op: 'add', args: { title: id } })}\n`);

function openStoreDb(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  return db;
}

function pumpDeps(db: Database.Database, dirs: string[], log: (line: string) => void): PumpDeps {
  const record = db.prepare('INSERT INTO done (dir, op, args) VALUES (?, ?, ?)');
  return {
    store: pumpStore(db),
    now: Date.now,
    sides: () => dirs.map((dir, i) => ({ dir, who: { id: `agent:k${i}`, kind: 'agent', name: `K${i}` } })),
    perform: async (op, args, who) => {
      record.run(who.id, op, JSON.stringify(args));
      return { ok: true, text: `did ${op}` };
    },
    log,
  };
}

/** The keeper process: one pass (maybe killed in the middle), or kept until SIGTERM. */
async function runChild(plan: ChildPlan): Promise<void> {
  const db = openStoreDb(plan.store);
  const die = () => {
    process.kill(process.pid, 'SIGKILL');
  };
  let appends = 0;
  const pump = createFolderPump({
    ...pumpDeps(db, plan.dirs, (line) => process.stderr.write(`${line}\n`)),
    ...(plan.mode === 'crash-after-commit' ? { crashAfterCommit: die } : {}),
    ...(plan.mode === 'crash-after-append' ? { crashAfterAppend: die } : {}),
    ...(plan.mode === 'crash-after-second-append' ? { crashAfterAppend: () => { if (++appends === 2) die(); } } : {}),
  });
  if (plan.mode === 'crash-after-second-append') {
    // The first answer marks where the file ends; the second is appended there, its marks left for later.
    await pump.pump();
    askIn(plan.dirs[0]!, 'a2');
    await pump.pump();
    throw new Error('the keeper was to be killed after its second append');
  }
  if (plan.mode === 'keep') {
    process.on('SIGTERM', async () => {
      await pump.close();
      db.close();
    });
    await pump.start();
    process.stdout.write('ready\n');
    return;
  }
  const answered = await pump.pump();
  await pump.close();
  db.close();
  process.stdout.write(`${JSON.stringify({ answered })}\n`);
}

function makeStore(t: TestContext, folders = 1) {
  const root = tempDir(t, 'binder-crash-');
  const store = join(root, 'store.db');
  const db = openStoreDb(store);
  for (const migration of MIGRATIONS) db.exec(migration);
  db.exec('CREATE TABLE done (dir TEXT, op TEXT, args TEXT)');
  t.after(() => db.close());
  const dirs = Array.from({ length: folders }, (_, i) => join(root, `agent${i}`, '.binder'));
  for (const dir of dirs) mkdirSync(dir, { recursive: true });
  const ask = (id: string, dir = dirs[0]!) => askIn(dir, id);
  const answers = (dir = dirs[0]!): string[] =>
    existsSync(join(dir, ANSWERS_FILE))
      // Read as an agent does: a line is whole once its newline is written; a keeper may be mid-append.
      ? readFileSync(join(dir, ANSWERS_FILE), 'utf8').split('\n').slice(0, -1).filter(Boolean).map((l) => (JSON.parse(l) as { ask: string }).ask)
      : [];
  const done = () => (db.prepare('SELECT count(*) AS n FROM done').get() as { n: number }).n;
  const delivered = (id: string) => (db.prepare('SELECT delivered FROM asks WHERE id = ?').get(id) as { delivered: number } | undefined)?.delivered;
  const child = (mode: ChildPlan['mode']) =>
    spawnSync(process.execPath, [SELF], {
      env: { ...process.env, [CHILD]: JSON.stringify({ store, dirs, mode } satisfies ChildPlan) },
      encoding: 'utf8',
      timeout: 30_000,
    });
  return { root, store, db, dirs, ask, answers, done, delivered, child };
}

if (process.env[CHILD]) {
  await runChild(JSON.parse(process.env[CHILD]) as ChildPlan);
} else {
  test('killed between doing and answering: the next keeper answers from the store, and does not redo', (t) => {
    const s = makeStore(t);
    s.ask('k1');
    s.ask('k2');
    const killed = s.child('crash-after-commit');
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    assert.equal(s.done(), 2, 'both asks were done and committed');
    assert.deepEqual(s.answers(), [], 'and not answered');
    assert.equal(s.delivered('k1'), 0);
    const next = s.child('once');
    assert.equal(next.status, 0, next.stderr);
    assert.deepEqual(s.answers().sort(), ['k1', 'k2']);
    assert.equal(s.done(), 2, 'not done again');
    assert.equal(s.delivered('k1'), 1);
    const again = s.child('once');
    assert.equal(again.status, 0, again.stderr);
    assert.deepEqual(s.answers().sort(), ['k1', 'k2'], 'answered once');
  });

  test('killed after appending the answers but before saying so: the next keeper finds them and appends nothing', (t) => {
    const s = makeStore(t);
    s.ask('a1');
    const killed = s.child('crash-after-append');
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    assert.deepEqual(s.answers(), ['a1'], 'the answer was appended');
    assert.equal(s.delivered('a1'), 0, 'but its delivery was never committed');
    s.ask('a2');
    const next = s.child('once');
    assert.equal(next.status, 0, next.stderr);
    assert.deepEqual(s.answers(), ['a1', 'a2'], 'a1 is not appended twice');
    assert.equal(s.delivered('a1'), 1);
    assert.equal(s.done(), 2);
  });

  test('killed after appending an answer to a file as it left it, before its marks were written: the next keeper appends nothing again', (t) => {
    const s = makeStore(t);
    s.ask('a1');
    const killed = s.child('crash-after-second-append');
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    assert.deepEqual(s.answers(), ['a1', 'a2'], 'both answers were appended');
    assert.equal(s.delivered('a1'), 1, 'the first marked told in its own transaction');
    assert.equal(s.delivered('a2'), 0, 'the second not marked yet');
    s.ask('a3');
    const next = s.child('once');
    assert.equal(next.status, 0, next.stderr);
    assert.deepEqual(s.answers(), ['a1', 'a2', 'a3'], 'a2 is not appended twice');
    assert.equal(s.delivered('a2'), 1);
    assert.equal(s.done(), 3, 'nothing done twice');
  });

  test('an answer appended by a keeper that stopped is not appended again after another keeper appended past it', async (t) => {
    const s = makeStore(t);
    let now = Date.now();
    let crash = true;
    const deps = { ...pumpDeps(s.db, s.dirs, () => {}), now: () => now };
    const pump = createFolderPump({
      ...deps,
      crashAfterAppend: () => {
        if (crash) throw new Error('stopped here');
      },
    });
    t.after(() => pump.close());
    crash = false;
    s.ask('x0');
    assert.equal(await pump.pump(), 1);
    crash = true;
    s.ask('x1');
    await assert.rejects(async () => pump.pump(), /stopped here/);
    assert.deepEqual(s.answers(), ['x0', 'x1']);
    assert.equal(s.delivered('x1'), 0);
    crash = false;
    // A new ask answered at once (no recovery yet: it waits ~2 s), then recovery later.
    s.ask('x2');
    assert.equal(await pump.pump(), 1);
    now += 5000;
    await pump.pump();
    const other = createFolderPump({ ...deps, now: () => now + 10_000 });
    t.after(() => other.close());
    await other.pump();
    assert.deepEqual(s.answers(), ['x0', 'x1', 'x2']);
    assert.equal(s.delivered('x1'), 1);
    assert.equal(s.done(), 3);
  });

  test('two keeper processes on one store: each ask done once and answered once', async (t) => {
    const s = makeStore(t, 2);
    const plan = JSON.stringify({ store: s.store, dirs: s.dirs, mode: 'keep' } satisfies ChildPlan);
    const keepers = [0, 1].map(() => {
      const child = spawn(process.execPath, [SELF], { env: { ...process.env, [CHILD]: plan }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => { out += c; });
      child.stderr.on('data', (c) => { err += c; });
      const exit = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      t.after(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exit;
      });
      return { child, out: () => out, err: () => err, exit };
    });
    await until(() => keepers.every((k) => k.out().includes('ready')), 15_000, 'both keepers to start');
    const ids: string[] = [];
    for (let burst = 0; burst < 30; burst++) {
      for (let i = 0; i < 10; i++) {
        const id = `b${burst}-${i}`;
        ids.push(id);
        s.ask(id, s.dirs[i % 2]);
      }
      await new Promise((r) => setImmediate(r));
    }
    await until(() => s.answers(s.dirs[0]).length + s.answers(s.dirs[1]).length >= ids.length, 20_000, 'every answer');
    // A little more time for any answer given twice to show up, on a condition: both keepers idle.
    await until(() => (s.db.prepare('SELECT count(*) AS n FROM asks WHERE delivered = 0').get() as { n: number }).n === 0, 10_000, 'all delivered');
    for (const k of keepers) k.child.kill('SIGTERM');
    const codes = await Promise.all(keepers.map((k) => k.exit));
    assert.deepEqual(codes, [0, 0], keepers.map((k) => k.err()).join('\n'));
    const all = [...s.answers(s.dirs[0]), ...s.answers(s.dirs[1])];
    assert.equal(all.length, ids.length, 'no answer twice');
    assert.deepEqual([...all].sort(), [...ids].sort());
    assert.equal(s.done(), ids.length, 'no ask done twice');
  });
}
