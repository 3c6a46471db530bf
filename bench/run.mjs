// bench/run (`npm run bench`): every benchmark in turn, then each budget with its figure and
// whether it was met. Builds first, so the figures are of the code as it stands. Needs
// Taskwarrior (`task`) for the comparison; the screen's and wait's benchmarks run when present.
// Nothing here is a test: the machines are shared, and a figure is never an assertion.
//   npm run bench [-- --quick] [-- --out FILE]
//   --quick: smaller sizes and fewer rounds, to try the harness (its figures are not the record)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, machine, option, ROOT, tempDir } from './lib.mjs';

const QUICK = process.argv.includes('--quick');
const OUT = option('--out', '');
const dir = tempDir('binder-bench-run-');

/** Runs one benchmark, its output shown as it comes and kept; null when it failed. */
function step(what, argv) {
  process.stdout.write(`\n== ${what}: node ${argv.join(' ')}\n`);
  return new Promise((done) => {
    const child = spawn(process.execPath, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code, signal) => {
      if (code !== 0) process.stdout.write(`(${what} ended with ${code ?? signal})\n`);
      done(code === 0 ? out : null);
    });
  });
}
const json = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

if (spawnSync('task', ['--version'], { encoding: 'utf8' }).status !== 0) {
  process.stderr.write('Taskwarrior is needed for the comparison: apt-get install taskwarrior (see bench/README.md).\n');
  process.exit(2);
}
process.stdout.write(`Binder's benchmarks on ${machine()}; load ${load()} at the start\n`);
if (spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) process.exit(1);

const files = {
  cli: join(dir, 'cli.json'), ready: join(dir, 'ready.json'), keeper: join(dir, 'keeper.json'), http: join(dir, 'http.json'), page: join(dir, 'page.json'),
  postgres: join(dir, 'postgres.json'), floor: join(dir, 'floor.json'),
};
await step('the command and MCP paths against Taskwarrior', ['bench/cli.mjs', '--sizes', QUICK ? '1000,10000' : '1000,10000,100000', '--rounds', QUICK ? '8' : '30', '--json', files.cli]);
await step('binder-mcp ready', ['bench/mcp-ready.mjs', '--rounds', QUICK ? '8' : '30', '--json', files.ready]);
await step('instructions of start-up (valgrind)', ['bench/instructions.mjs', '--runs', QUICK ? '1' : '5']);
await step('the keeper', ['bench/keeper.mjs', '--records', QUICK ? '100000' : '1000000', '--asks', QUICK ? '150' : '600', '--json', files.keeper]);
await step('the keeper over HTTP', ['bench/http.mjs', '--records', QUICK ? '10000' : '100000', '--requests', QUICK ? '300' : '2000', '--seconds', QUICK ? '1' : '3', '--rounds', QUICK ? '6' : '20', '--json', files.http]);
const tui = existsSync(join(ROOT, 'bench', 'tui.mjs'))
  ? await step('the screen', ['bench/tui.mjs', ...(QUICK ? ['--records-large', '20000', '--presses', '40'] : [])])
  : null;
// The first frame as a person sees it: timed by the tmux pane's own output, nothing polling it.
const firstFrame = await step('the screen\'s first frame in tmux', ['bench/first-frame.mjs', '--rounds', QUICK ? '4' : '12']);
if (existsSync(join(ROOT, 'bench', 'wait.mjs'))) await step('wait', ['bench/wait.mjs', QUICK ? '5' : '20']);
// The team's binder on PostgreSQL (each says so and stops when PostgreSQL is not installed).
await step('the binder on PostgreSQL', ['bench/postgres.mjs', '--records', QUICK ? '2000' : '10000', '--seconds', QUICK ? '2' : '5', '--requests', QUICK ? '200' : '1000', '--warm', QUICK ? '200' : '1000', '--json', files.postgres]);
await step('what this machine allows a change on PostgreSQL', ['bench/postgres-floor.mjs', '--records', QUICK ? '2000' : '10000', '--seconds', QUICK ? '2' : '5', '--rounds', QUICK ? '2' : '5', '--json', files.floor]);
if (existsSync('/usr/bin/chromium') || process.env.BINDER_CHROMIUM) await step('the web page in Chromium', ['bench/page.mjs', '--rounds', QUICK ? '5' : '15', '--changes', QUICK ? '5' : '20', '--json', files.page]);

