/**
 * The build rewrites two of the pinned Ink's own modules in the screen's bundle
 * (scripts/screen-plugins.mjs): each text it looks for must be in `node_modules/ink/build` as
 * installed, so that a new Ink is met here, by name, before the build stops on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/processes.js';

interface Plugins { INK_REWRITES: Record<string, Array<string | RegExp>> }

test('every text the build rewrites in Ink is in the pinned Ink, once', async () => {
  const { INK_REWRITES } = await import(pathToFileURL(join(ROOT, 'scripts', 'screen-plugins.mjs')).href) as Plugins;
  assert.deepEqual(Object.keys(INK_REWRITES).sort(), ['output.js', 'reconciler.js']);
  for (const [file, parts] of Object.entries(INK_REWRITES)) {
    const source = readFileSync(join(ROOT, 'node_modules', 'ink', 'build', file), 'utf8');
    for (const part of parts) {
      const found = typeof part === 'string' ? source.split(part).length - 1 : source.match(new RegExp(part.source, 'g'))?.length ?? 0;
      assert.equal(found, 1, `ink/build/${file} holds ${String(part)} once`);
    }
  }
});
