/**
 * The test runner (scripts/test.mjs) on a tree of its own: a file that fails once is run again
 * alone, and the run's last line names it, with the count, as does build/test-reruns.txt, which
 * .ci/run prints; a file that fails again is named so and fails the run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

/** A tree with the runner and the given test files, run; its stderr's last line and the list. */
function runTree(root: string, files: Record<string, string>): { status: number | null; last: string; listed: string } {
  mkdirSync(join(root, 'scripts'));
  mkdirSync(join(root, 'build', 'test'), { recursive: true });
  copyFileSync(join(ROOT, 'scripts', 'test.mjs'), join(root, 'scripts', 'test.mjs'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, 'build', 'test', name), text);
  // Without the variable Node's runner gives the processes it starts, the inner run is a run of
  // its own, as in a shell.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'test.mjs')], { encoding: 'utf8', env });
  let listed = '';
  try { listed = readFileSync(join(root, 'build', 'test-reruns.txt'), 'utf8'); } catch { /* none needed */ }
  return { status: run.status, last: run.stderr.trimEnd().split('\n').at(-1) ?? '', listed };
}

const FLAKY = `import { test } from 'node:test';
import { existsSync, writeFileSync } from 'node:fs';
const mark = new URL('./flaky.mark', import.meta.url);
test('fails the first time only', () => { if (!existsSync(mark)) { writeFileSync(mark, ''); throw new Error('first time'); } });
`;
const FINE = "import { test } from 'node:test';\ntest('fine', () => {});\n";
const BROKEN = "import { test } from 'node:test';\ntest('always fails', () => { throw new Error('always'); });\n";

test('a file that passed only when run again is named in the last line and the list; the run passes', (t) => {
  const { status, last, listed } = runTree(tempDir(t), { 'flaky.test.js': FLAKY, 'fine.test.js': FINE });
  assert.equal(status, 0);
  assert.equal(last, '1 file(s) needed a rerun: build/test/flaky.test.js passed when run again (listed in build/test-reruns.txt)');
  assert.equal(listed, 'build/test/flaky.test.js passed when run again\n');
});

test('a file that fails again is named so, and fails the run', (t) => {
  const { status, last, listed } = runTree(tempDir(t), { 'flaky.test.js': FLAKY, 'broken.test.js': BROKEN });
  assert.equal(status, 1);
  assert.match(last, /^2 file\(s\) needed a rerun: build\/test\/broken\.test\.js failed again; build\/test\/flaky\.test\.js passed when run again/);
  assert.equal(listed, 'build/test/broken.test.js failed again\nbuild/test/flaky.test.js passed when run again\n');
});

test('a run that needed no rerun says nothing of one and lists none', (t) => {
  const { status, last, listed } = runTree(tempDir(t), { 'fine.test.js': FINE });
  assert.equal(status, 0);
  assert.doesNotMatch(last, /rerun/);
  assert.equal(listed, '');
});