// Each budget, its figure and its verdict.
const cli = json(files.cli);
const ready = json(files.ready);
const keeper = json(files.keeper);
const http = json(files.http);
const page = json(files.page);
const postgres = json(files.postgres);
const pgFloor = json(files.floor);
const rows = [];
const budget = (name, figure, met) => rows.push({ name, figure, met });
const at = (n) => cli?.sizes.find((s) => s.records === n);
for (const size of cli?.sizes ?? []) {
  for (const c of size.command) budget(`${c.name} ≤ 1.3× node -e 0, ${size.records.toLocaleString('en')} records`, `${c.toFloor}× (${c.ms} ms; node -e 0 ${size.floorMs} ms)`, c.toFloor <= 1.3);
}
const biggest = at(100_000) ?? cli?.sizes.at(-1);
// Calls in a stream, as an agent's session makes them; the figure between the process rounds beside it.
for (const c of (biggest?.mcp ?? []).filter((m) => m.peer)) budget(`${c.name} ≤ 3 ms per call, ${biggest.records.toLocaleString('en')} records`, `${c.steadyMs} ms in a stream (${c.ms} ms between the rounds)`, c.steadyMs <= 3);
for (const n of [10_000, 100_000]) {
  const size = at(n);
  if (!size) continue;
  const [show, search, add] = size.command;
  const records = n.toLocaleString('en');
  budget(`binder show faster than task list, ${records} records`, `${show.toPeer}× (${show.ms} vs ${show.peerMs} ms)`, show.toPeer < 1);
  budget(`binder search faster than task /word/ list, ${records} records`, `${search.toPeer}× (${search.ms} vs ${search.peerMs} ms)`, search.toPeer < 1);
  const limit = n === 10_000 ? 2 : 1;
  budget(`binder add ${limit === 2 ? 'within 2×' : 'faster than'} task add, ${records} records`, `${add.toPeer}× (${add.ms} vs ${add.peerMs} ms)`, limit === 2 ? add.toPeer <= 2 : add.toPeer < 1);
}
if (keeper) {
  const records = keeper.records.toLocaleString('en');
  budget(`keeper answer median ≤ 5 ms, 8 agents, ${records} records`, `${keeper.eight.medianMs} ms`, keeper.eight.medianMs <= 5);
  budget(`keeper answer p99 ≤ 25 ms, 8 agents, ${records} records`, `${keeper.eight.p99Ms} ms`, keeper.eight.p99Ms <= 25);
  budget(`≥ 2,000 durable asks/s, ${records} records`, `${keeper.burst.perSecond} asks/s`, keeper.burst.perSecond >= 2000);
  const peak = keeper.memory.worked?.peakMb;
  budget(`keeper resident memory ≤ 150 MB, ${records} records`, peak === undefined ? 'not measured' : `${peak} MB at its peak`, peak !== undefined && peak <= 150);
  const long = keeper.longFolder;
  budget('no slower with 1,000,000 answered lines in a folder', `${long.ratio}× (${long.medianMs} ms vs ${long.shortFolder.medianMs} ms, same rounds)`, long.ratio <= 1.1);
}
if (http) {
  const records = http.records.toLocaleString('en');
  for (const face of ['REST', 'MCP']) {
    const read = http.latency[`${face} read`];
    const change = http.latency[`${face} change`];
    budget(`a read over ${face} ≤ 1 ms median, ${records} records`, `${read.medianMs} ms (p99 ${read.p99Ms} ms)`, read.medianMs <= 1);
    budget(`a durable change over ${face} ≤ 3 ms median, ${records} records`, `${change.medianMs} ms (p99 ${change.p99Ms} ms)`, change.medianMs <= 3);
  }
  const best = (kind) => Math.max(...Object.values(http.throughput[kind]));
  budget('≥ 5,000 reads/s over REST (8 or 64 clients)', `${best('REST read').toLocaleString('en')} reads/s`, best('REST read') >= 5000);
  budget('≥ 2,000 durable changes/s over REST (8 or 64 clients)', `${best('REST change').toLocaleString('en')} changes/s`, best('REST change') >= 2000);
  budget('binder --url ≤ 1.3× node -e 0', `${http.start.urlToFloor}× (${http.start.urlMs} ms; node -e 0 ${http.start.floorMs} ms)`, http.start.urlToFloor <= 1.3);
}
if (page) {
  budget(`the page's first view ≤ 300 ms after navigation, ${page.records.toLocaleString('en')} records`, `${page.firstView.medianMs} ms (p90 ${page.firstView.p90Ms} ms)`, page.firstView.medianMs <= 300);
  budget('the page\'s script ≤ 150 KB gzipped', `${page.script.gzipKb} KB`, page.script.gzipKb <= 150);
  budget('an agent\'s change on the page ≤ 200 ms after its answer', `${page.change.medianMs} ms (p90 ${page.change.p90Ms} ms)`, page.change.medianMs <= 200);
}
if (pgFloor) {
  // Ratios in one run, not absolutes: what a change or a read can cost depends on the machine.
  const change = pgFloor.setups['one statement'];
  budget('PostgreSQL: changes through two keepers ≥ 0.9× "the token\'s look, then the change as one statement"',
    `${change.binderRatio}× (${pgFloor.setups.Binder.changesPerSecond.toLocaleString('en')} against ${change.changesPerSecond.toLocaleString('en')} changes/s)`, change.binderRatio >= 0.9);
  budget('PostgreSQL: a read through one keeper ≤ 1.2× the time of a bare one-statement read of the page',
    `${pgFloor.reads.timeRatio}× (${pgFloor.reads.rowTimeRatio}× a read of the row alone)`, pgFloor.reads.timeRatio <= 1.2);
}
if (postgres) {
  const one = postgres.setups['PostgreSQL, 1 keeper'];
  const two = postgres.setups['PostgreSQL, 2 keepers'];
  budget('PostgreSQL: a read ≤ 2 ms median over HTTP', `${one.read.medianMs} ms through one keeper, ${two.read.medianMs} ms through two`, Math.max(one.read.medianMs, two.read.medianMs) <= 2);
}
if (ready) budget('binder-mcp ready ≤ 150 ms', `${ready.readyMs} ms (${ready.toFloor}× node -e 0 at ${ready.floorMs} ms)`, ready.readyMs <= 150);
const frame = /^binder tui\s+(\d+)\s+([\d.]+)/m.exec(firstFrame ?? '');
const floor = /^node alone\s+(\d+)/m.exec(firstFrame ?? '');
if (frame) budget('binder tui first frame ≤ 300 ms, 10,000 records (tmux)', `${frame[1]} ms (${frame[2]}× node alone printing there, ${floor?.[1] ?? '?'} ms)`, Number(frame[1]) <= 300);

const width = Math.max(...rows.map((r) => r.name.length));
process.stdout.write(`\n== Budgets${QUICK ? ' (--quick: not the record)' : ''}; load ${load()} at the end\n`);
for (const r of rows) process.stdout.write(`  ${r.met ? 'met   ' : 'MISSED'}  ${r.name.padEnd(width)}  ${r.figure}\n`);
if (OUT) writeFileSync(OUT, `${JSON.stringify({ machine: machine(), quick: QUICK, budgets: rows, cli, ready, keeper, http, page, postgres, floor: pgFloor, tui, firstFrame }, null, 2)}\n`);
