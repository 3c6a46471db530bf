// bench/keeper: how fast the keeper answers, on a binder of 1,000,000 records (bench/fill).
// Latency from an ask appended to its answer seen (median, p99) with 1 and with 8 agent
// processes asking at once; durable asks per second when asks arrive together; the keeper's
// resident memory; and the same latency in a folder asked 1,000,000 times this week (its answers
// file and the keeper's ledger), in rounds alternating with a folder asked only by the bench.
// The asks are add, show and note, in turn, on the big list.
// With --before DIST_BIN (an earlier build's dist/bin/binder.js, built in a checkout of its own):
// only the one-agent latency of this build beside that one, each with its own keeper and store
// (filled by its own bench/fill.mjs), in rounds that alternate the two; ratios taken within rounds.
//   node bench/keeper.mjs [--records 1000000] [--asks 600] [--node-options "--max-semi-space-size=2"] [--json FILE] [--before DIST_BIN]
// --node-options: options for the keeper's node (to try one, e.g. a smaller young generation).
import { execFile } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { fillStore, LIST } from './fill.mjs';
import { BINDER, load, machine, median, option, percentile, round, serve, tempDir, ROOT } from './lib.mjs';

const run = promisify(execFile);
const RECORDS = Number(option('--records', '1000000'));
const ASKS = Number(option('--asks', '600'));
const JSON_OUT = option('--json', '');
const NODE_OPTIONS = option('--node-options', '').split(' ').filter(Boolean);
const AGENT = join(ROOT, 'bench', 'keeper-agent.mjs');
const BEFORE = option('--before', '');

const agent = async (dir, mode, count, batch) =>
  JSON.parse((await run(process.execPath, [AGENT, dir, mode, String(count), String(batch ?? ''), LIST], { maxBuffer: 1 << 26 })).stdout);

if (BEFORE) {
  // Each build with its own store and keeper; the same agent process asks both, in turn.
  const builds = {};
  for (const [name, bin] of [['before', BEFORE], ['now', BINDER]]) {
    const { fillStore: fillOf } = await import(pathToFileURL(join(resolve(dirname(bin), '..', '..'), 'bench', 'fill.mjs')).href);
    const dir = tempDir();
    const folder = join(dir, 'agent', '.binder');
    await fillOf(join(dir, 'store'), RECORDS, [folder]);
    builds[name] = { folder, keeper: await serve(join(dir, 'store'), [], NODE_OPTIONS, bin) };
  }
  const loads = [load()];
  for (const b of Object.values(builds)) await agent(b.folder, 'latency', 50); // warm-up
  const times = { before: [], now: [] };
  const ratios = [];
  const ROUNDS = 10;
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? ['now', 'before'] : ['before', 'now'];
    const got = {};
    for (const name of order) got[name] = await agent(builds[name].folder, 'latency', Math.ceil(ASKS / ROUNDS));
    for (const name of order) times[name].push(median(got[name]));
    ratios.push(median(got.now) / median(got.before));
  }
  loads.push(load());
  for (const b of Object.values(builds)) await b.keeper.stop();
  const result = {
    machine: machine(), records: RECORDS, before: BEFORE, load: loads, rounds: ROUNDS,
    beforeMs: round(median(times.before)), nowMs: round(median(times.now)), ratio: round(median(ratios), 3),
    middleHalf: [round(percentile(ratios, 25), 3), round(percentile(ratios, 75), 3)],
  };
  process.stdout.write(`bench/keeper — ${result.machine}; ${RECORDS.toLocaleString('en')} records; beside ${BEFORE}; load ${loads.join(' → ')}\n`
    + `  1 agent, median of each round's asks: before ${result.beforeMs} ms, now ${result.nowMs} ms; now/before ${result.ratio}× (middle half ${result.middleHalf.join('–')}), ${ROUNDS} rounds in turn\n`);
  if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
}

const root = tempDir();
const store = join(root, 'store');
const folders = Array.from({ length: 8 }, (_, i) => join(root, `agent${i}`, '.binder'));
const t0 = performance.now();
await fillStore(store, RECORDS, folders);
const filledMs = Math.round(performance.now() - t0);

