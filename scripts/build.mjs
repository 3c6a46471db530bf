#!/usr/bin/env node
// Builds Binder: every source and test file transpiled one by one into build/ (what the tests
// import), and the commands bundled into dist/bin/ (what people and agents run). Type checking
// is separate (`npm run typecheck`): a build must never wait for it.
import { build } from 'esbuild';
import { readdirSync, readFileSync, statSync, mkdirSync, chmodSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { screenPlugins, sqliteBundled } from './screen-plugins.mjs';

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

// The man pages, written from the commands' own command lines (src/app/man-pages.ts) into
// dist/man/man1, which the package installs (package.json's "man").
const manDir = join(root, 'dist', 'man', 'man1');
mkdirSync(manDir, { recursive: true });
const { manPages } = await import(pathToFileURL(join(root, 'build', 'src', 'app', 'man-pages.js')).href);
for (const [name, text] of Object.entries(manPages())) writeFileSync(join(manDir, name), text);

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
// The agent's commands start from V8's code cache (Node 20 has no compile cache of its own):
// `out` is a small starter that compiles `main` with the cache beside it, written at the end of
// a run whenever it is missing or no longer fits (another Node). Compiling costs a bundle of
// this size more than reading its cache does. A starter may be required, as the screen's is:
// `exported` names what its main exports, for an ES module importing it (Node finds the names
// of a CommonJS file's exports in its text).
const starter = (main, exported = []) => `#!/usr/bin/env node
"use strict";
// Starts ${main} from V8's code cache beside it (${main}.cache), and writes that cache at the
// end of a run when it is missing or was made by another Node. Without it, ${main} compiles as usual.
const { readFileSync, renameSync, writeFileSync } = require("node:fs");
const { Script } = require("node:vm");
const file = require("node:path").join(__dirname, ${JSON.stringify(main)});
const cacheFile = \`\${file}.cache\`;
let cachedData;
try { cachedData = readFileSync(cacheFile); } catch {}
const script = new Script(readFileSync(file, "utf8"), { filename: file, cachedData });
if (cachedData === undefined || script.cachedDataRejected) {
  process.once("exit", () => {
    try {
      const fresh = \`\${cacheFile}.\${process.pid}\`;
      writeFileSync(fresh, script.createCachedData());
      renameSync(fresh, cacheFile);
    } catch {}
  });
}
script.runInThisContext()(exports, require, module, file, __dirname);
${exported.length ? `0 && (module.exports = { ${exported.join(', ')} });\n` : ''}`;
// zod's `z.locales` (every language's messages, a third of zod's bytes) is used by no Binder
// code: left out, each bundle with zod reads and loads that much less at start. English, zod's
// default, comes with its schemas and stays.
const noZodLocales = {
  name: 'no-zod-locales',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'zod')}`) ? { path: 'zod-locales', namespace: 'no-zod-locales' } : undefined);
    b.onLoad({ filter: /.*/, namespace: 'no-zod-locales' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};
// The MCP SDK's server validates with Ajv only what a client answers to an elicitation, which
// binder-mcp never asks for; Ajv and its formats are a seventh of the bundle. A server that did
// elicit would be told so at once.
const noElicitationValidator = {
  name: 'no-elicitation-validator',
  setup(b) {
    b.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, () => ({ path: 'ajv-provider', namespace: 'no-elicitation-validator' }));
    b.onLoad({ filter: /.*/, namespace: 'no-elicitation-validator' }, () => ({
      contents: `export class AjvJsonSchemaValidator {
  getValidator() { throw new Error('binder-mcp validates no elicitation: it never asks a client for one'); }
}`,
      loader: 'js',
    }));
  },
};
// esbuild escapes every character beyond ASCII except in regular expressions; escaped there
// too, a bundle is all ASCII, which Node reads and V8 keeps at one byte a character (a screen's
// start reads and hashes half as much). Only characters inside what can only be a regular
// expression literal (opened after an operator or a bracket, closed on its line) are escaped; a
// bundle with any other is left as it was.
const asciiOnly = (code) => {
  const literal = /\/(?![*/])(?:\\[^\n]|\[(?:\\[^\n]|[^\]\\\n])*\]|[^/\\\n[])+\/[dgimsuyv]*/y;
  const spans = [];
  for (const { index: at } of code.matchAll(/[^\x00-\x7f]/g)) {
    if (spans.some(([from, to]) => from <= at && at < to)) continue;
    let span;
    for (let from = at - 1; from >= 0 && code[from] !== '\n' && !span; from--) {
      if (code[from] !== '/' || !/[(,=:[!&|?{};]\s*$/.test(code.slice(Math.max(0, from - 20), from))) continue;
      literal.lastIndex = from;
      const found = literal.exec(code);
      if (found && from + found[0].length > at) span = [from, from + found[0].length];
    }
    if (!span) return code;
    spans.push(span);
  }
  let out = code;
  for (const [from, to] of spans.reverse()) {
    out = out.slice(0, from) + out.slice(from, to).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) + out.slice(to);
  }
  return out;
};
// The HTTP face (Hono, the MCP SDK's server) is a bundle of its own, loaded by a keeper only
// when it is asked to listen: the keeper's and the screen's bundles require it by its path.
const httpApart = {
  name: 'http-apart',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]http[\\/]load\.ts$/ }, () => ({
      contents: "export const loadHttp = async () => require('./binder-http.js');",
      loader: 'js',
    }));
    b.onResolve({ filter: /^\.\/binder-http\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};
const commands = [
  // The agent's path: commander and our own code, nothing else. Start-up is its latency.
  { in: 'src/app/main-binder.ts', out: 'binder-main.js', starter: 'binder.js', format: 'cjs', plugins: [noSubPrograms] },
  { in: 'src/app/main-mcp.ts', out: 'binder-mcp-main.js', starter: 'binder-mcp.js', format: 'cjs', plugins: [noElicitationValidator] },
  // The person's screen, loaded by `binder` for `tui` and `serve`: CommonJS from its code cache
  // as well (its first frame is the person's wait), with a module stand-in under the .mjs name.
  { contents: "export * from 'zod';", out: 'binder-tui-zod-main.js', starter: 'binder-tui-zod.js', format: 'cjs' },
  { in: 'src/app/main-tui.tsx', out: 'binder-tui-main.js', starter: 'binder-tui.js', format: 'cjs', moduleStandIn: 'binder-tui.mjs', plugins: [...screenPlugins, httpApart], sqliteBundled },
  // The keeper alone, loaded by `binder` only for `admin`, `init`, `completion` (each Tab that
  // completes a list's name) and `serve --no-tui`: CommonJS from its code cache too, with a
  // module stand-in under the .mjs name. A module had no cache: its start compiled 750 KB anew.
  { in: 'src/app/main-keeper.ts', out: 'binder-keeper-main.js', starter: 'binder-keeper.js', format: 'cjs', moduleStandIn: 'binder-keeper.mjs', plugins: [httpApart] },
  // `binder sandbox` (the person's, around an agent) and `binder doctor` (the agent's), loaded
  // by `binder` for these two verbs alone.
  { in: 'src/sandbox/main-sandbox.ts', out: 'binder-sandbox.js', format: 'cjs' },
  // The HTTP face, required by the two above when a keeper listens (`--http`).
  { in: 'src/http/listen.ts', out: 'binder-http.js', format: 'cjs', plugins: [noElicitationValidator] },
];
// The person's web page: React DOM and the screen's words, bundled for browsers, and its style.
// Served by the HTTP face from dist/page with a CSP that allows nothing inline.
const page = join(root, 'dist', 'page');
mkdirSync(page, { recursive: true });
await build({
  entryPoints: { app: join(root, 'src', 'page', 'main.tsx') },
  outdir: page,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox115', 'safari16'],
  jsx: 'automatic',
  minify: true,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
await build({
  entryPoints: { app: join(root, 'src', 'page', 'app.css') },
  outdir: page,
  bundle: true,
  minify: true,
  logLevel: 'warning',
});

const bin = join(root, 'dist', 'bin');
mkdirSync(bin, { recursive: true });
// Every .js here is CommonJS, whatever the package says.
writeFileSync(join(bin, 'package.json'), '{ "type": "commonjs" }\n');
for (const c of commands) {
  const entry = c.in && join(root, c.in);
  if (entry) try { statSync(entry); } catch { continue; }
  const outfile = join(bin, c.out);
  const cjs = c.format === 'cjs';
  await build({
    ...(entry ? { entryPoints: [entry] } : { stdin: { contents: c.contents, resolveDir: root, loader: 'js' } }),
    outfile,
    bundle: true,
    format: cjs ? 'cjs' : 'esm',
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    // BINDER_BUILD_NAMES=1 keeps the functions' names, for a profile that names them
    // (bench/profile-keeper.mjs): `minify` would rename them whatever `minifyIdentifiers` says.
    // BINDER_BUILD_NAMES=lines keeps the lines too, each module under its `// src/…` comment, so
    // that a profile's line tells the module (a package's or Binder's) its time was spent in.
    ...(process.env.BINDER_BUILD_NAMES ? { minifyWhitespace: process.env.BINDER_BUILD_NAMES !== 'lines', minifySyntax: true } : { minify: true }),
    legalComments: 'none',
    banner: { js: cjs ? cjsBanner : esmBanner },
    external: c.sqliteBundled ? ['better-sqlite3/package.json'] : ['better-sqlite3'],
    define: { 'process.env.NODE_ENV': '"production"', ...(cjs ? { 'import.meta.url': '__binderUrl' } : {}) },
    plugins: [noZodLocales, ...(c.plugins ?? [])],
    logLevel: 'warning',
  });
  chmodSync(outfile, 0o755);
  if (c.starter) {
    // The main is a function its starter compiles and calls, written as one here so that the
    // starter passes the file to V8 as it reads it (no copy of it made at every start).
    const body = asciiOnly(readFileSync(outfile, 'utf8').replace(/^#![^\n]*\n/, ''));
    writeFileSync(outfile, `(function (exports, require, module, __filename, __dirname) {${body}\n})`);
    writeFileSync(join(bin, c.starter), starter(c.out, c.moduleStandIn ? ['main'] : []));
    chmodSync(join(bin, c.starter), 0o755);
    rmSync(`${outfile}.cache`, { force: true });
  }
  if (c.standIn) {
    writeFileSync(join(bin, c.standIn), `"use strict";
// Stands in for ${c.out}: importing it starts nothing; main loads the module and runs it.
exports.main = async (...args) => (await import(${JSON.stringify(`./${c.out}`)})).main(...args);
`);
  }
  if (c.moduleStandIn) {
    writeFileSync(join(bin, c.moduleStandIn), `// ${c.starter} as an ES module, for an importer that wants one.
export { main } from ${JSON.stringify(`./${c.starter}`)};
`);
  }
}

// The code caches, made by one run of each agent command over its usual path (reading its
// command line, looking for its folder; answering an MCP client), so the first real call
// starts from them.
const nowhere = join(tmpdir(), `binder-build-${process.pid}-nowhere`);
spawnSync(process.execPath, [join(bin, 'binder.js'), 'show', 'list', '--dir', nowhere], { stdio: 'ignore' });
const mcpSession = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'build', version: '0' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'lists', arguments: {} } },
].map((line) => JSON.stringify(line)).join('\n');
spawnSync(process.execPath, [join(bin, 'binder-mcp.js'), '--dir', nowhere], { input: `${mcpSession}\n`, stdio: ['pipe', 'ignore', 'ignore'], timeout: 20_000 });
// The keeper's, made by one `binder admin` on a binder made for it (and removed after).
const warmStore = join(tmpdir(), `binder-build-${process.pid}-store`);
spawnSync(process.execPath, [join(bin, 'binder.js'), 'admin', '--store', warmStore, '--as', 'Build', 'lists'], { stdio: 'ignore', timeout: 20_000 });
rmSync(warmStore, { recursive: true, force: true });
// The screen's, made by one start of `binder tui` on a small binder, up to its first frame
// (scripts/warm-screen.mjs). Without it, the first `binder tui` makes it, at its end.
const { CI: _ci, ...notCi } = process.env;
const warmed = spawnSync(process.execPath, [join(root, 'scripts', 'warm-screen.mjs'), bin], { env: notCi, stdio: ['pipe', 'ignore', 'pipe'], encoding: 'utf8', timeout: 20_000 });
if (warmed.status !== 0) process.stderr.write(`The screen's code cache was not made (the first binder tui makes it): ${warmed.stderr || warmed.error?.message || `exit ${warmed.status}`}\n`);
// zod's, for the keeper's dispatch in the screen (loaded after the first frame): zod loaded once.
spawnSync(process.execPath, ['-e', `require(${JSON.stringify(join(bin, 'binder-tui-zod.js'))})`], { stdio: 'ignore', timeout: 20_000 });
