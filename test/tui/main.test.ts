/** The entry: importing it starts nothing; without a terminal it says what to use instead; a bad option is a sentence. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempRoot } from './harness.js';

const repo = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const bundle = join(repo, 'dist', 'bin', 'binder-tui.js');
const binder = join(repo, 'dist', 'bin', 'binder.js');

test('importing the screen\'s bundle starts nothing, and leaves fetch as it was (hidden only while Ink loads)', () => {
  const script = 'const kind = () => Object.keys(Object.getOwnPropertyDescriptor(globalThis, "fetch")).sort().join(","); const before = kind();'
    + ` const m = await import(${JSON.stringify(bundle)}); await import(${JSON.stringify(bundle.replace(/\.js$/, '.mjs'))});`
    + ' console.log(typeof m.main, kind() === before, typeof fetch);';
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'function true function\n', 'fetch is Node\'s own again, as it was');
});

test('without a terminal: the sentence that says what to use instead, and exit 2; nothing is opened', (t) => {
  const root = tempRoot(t);
  const r = spawnSync(process.execPath, [binder, 'tui', '--store', join(root, 'store')], { encoding: 'utf8', input: '', timeout: 20_000 });
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'binder tui needs a terminal; use binder serve --no-tui to keep the binder without a screen\n');
  assert.equal(r.stdout, '');
});

test('an option not understood is one sentence and exit 64', () => {
  const r = spawnSync(process.execPath, [binder, 'tui', '--colour'], { encoding: 'utf8', input: '', timeout: 20_000 });
  assert.equal(r.status, 64);
  assert.match(r.stderr, /^binder tui does not know "--colour"/);
});