const describe = (xs) => `median ${round(median(xs))} ms, p99 ${round(percentile(xs, 99))} ms (${xs.length} asks)`;
const stats = (xs) => ({ medianMs: round(median(xs)), p99Ms: round(percentile(xs, 99)), asks: xs.length });

/** The keeper's resident memory now and at its peak, in MB (Linux). */
function memory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { rssMb: round(kb('VmRSS') / 1024, 1), peakMb: round(kb('VmHWM') / 1024, 1) };
  } catch {
    return null;
  }
}

const loads = [load()];
const keeper = await serve(store, [], NODE_OPTIONS);
const started = memory(keeper.child.pid);
await agent(folders[0], 'latency', 50); // warm-up
const one = await agent(folders[0], 'latency', ASKS);
const eight = (await Promise.all(folders.map((d) => agent(d, 'latency', Math.ceil(ASKS / 2))))).flat();
const burstCount = ASKS * 10;
const burstMs = await agent(folders[1], 'burst', burstCount, 200);
const worked = memory(keeper.child.pid);
await keeper.stop();

// A folder that was asked 1,000,000 times this week: 1,000,000 answered lines in its answers
// file, and as many asks in the keeper's ledger (answered, past the answer window, kept for a
// week to know a replay), as a keeper leaves them. Then the same latency run there.
const long = folders[2];
const fd = openSync(join(long, 'answers.jsonl'), 'a');
const db = new Database(join(store, 'binder.db'));
const ledger = db.prepare('INSERT INTO asks (dir, id, at, answer, delivered) VALUES (?, ?, ?, NULL, 1)');
const then = Date.now() - 3_600_000;
const at = new Date(then).toISOString();
let chunk = '';
db.transaction(() => {
  for (let i = 0; i < 1_000_000; i++) {
    const id = randomUUID();
    ledger.run(long, id, then + Math.floor(i / 1000));
    chunk += `${JSON.stringify({ ask: id, at, ok: true, text: 'Added #1 to tasks in To do.' })}\n`;
    if (chunk.length > 1 << 20) { writeSync(fd, chunk); chunk = ''; }
  }
})();
db.close();
writeSync(fd, chunk);
closeSync(fd);
// Then, with the same keeper, rounds that alternate between that folder and one with a short
// answers file, so that the two are compared at the same moments.
const short = folders[3];
const again = await serve(store, [], NODE_OPTIONS);
await agent(long, 'latency', 50);
await agent(short, 'latency', 50);
const longRun = [];
const shortRun = [];
const longRatios = [];
for (let round = 0; round < 6; round++) {
  const a = await agent(long, 'latency', Math.ceil(ASKS / 6));
  const b = await agent(short, 'latency', Math.ceil(ASKS / 6));
  longRun.push(...a);
  shortRun.push(...b);
  longRatios.push(median(a) / median(b));
}
await again.stop();
loads.push(load());

const result = {
  machine: machine(),
  records: RECORDS,
  nodeOptions: NODE_OPTIONS.join(' '),
  filledMs,
  load: loads,
  one: stats(one),
  eight: stats(eight),
  burst: { asks: burstCount, ms: round(burstMs, 0), perSecond: round(burstCount / (burstMs / 1000), 0) },
  memory: { started, worked },
  longFolder: { ...stats(longRun), shortFolder: stats(shortRun), ratio: round(median(longRatios), 3) },
};
const mb = (m) => (m ? `${m.rssMb} MB resident, peak ${m.peakMb} MB` : 'not measured (no /proc)');
const lines = [
  `bench/keeper — ${result.machine}; ${RECORDS.toLocaleString('en')} records (filled in ${filledMs} ms); load ${loads.join(' → ')}${NODE_OPTIONS.length ? `; keeper's node ${NODE_OPTIONS.join(' ')}` : ''}`,
  `  1 agent:  ${describe(one)}`,
  `  8 agents: ${describe(eight)}`,
  `  burst:    ${burstCount} asks answered in ${result.burst.ms} ms = ${result.burst.perSecond} durable asks/s`,
  `  memory:   started ${mb(started)}; after the runs ${mb(worked)}`,
  `  1,000,000 answered lines in the folder, 1 agent: ${describe(longRun)}`,
  `    beside a folder with a short answers file, same rounds: ${describe(shortRun)}; ratio ${result.longFolder.ratio}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(result, null, 2)}\n`);
