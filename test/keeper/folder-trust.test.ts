/**
 * No trust in the folders: links, FIFOs, hard links, directories and sockets where files should
 * be. The pump runs in a child process, so a pump that blocked would show as a child stopped at
 * its time limit instead of a test run that never ends. This file is also that child.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, unlinkSync, linkSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/store/index.js';
import { createFolderPump } from '../../src/keeper/folder-pump.js';
import { ANSWERS_FILE, ASKS_FILE, HEARTBEAT_FILE } from '../../src/keeper/protocol.js';
import { tempDir } from '../helpers/temp.js';
import { pumpStore } from './pump-store.js';

const SELF = fileURLToPath(import.meta.url);
const CHILD = 'BINDER_TEST_TRUST_CHILD';

const TRAPS = [
  'good', 'link-folder', 'asks-link', 'answers-link', 'asks-fifo', 'answers-fifo', 'asks-hardlink',
  'answers-hardlink', 'asks-dir', 'asks-socket', 'heartbeat-dir', 'heartbeat-link', 'heartbeat-fifo',
] as const;

/** The child: three passes over every folder, then close; prints what it saw. */
async function runChild(root: string): Promise<void> {
  const db = new Database(join(root, 'store.db'));
  db.pragma('busy_timeout = 5000');
  const logs: string[] = [];
  const pump = createFolderPump({
    store: pumpStore(db),
    now: Date.now,
    sides: () => TRAPS.map((name) => ({ dir: join(root, name), who: { id: `agent:${name}`, kind: 'agent', name } })),
    perform: async (op, _args, who) => {
      db.prepare('INSERT INTO done (who) VALUES (?)').run(who.id);
      return { ok: true, text: `did ${op}` };
    },
    log: (line) => logs.push(line),
  });
  const answered = [await pump.pump(), await pump.pump(), await pump.pump()];
  await pump.close();
  const folders = pump.folders();
  db.close();
  process.stdout.write(JSON.stringify({ answered, folders, logs }));
}

