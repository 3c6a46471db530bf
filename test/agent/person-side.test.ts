/** `binder tui`, `serve` and `admin`: dispatched to the bundles beside the command, or said missing. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runPersonSide } from '../../src/agent/person-side.js';
import { tempDir } from '../helpers/temp.js';

const fakeBundle = (name: string, code: number): string =>
  `export async function main(argv) { globalThis.__binderCalled = ['${name}', argv]; return ${code}; }\n`;

test('admin and serve --no-tui go to the keeper; tui and serve to the screen', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'binder-keeper.js'), fakeBundle('keeper', 5));
  writeFileSync(join(dir, 'binder-tui.js'), fakeBundle('screen', 6));
  const base = pathToFileURL(join(dir, 'binder.js')).href;
  const called = () => (globalThis as { __binderCalled?: unknown }).__binderCalled;
  const cases: [string[], string, number][] = [
    [['admin', 'grant', 'batches', 'Claude', 'write'], 'keeper', 5],
    [['serve', '--store', 's', '--no-tui'], 'keeper', 5],
    [['serve', '--store', 's'], 'screen', 6],
    [['tui'], 'screen', 6],
  ];
  for (const [argv, where, code] of cases) {
    assert.equal(await runPersonSide(argv, () => {}, base), code, argv.join(' '));
    assert.deepEqual(called(), [where, argv], argv.join(' '));
  }
});

test('a build without the bundle says so and exits 2', async (t) => {
  const dir = tempDir(t);
  const base = pathToFileURL(join(dir, 'binder.js')).href;
  let said = '';
  assert.equal(await runPersonSide(['tui'], (s) => { said += s; }, base), 2);
  assert.match(said, /This build has no screen/);
  said = '';
  assert.equal(await runPersonSide(['admin', 'sides'], (s) => { said += s; }, base), 2);
  assert.match(said, /This build has no keeper/);
});
