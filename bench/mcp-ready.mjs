// bench/mcp-ready: how long `binder-mcp` takes to be ready, from its spawn to its answer to the
// client's `initialize`, round after round beside a bare `node -e 0` spawned and waited for the
// same way. Also the size of its tools/list answer (it sits in every agent's context).
//   node bench/mcp-ready.mjs [--rounds 30] [--json FILE]
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { BINDER_MCP, load, machine, median, medianRatio, option, percentile, round, tempDir } from './lib.mjs';

const ROUNDS = Number(option('--rounds', '30'));
const JSON_OUT = option('--json', '');

const INITIALIZE = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
};
const TOOLS = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

/** Spawns `argv`; resolves with ms until `ready(stdout so far)` says so (or the exit), and the output. */
function timed(argv, { input = [], ready = () => false, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    let ms = null;
    const stop = () => {
      if (ms === null) ms = Number(process.hrtime.bigint() - t0) / 1e6;
      child.stdin.end();
    };
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (ms === null && ready(out)) stop();
    });
    child.on('error', reject);
    child.on('exit', () => {
      if (ms === null) ms = Number(process.hrtime.bigint() - t0) / 1e6;
      resolve({ ms, out });
    });
    for (const line of input) child.stdin.write(`${JSON.stringify(line)}\n`);
    if (input.length === 0) child.stdin.end();
  });
}

const cwd = tempDir();
const mcp = () => timed([process.execPath, BINDER_MCP], { cwd, input: [INITIALIZE], ready: (out) => out.includes('"id":1') });
const floor = () => timed([process.execPath, '-e', '0'], { cwd });

const times = { floor: [], ready: [] };
const loads = [load()];
for (let r = 0; r < 3 + ROUNDS; r++) {
  const a = await floor();
  const b = await mcp();
  if (r >= 3) {
    times.floor.push(a.ms);
    times.ready.push(b.ms);
  }
}
loads.push(load());

const listed = await timed([process.execPath, BINDER_MCP], {
  cwd,
  input: [INITIALIZE, { jsonrpc: '2.0', method: 'notifications/initialized' }, TOOLS],
  ready: (out) => out.includes('"id":2'),
});
const answer = listed.out.split('\n').map((line) => { try { return JSON.parse(line); } catch { return null; } }).find((m) => m?.id === 2);
const toolsBytes = Buffer.byteLength(JSON.stringify(answer?.result ?? null));

const result = {
  machine: machine(),
  rounds: ROUNDS,
  load: loads,
  floorMs: round(median(times.floor)),
  readyMs: round(median(times.ready)),
  readyP90Ms: round(percentile(times.ready, 90)),
  toFloor: round(medianRatio(times.ready, times.floor), 3),
  tools: answer?.result?.tools?.length ?? 0,
  toolsListBytes: toolsBytes,
};
process.stdout.write([
  `bench/mcp-ready — ${result.machine}; ${ROUNDS} rounds after 3 of warm-up; load ${loads.join(' → ')}`,
  `  node -e 0                ${result.floorMs} ms`,
  `  binder-mcp ready         ${result.readyMs} ms (p90 ${result.readyP90Ms} ms), ${result.toFloor}× node -e 0`,
  `  tools/list answer        ${result.toolsListBytes} bytes, ${result.tools} tools`,
].join('\n') + '\n');
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(result, null, 2)}\n`);
