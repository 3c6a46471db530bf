#!/usr/bin/env node
// Runs every test file in build/test with Node's own runner. Node 20's `--test` takes no glob,
// so the files are found here.
import { readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
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
// A test that hangs fails after its timeout instead of holding the whole run; the run as a whole
// is bounded too, well inside what CI allows.
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=180000', ...chosen], { stdio: 'inherit', timeout: 30 * 60_000, killSignal: 'SIGKILL' });
if (r.error) process.stderr.write(`The tests did not finish: ${r.error.message}\n`);
process.exit(r.status ?? 1);
