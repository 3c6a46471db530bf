#!/usr/bin/env node
// Runs every test file in build/test with Node's own runner. Node 20's `--test` takes no glob,
// so the files are found here. Starts one PostgreSQL cluster for the run where it can.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';

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
const env = cluster ? { ...process.env, BINDER_TEST_PGHOST: cluster.host } : { ...process.env };

// One Chromium for the page's tests of the run, where they run and it is installed: each test opens
// a context of its own in it (test/page/chromium.ts). Where it cannot start, each test launches its own.
let chromium = null;
if (chosen.some((f) => f.includes(`${join('build', 'test', 'page')}/`))) {
  try {
    const helper = await import(pathToFileURL(join(root, 'build', 'test', 'page', 'chromium.js')).href);
    if (existsSync(helper.CHROMIUM)) {
      chromium = await helper.launchShared();
      env.BINDER_TEST_BROWSER = chromium.wsEndpoint();
    }
  } catch (error) {
    process.stderr.write(`No Chromium for the run (each page test starts its own): ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

// A test that hangs fails after its timeout instead of holding the whole run; the run as a whole
// is bounded too, well inside what CI allows. The TAP report is also kept in a file, to know which
// files failed.
const tap = join(mkdtempSync(join(tmpdir(), 'binder-test-')), 'report.tap');
// Not spawnSync: the run's Chromium answers its tests from this process's event loop.
const run = (paths, concurrency) => new Promise((done) => {
  const child = spawn(process.execPath, [
    '--test', `--test-concurrency=${concurrency}`, '--test-timeout=180000',
    '--test-reporter=tap', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tap}`,
    ...paths,
  ], { stdio: 'inherit', env });
  const limit = setTimeout(() => {
    child.kill('SIGKILL');
    done({ status: null, error: new Error('they ran past 30 minutes and were stopped') });
  }, 30 * 60_000);
  child.on('error', (error) => {
    clearTimeout(limit);
    done({ status: null, error });
  });
  child.on('exit', (code) => {
    clearTimeout(limit);
    done({ status: code, error: null });
  });
});

/** The test files of the top-level tests that failed, from a TAP report. */
const failedFiles = () => {
  const failed = new Set();
  let failing = false;
  for (const line of readFileSync(tap, 'utf8').split('\n')) {
    if (/^not ok \d+/.test(line)) failing = true;
    else if (/^ok \d+/.test(line)) failing = false;
    const at = failing && /^  location: '(.+?\.test\.js):\d+:\d+'/.exec(line);
    if (at) failed.add(at[1]);
  }
  return [...failed];
};

// The files that needed a second run, kept where CI prints them (.ci/run) whatever the outcome.
const rerunFile = join(root, 'build', 'test-reruns.txt');
rmSync(rerunFile, { force: true });
let rerun = [];

// What lies at the checkout's top before the run: a test that leaves a file or a folder there (a
// relative path taken from where the tests run) fails the run, named.
const before = new Set(readdirSync(root));

let r = await run(chosen, 2);
let status = r.status ?? 1;
if (r.error) process.stderr.write(`The tests did not finish: ${r.error.message}\n`);
else if (status !== 0) {
  // The machines are shared and noisy: a file that failed is run once more, alone. A failure that
  // does not come back is said loudly, by name, and does not fail the run; one that does, does.
  const again = failedFiles();
  if (again.length > 0 && again.length <= 3) {
    process.stderr.write(`\nRunning again, alone, the ${again.length} file(s) that failed:\n${again.map((f) => `  ${f}`).join('\n')}\n`);
    r = await run(again, 1);
    status = r.status ?? 1;
    const still = new Set(status === 0 ? [] : failedFiles());
    rerun = again.map((f) => `${f.slice(root.length + 1)} ${still.has(f) ? 'failed again' : 'passed when run again'}`);
    writeFileSync(rerunFile, `${rerun.join('\n')}\n`);
    if (status === 0) {
      process.stderr.write(`\nFLAKY: these failed once and passed when run again alone — a timing the machine's load broke, or a bug that shows now and then; look:\n${again.map((f) => `  ${f}`).join('\n')}\n`);
    }
  }
}
await chromium?.close();
await cluster?.stop();
const left = readdirSync(root).filter((name) => !before.has(name));
if (left.length) {
  process.stderr.write(`\nThe tests left ${left.map((n) => JSON.stringify(n)).join(', ')} in ${root}: a test wrote where the tests run, not in a temporary folder.\n`);
  status = 1;
}
// The run's last line: a rerun is never silent.
if (rerun.length) process.stderr.write(`\n${rerun.length} file(s) needed a rerun: ${rerun.join('; ')} (listed in build/test-reruns.txt)\n`);
process.exit(status);