if (process.env[CHILD]) {
  await runChild(process.env[CHILD]);
} else {
  test('links, FIFOs, hard links, directories and sockets are refused, once each on the log, without a hang', async (t) => {
    const root = tempDir(t, 'binder-trust-');
    const db = new Database(join(root, 'store.db'));
    db.pragma('journal_mode = WAL');
    for (const migration of MIGRATIONS) db.exec(migration);
    db.exec('CREATE TABLE done (who TEXT)');
    t.after(() => db.close());
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const ask = (id: string) => `${JSON.stringify({ id, at: new Date().toISOString(), op: 'add', args: {} })}\n`;
    const at = (name: string, file = '') => join(root, name, file);
    for (const name of TRAPS) if (name !== 'link-folder') mkdirSync(at(name));
    for (const name of TRAPS) if (!name.startsWith('asks-') && name !== 'link-folder') writeFileSync(at(name, ASKS_FILE), ask(`${name}-1`));

    // The folder itself a link to a real folder holding an ask.
    mkdirSync(join(outside, 'real'));
    writeFileSync(join(outside, 'real', ASKS_FILE), ask('through-link'));
    symlinkSync(join(outside, 'real'), at('link-folder'));
    // asks.jsonl a link to a file of asks elsewhere; answers.jsonl a link to a file elsewhere.
    writeFileSync(join(outside, 'asks-elsewhere'), ask('via-asks-link'));
    symlinkSync(join(outside, 'asks-elsewhere'), at('asks-link', ASKS_FILE));
    writeFileSync(join(outside, 'secret'), 'secret\n');
    symlinkSync(join(outside, 'secret'), at('answers-link', ANSWERS_FILE));
    // FIFOs with nobody at the other end.
    execFileSync('mkfifo', [at('asks-fifo', ASKS_FILE), at('answers-fifo', ANSWERS_FILE), at('heartbeat-fifo', HEARTBEAT_FILE)]);
    // Hard links to files outside.
    writeFileSync(join(outside, 'asks-other-name'), ask('via-hardlink'));
    linkSync(join(outside, 'asks-other-name'), at('asks-hardlink', ASKS_FILE));
    writeFileSync(join(outside, 'secret2'), 'secret2\n');
    linkSync(join(outside, 'secret2'), at('answers-hardlink', ANSWERS_FILE));
    // A directory and a socket where asks.jsonl should be; keeper.json a directory and a link.
    mkdirSync(at('asks-dir', ASKS_FILE));
    const server = createServer();
    await new Promise<void>((done) => server.listen(at('asks-socket', ASKS_FILE), done));
    t.after(() => server.close());
    mkdirSync(at('heartbeat-dir', HEARTBEAT_FILE));
    writeFileSync(join(outside, 'beat'), 'not yours\n');
    symlinkSync(join(outside, 'beat'), at('heartbeat-link', HEARTBEAT_FILE));

    const run = spawnSync(process.execPath, [SELF], { env: { ...process.env, [CHILD]: root }, encoding: 'utf8', timeout: 20_000 });
    assert.equal(run.signal, null, `the pump did not finish: it blocked (${run.stderr})`);
    assert.equal(run.status, 0, run.stderr);
    const seen = JSON.parse(run.stdout) as { answered: number[]; folders: { dir: string; problem: string | null }[]; logs: string[] };
    const problem = (name: string) => seen.folders.find((f) => f.dir === at(name))?.problem ?? null;

    // Served: the good folder, and those whose only trap is the heartbeat.
    assert.deepEqual(seen.answered, [4, 0, 0]);
    const done = (db.prepare('SELECT who FROM done ORDER BY who').all() as { who: string }[]).map((r) => r.who);
    assert.deepEqual(done, ['agent:good', 'agent:heartbeat-dir', 'agent:heartbeat-fifo', 'agent:heartbeat-link']);
    assert.equal(problem('good'), null);
    assert.match(readFileSync(at('good', ANSWERS_FILE), 'utf8'), /good-1/);

    assert.match(problem('link-folder') ?? '', /symbolic link/);
    assert.equal(existsSync(join(outside, 'real', ANSWERS_FILE)), false, 'nothing written through a linked folder');
    assert.match(problem('asks-link') ?? '', /asks\.jsonl is a symbolic link/);
    assert.match(problem('answers-link') ?? '', /answers\.jsonl is a symbolic link/);
    assert.equal(readFileSync(join(outside, 'secret'), 'utf8'), 'secret\n');
    assert.match(problem('asks-fifo') ?? '', /asks\.jsonl is a FIFO/);
    assert.match(problem('answers-fifo') ?? '', /answers\.jsonl is a FIFO/);
    assert.match(problem('asks-hardlink') ?? '', /hard link/);
    assert.match(problem('answers-hardlink') ?? '', /hard link/);
    assert.equal(readFileSync(join(outside, 'secret2'), 'utf8'), 'secret2\n');
    assert.match(problem('asks-dir') ?? '', /directory/);
    assert.match(problem('asks-socket') ?? '', /not a regular file/);
    assert.match(problem('heartbeat-dir') ?? '', /keeper\.json cannot be replaced/);
    // keeper.json as a link or a FIFO: replaced by a file of our own, never written through.
    assert.equal(readFileSync(join(outside, 'beat'), 'utf8'), 'not yours\n');
    assert.ok(lstatSync(at('heartbeat-link', HEARTBEAT_FILE)).isFile());
    assert.ok(lstatSync(at('heartbeat-fifo', HEARTBEAT_FILE)).isFile());
    assert.equal(problem('heartbeat-link'), null);

    // Each problem said once, though three passes and a close met it.
    for (const name of TRAPS.filter((n) => !['good', 'heartbeat-link', 'heartbeat-fifo'].includes(n))) {
      const lines = seen.logs.filter((l) => l.includes(at(name)));
      assert.equal(lines.length, 1, `${name}: ${lines.join(' | ')}`);
    }
    // Once a problem is gone, the folder is served.
    unlinkSync(at('answers-link', ANSWERS_FILE));
    const again = spawnSync(process.execPath, [SELF], { env: { ...process.env, [CHILD]: root }, encoding: 'utf8', timeout: 20_000 });
    assert.equal(again.status, 0, again.stderr);
    assert.match(readFileSync(at('answers-link', ANSWERS_FILE), 'utf8'), /answers-link-1/);
  });
}
