// bench/profile-keeper: where the keeper's time goes while it answers a stream of MCP calls.
// A binder of N records (bench/fill) is kept by `binder serve --no-tui` started with
// `--cpu-prof`; one binder-mcp process, through the SDK's own client, calls one operation CALLS
// times in a row; then the keeper is stopped and its profile is read: the functions and the
// files that took the most of its own time, printed as tables (ms of samples, share of all).
// The .cpuprofile is kept (its path printed) for a flame graph in Chromium's DevTools or speedscope.
//   node bench/profile-keeper.mjs [--records 10000] [--calls 2000] [--op get] [--bin DIST_BIN] [--out DIR]
// Built with BINDER_BUILD_NAMES=1 (node scripts/build.mjs), the bundles keep their functions' names for the tables.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fill, LIST, RARE } from './fill.mjs';
import { BINDER, ROOT, option, round, serve, tempDir } from './lib.mjs';

const RECORDS = Number(option('--records', '10000'));
const CALLS = Number(option('--calls', '2000'));
const OP = option('--op', 'get');
const BIN = option('--bin', BINDER);
const OUT = option('--out', '');

const argsOf = { get: { id: '1' }, show: { list: LIST }, search: { text: RARE }, add: { list: LIST, title: 'a record added by the profile' } };

/** Self time per function and per file from a V8 .cpuprofile. */
function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const fns = new Map();
  const files = new Map();
  let total = 0;
  for (const [id, ms] of self) {
    const { callFrame: f } = byId.get(id);
    const file = f.url ? relative(ROOT, f.url.replace(/^file:\/\//, '')) || f.url : `(${f.functionName || 'native'})`;
    const fn = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
    fns.set(fn, (fns.get(fn) ?? 0) + ms);
    files.set(file, (files.get(file) ?? 0) + ms);
    total += ms;
  }
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return { total, fns: top(fns, 25), files: top(files, 20) };
}

const dir = tempDir();
const made = await fill(dir, RECORDS);
const profDir = OUT || join(dir, 'profile');
mkdirSync(profDir, { recursive: true });
const keeper = await serve(made.storeDir, [], ['--cpu-prof', `--cpu-prof-dir=${profDir}`], BIN);
const env = { ...process.env };
delete env.BINDER_DIR;
const mcpBin = join(dirname(BIN), 'binder-mcp.js');
const client = new Client({ name: 'profile', version: '1' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [mcpBin], cwd: dirname(made.folder), env, stderr: 'ignore' }));
const t0 = performance.now();
for (let i = 0; i < CALLS; i++) {
  const r = await client.callTool({ name: OP, arguments: argsOf[OP] });
  if (r.isError) throw new Error(`${OP}: ${r.content?.[0]?.text}`);
}
const ms = performance.now() - t0;
await client.close();
await keeper.stop();
const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
const { total, fns, files } = selfTimes(JSON.parse(readFileSync(join(profDir, file), 'utf8')));
const table = (title, rows) => [`| ${title} | ms | share |`, '|---|---|---|', ...rows.map(([k, v]) => `| ${k} | ${round(v, 1)} | ${round((100 * v) / total, 1)}% |`)].join('\n');
process.stdout.write(`${CALLS} × ${OP} at ${RECORDS} records: ${round(ms / CALLS, 3)} ms a call; the keeper's samples ${round(total, 0)} ms\n\n`);
process.stdout.write(`${table('function (self time)', fns)}\n\n${table('file (self time)', files)}\n\nprofile: ${join(profDir, file)}\n`);
