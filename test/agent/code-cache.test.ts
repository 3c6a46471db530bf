/**
 * `binder` starts from V8's code cache beside its bundle: a missing cache is written by a run, a
 * cache that does not fit (garbage, another Node) is refused by V8 and written again, and the
 * answer is the same either way. Run on a copy of the built command, never on dist/ itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BINDER } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';
import { VERSION } from '../../src/version.js';

test('the code cache is written when missing, refused and written again when it does not fit', (t) => {
  const dir = tempDir(t);
  const bin = join(BINDER, '..');
  for (const name of ['binder.js', 'binder-main.js', 'package.json']) copyFileSync(join(bin, name), join(dir, name));
  const cache = join(dir, 'binder-main.js.cache');
  const run = () => spawnSync(process.execPath, [join(dir, 'binder.js'), '--version'], { encoding: 'utf8' });

  assert.equal(existsSync(cache), false);
  const first = run();
  assert.equal(first.status, 0, first.stderr);
  assert.equal(first.stdout, `${VERSION}\n`);
  assert.ok(existsSync(cache), 'the first run wrote the cache');
  const made = readFileSync(cache);
  assert.ok(made.length > 1000);

  const second = run();
  assert.equal(second.stdout, `${VERSION}\n`);
  assert.deepEqual(readFileSync(cache), made, 'a cache that fits is used, not written again');

  writeFileSync(cache, 'not a code cache at all');
  const third = run();
  assert.equal(third.status, 0, third.stderr);
  assert.equal(third.stdout, `${VERSION}\n`);
  assert.ok(readFileSync(cache).length > 1000, 'the refused cache was written again');
});
