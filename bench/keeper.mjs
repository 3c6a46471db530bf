// bench/keeper: how fast the keeper answers. Latency from an ask appended to its answer seen
// (median, p99) with 1 and with 8 agent processes; durable asks per second when asks arrive
// together; and the same latency with 1,000,000 answered lines already in the folder.
//   node bench/keeper.mjs [--asks N]
import { execFile } from 'node:child_process';
import { mkdirSync, openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { admin, serve, tempDir, median, percentile, round, machine, ROOT } from './lib.mjs';

const run = promisify(execFile);
const arg = (name, dflt) => { const at = process.argv.indexOf(name); return at > 0 ? Number(process.argv[at + 1]) : dflt; };
const ASKS = arg('--asks', 600);
const AGENT = join(ROOT, 'bench', 'keeper-agent.mjs');

const root = tempDir();
const store = join(root, 'store');
const folders = Array.from({ length: 8 }, (_, i) => join(root, `agent${i}`, '.binder'));
admin(store, 'create-list', 'Bench', '--template', 'blank');
folders.forEach((dir, i) => {
  mkdirSync(dir, { recursive: true });
  admin(store, 'side', 'add', dir, `Agent ${i}`);
  admin(store, 'grant', 'bench', `Agent ${i}`, 'write');
});

const agent = async (dir, mode, count, batch) => JSON.parse((await run(process.execPath, [AGENT, dir, mode, String(count), String(batch ?? '')], { maxBuffer: 1 << 26 })).stdout);
const describe = (xs) => `median ${round(median(xs))} ms, p99 ${round(percentile(xs, 99))} ms (${xs.length} asks)`;

const keeper = await serve(store);
await agent(folders[0], 'latency', 50); // warm-up
const one = await agent(folders[0], 'latency', ASKS);
const eight = (await Promise.all(folders.map((d) => agent(d, 'latency', Math.ceil(ASKS / 2))))).flat();
const burstCount = ASKS * 10;
const burstMs = await agent(folders[1], 'burst', burstCount, 200);
await keeper.stop();

// 1,000,000 answered lines in one folder's answers file, then the same latency run there.
const long = folders[2];
const fd = openSync(join(long, 'answers.jsonl'), 'a');
const at = new Date().toISOString();
let chunk = '';
for (let i = 0; i < 1_000_000; i++) {
  chunk += `${JSON.stringify({ ask: randomUUID(), at, ok: true, text: 'Added #1 to bench in Open.' })}\n`;
  if (chunk.length > 1 << 20) { writeSync(fd, chunk); chunk = ''; }
}
writeSync(fd, chunk);
closeSync(fd);
const again = await serve(store);
await agent(long, 'latency', 50);
const longRun = await agent(long, 'latency', ASKS);
await again.stop();

const lines = [
  `machine: ${machine()}`,
  `1 agent:  ${describe(one)}`,
  `8 agents: ${describe(eight)}`,
  `burst:    ${burstCount} asks answered in ${round(burstMs, 0)} ms = ${round(burstCount / (burstMs / 1000), 0)} durable asks/s`,
  `1,000,000 answered lines in the folder, 1 agent: ${describe(longRun)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
