#!/usr/bin/env node
// Builds Binder: every source and test file transpiled one by one into build/ (what the tests
// import), and the commands bundled into dist/bin/ (what people and agents run). Type checking
// is separate (`npm run typecheck`): a build must never wait for it.
import { build } from 'esbuild';
import { readdirSync, statSync, mkdirSync, chmodSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = (dir) => {
  const out = [];
  const walk = (at) => {
    let names = [];
    try { names = readdirSync(at); } catch { return; }
    for (const name of names) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
    }
  };
  walk(join(root, dir));
  return out;
};

// Outputs are overwritten in place, never wiped first: several builds may run side by side.

// Unbundled, for the tests: one output file per input, same tree.
await build({
  entryPoints: [...sources('src'), ...sources('test'), ...sources('bench')],
  outdir: join(root, 'build'),
  outbase: root,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  jsx: 'automatic',
  sourcemap: 'inline',
  logLevel: 'warning',
});

// The commands. CommonJS packages bundled into ESM need a real `require` for Node's built-ins.
const esmBanner = "import { createRequire as __binderRequire } from 'node:module'; const require = __binderRequire(import.meta.url);";
// The agent's commands are CommonJS: Node starts a CommonJS file several milliseconds sooner
// than a module (no module loader, no facades over its built-ins), and their start-up is the
// agent's latency. Strict, as the modules they are made from; `import.meta.url` is this file's.
const cjsBanner = '"use strict"; var __binderUrl = require("node:url").pathToFileURL(__filename).href;';
// Commander loads node:child_process for sub-commands run as programs, which `binder` never
// runs; on the agent's path that load is a few milliseconds of every call's start-up.
const noSubPrograms = {
  name: 'no-sub-programs',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'commander')}`) ? { path: 'child_process', namespace: 'no-sub-programs' } : undefined);
    b.onLoad({ filter: /.*/, namespace: 'no-sub-programs' }, () => ({
      contents: "exports.spawn = () => { throw new Error('binder runs no sub-command as a program of its own'); };",
      loader: 'js',
    }));
  },
};
const commands = [
  // The agent's path: commander and our own code, nothing else. Start-up is its latency.
  { in: 'src/agent/main-binder.ts', out: 'binder.js', format: 'cjs', plugins: [noSubPrograms] },
  { in: 'src/agent/main-mcp.ts', out: 'binder-mcp.js', format: 'cjs' },
  // A person's paths, loaded by `binder` only for `admin`, `serve` and `tui`. Modules (.mjs),
  // each with a CommonJS stand-in under the .js name that loads it when its main is called.
  { in: 'src/keeper/main-keeper.ts', out: 'binder-keeper.mjs', standIn: 'binder-keeper.js' },
  { in: 'src/tui/main-tui.tsx', out: 'binder-tui.mjs', standIn: 'binder-tui.js' },
];
const bin = join(root, 'dist', 'bin');
mkdirSync(bin, { recursive: true });
// Every .js here is CommonJS, whatever the package says.
writeFileSync(join(bin, 'package.json'), '{ "type": "commonjs" }\n');
for (const c of commands) {
  const entry = join(root, c.in);
  try { statSync(entry); } catch { continue; }
  const outfile = join(bin, c.out);
  const cjs = c.format === 'cjs';
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: cjs ? 'cjs' : 'esm',
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    minify: true,
    legalComments: 'none',
    banner: { js: cjs ? cjsBanner : esmBanner },
    external: ['better-sqlite3'],
    alias: { 'react-devtools-core': join(root, 'scripts', 'no-devtools.mjs') },
    define: { 'process.env.NODE_ENV': '"production"', ...(cjs ? { 'import.meta.url': '__binderUrl' } : {}) },
    plugins: c.plugins ?? [],
    logLevel: 'warning',
  });
  chmodSync(outfile, 0o755);
  if (c.standIn) {
    writeFileSync(join(bin, c.standIn), `"use strict";
// Stands in for ${c.out}: importing it starts nothing; main loads the module and runs it.
exports.main = async (...args) => (await import(${JSON.stringify(`./${c.out}`)})).main(...args);
`);
  }
}
