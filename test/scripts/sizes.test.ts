/**
 * The sizes check (scripts/sizes.mjs), run by `npm test`: a file over 400 lines and a function
 * over 150 are found, a factory of closures counted whole; an allowed one may not grow and must
 * leave the list once it fits; the tree itself holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

interface Oversized { what: string; lines: number; max: number }
interface Sizes {
  oversized(paths: string[], root: string): Oversized[];
  sizeProblems(found: Oversized[], allowed: Map<string, number>): string[];
  readAllowance(text: string): Map<string, number>;
}
const sizes = (): Promise<Sizes> => import(pathToFileURL(join(ROOT, 'scripts', 'sizes.mjs')).href) as Promise<Sizes>;

/** `n` lines made by `line` from each one's number. */
const lines = (n: number, line: (at: number) => string): string => Array.from({ length: n }, (_, at) => line(at)).join('\n');

test('a long file and a long factory of short closures are found; a function of 150 lines is not', async (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, 'src'));
  // A factory of 49 closures of 3 lines each, and 4 lines of its own: 151 lines in all.
  writeFileSync(join(root, 'src', 'factory.ts'), `export function makeThings() {\n${lines(49, (at) => `  const a${at} = () => {\n    return ${at};\n  };`)}\n  void 0;\n  return 2;\n}\n`);
  writeFileSync(join(root, 'src', 'fits.tsx'), `export const View = () => {\n${lines(148, () => '  void 0;')}\n};\n`);
  writeFileSync(join(root, 'src', 'long.ts'), `${lines(401, (at) => `export const x${at} = ${at};`)}\n`);
  const { oversized } = await sizes();
  assert.deepEqual(oversized(['src/factory.ts', 'src/fits.tsx', 'src/long.ts'], root), [
    { what: 'src/factory.ts makeThings', lines: 151, max: 150 },
    { what: 'src/long.ts', lines: 401, max: 400 },
  ]);
});

test('an allowed size may not grow, and an entry that fits must leave the list', async () => {
  const { sizeProblems, readAllowance } = await sizes();
  const allowed = readAllowance('# comment\n469 src/keeper/pump.ts\n200 src/a.ts make\n160 src/b.ts gone\n');
  assert.deepEqual(sizeProblems([
    { what: 'src/keeper/pump.ts', lines: 470, max: 400 },
    { what: 'src/a.ts make', lines: 190, max: 150 },
    { what: 'src/c.ts fresh', lines: 151, max: 150 },
  ], allowed), [
    'src/keeper/pump.ts has grown to 470 lines (allowed 469 while it shrinks to 400)',
    'src/c.ts fresh is 151 lines, over 150',
    'src/b.ts gone fits now: take it out of scripts/sizes-allowed.txt',
  ]);
});

test('the tree holds its sizes', () => {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'sizes.mjs')], { encoding: 'utf8' });
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
});
