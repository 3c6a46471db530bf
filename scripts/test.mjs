#!/usr/bin/env node
// Runs every test file in build/test with Node's own runner. Node 20's `--test` takes no glob,
// so the files are found here. Starts one PostgreSQL cluster for the run where it can.
import { readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv.slice(2);
const files = [];
const walk = (at) => {
  for (const name of readdirSync(at).sort()) {
    const path = join(at, name);
    if (statSync(path).isDirectory()) { if (name !== 'soak') walk(path); }
    else if (name.endsWith('.test.js')) files.push(path);
  }
};
walk(join(root, 'build', 'test'));
const chosen = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;

// One PostgreSQL cluster for the whole run (a database per test file on it), where PostgreSQL is
// installed: the store's tests run on it as on SQLite. Where it is not, they say they were skipped.
let cluster = null;
try {
  const helper = await import(pathToFileURL(join(root, 'build', 'test', 'helpers', 'postgres.js')).href);
  const missing = helper.postgresMissing();
  if (missing) process.stderr.write(`The PostgreSQL tests are skipped: ${missing}.\n`);
  else cluster = await helper.startCluster();
} catch (error) {
  process.stderr.write(`No PostgreSQL cluster for the run (each test file starts its own): ${error instanceof Error ? error.message : String(error)}\n`);
}
const env = cluster ? { ...process.env, BINDER_TEST_PGHOST: cluster.host } : process.env;

// A test that hangs fails after its timeout instead of holding the whole run; the run as a whole
// is bounded too, well inside what CI allows.
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=180000', ...chosen], { stdio: 'inherit', env, timeout: 30 * 60_000, killSignal: 'SIGKILL' });
if (r.error) process.stderr.write(`The tests did not finish: ${r.error.message}\n`);
await cluster?.stop();
process.exit(r.status ?? 1);
