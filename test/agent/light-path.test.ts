/**
 * The agent's path stays light: `binder` neither bundles nor loads Ink, React, zod or the MCP SDK.
 * Checked twice: what esbuild would put in the bundle, and what the built command really loads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BINDER, ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const HEAVY = /node_modules\/(ink|ink-text-input|react|react-reconciler|yoga-layout|zod|@modelcontextprotocol|openid-client|oauth4webapi|jose)\//;

/** Every file esbuild would bundle from `entry`, with the build's own settings. */
async function bundled(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(ROOT, entry)], bundle: true, write: false, metafile: true, format: 'esm', platform: 'node',
    target: 'node20', jsx: 'automatic', external: ['better-sqlite3', 'react-devtools-core'], logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

test('the binder bundle holds nothing of ink, react, zod, the MCP SDK or the sign-in libraries (and the check can see them)', async () => {
  const binder = await bundled('src/app/main-binder.ts');
  assert.ok(binder.some((file) => file.includes('node_modules/commander/')), 'the check sees packages');
  assert.deepEqual(binder.filter((file) => HEAVY.test(file)), []);
  const mcp = await bundled('src/app/main-mcp.ts');
  assert.ok(mcp.some((file) => /node_modules\/zod\//.test(file)), 'binder-mcp does bundle zod: the check would see it');
  assert.ok(mcp.some((file) => /node_modules\/@modelcontextprotocol\//.test(file)));
});

/** Runs `script args` with every module it resolves (import or require) written to a log. */
function traced(dir: string, script: string, args: string[]): { code: number | null; loaded: string[] } {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.log`);
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  appendFileSync(process.env.BINDER_TRACE_LOG, found.url + '\\n');
  return found;
}\n`);
  const register = join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const requires = join(dir, 'requires.cjs');
  writeFileSync(requires, `const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const found = resolveFilename.call(this, request, ...rest);
  appendFileSync(process.env.BINDER_TRACE_LOG, found + '\\n');
  return found;
};\n`);
  writeFileSync(log, '');
  const env: NodeJS.ProcessEnv = { ...process.env, BINDER_TRACE_LOG: log, BINDER_WAIT_MS: '200', BINDER_TOKEN: `binder_${'T'.repeat(43)}` };
  delete env.BINDER_DIR;
  const r = spawnSync(process.execPath, ['--require', requires, '--import', pathToFileURL(register).href, script, ...args], {
    cwd: dir, env, encoding: 'utf8', timeout: 30_000,
  });
  return { code: r.status, loaded: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

test('the built command loads no module but node\'s own and itself (and the trace can see them)', (t) => {
  const dir = tempDir(t);
  const folder = join(dir, '.binder');
  mkdirSync(folder);
  writeFileSync(join(folder, 'keeper.json'), JSON.stringify({ keeper: 'binder', version: 'x', beat: new Date().toISOString(), every: 5000, stopped: true }));
  // The command is CommonJS: it is resolved as a path by require, as a URL by the module loader.
  const self = [pathToFileURL(BINDER).href, BINDER];
  // Over HTTP too (nobody answers at port 9: the path up to the ask and back is the one taken).
  for (const args of [['show', 'Batches'], ['--help'], ['add', 'Batches', 'x', '--json'], ['--url', 'http://127.0.0.1:9', 'add', 'Batches', 'x']]) {
    const run = traced(dir, BINDER, args);
    assert.notEqual(run.code, null, 'it ran to its end');
    assert.ok(run.loaded.some((url) => self.includes(url)), `the trace saw the command itself (${args.join(' ')})`);
    const foreign = run.loaded.filter((url) => !self.includes(url) && !url.startsWith('node:') && !/^[a-z_]+$/.test(url));
    assert.deepEqual(foreign, [], `binder ${args.join(' ')} loaded only node's modules`);
  }
  // The same trace over a module that does load zod sees it.
  const control = traced(dir, join(ROOT, 'build', 'src', 'keeper', 'schemas.js'), []);
  assert.ok(control.loaded.some((url) => url.includes('/node_modules/zod/')), 'the trace sees zod when it is loaded');
});
