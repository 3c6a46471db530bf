// bench/cli: what an agent waits for, against Taskwarrior and against node's own start-up.
// At each size a binder of N records (bench/fill) is kept by `binder serve --no-tui`, and a
// Taskwarrior is filled with the same records by its own `task import`, in a temporary
// TASKRC/TASKDATA. Then, round after round (A B C … A B C …, after a warm-up):
//   the floor        node -e 0
//   the command      binder show / search / add, one process per call
//   the peer         task list, task limit:50 list, task /word/ list, task add
//   MCP              one binder-mcp process, show / search / add called through the SDK client
// Each figure is the median over rounds; each ratio is taken within a round, then its median.
// It prints a table per size, and with --json FILE writes every figure there.
// With --before DIST_BIN (an earlier build's dist/bin/binder.js, built in a checkout of its own):
// only this build beside that one, each with its own keeper, store (filled by its own
// bench/fill.mjs) and binder-mcp: the MCP calls in a stream and the commands, in rounds that
// alternate the two builds (which goes first, too); each ratio now/before is taken within a round.
//   node bench/cli.mjs [--sizes 1000,10000,100000] [--rounds 30] [--json FILE] [--before DIST_BIN [--calls 10]]
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fill, LIST, RARE } from './fill.mjs';
import { BINDER, BINDER_MCP, interleaveRound, load, machine, median, medianRatio, option, percentile, round, serve, tempDir } from './lib.mjs';

const BEFORE = option('--before', '');

const SIZES = option('--sizes', '1000,10000,100000').split(',').map(Number);
const ROUNDS = Number(option('--rounds', '30'));
const JSON_OUT = option('--json', '');
const MCP_CALLS = 5; // per operation per round: a call is short beside a round of processes
const MCP_OPS = ['show', 'search', 'add', 'get'];
/** Calls of each operation in the steady stream after the rounds. */
const STEADY_CALLS = 100;

/** A Taskwarrior of its own in `dir`, filled from `file` by `task import`. Returns its env. */
function taskwarrior(dir, file) {
  const rc = join(dir, 'taskrc');
  const data = join(dir, 'task');
  // Only what a script needs to run it unattended: no questions, no hooks, no release news.
  writeFileSync(rc, `data.location=${data}\nconfirmation=off\nhooks=off\nnews.version=2.6.0\n`);
  const env = { ...process.env, TASKRC: rc, TASKDATA: data };
  const r = spawnSync('task', ['import', file], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`task import: ${r.stderr}`);
  return env;
}

async function mcpSession(cwd, bin = BINDER_MCP) {
  const env = { ...process.env };
  delete env.BINDER_DIR;
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin], cwd, env, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return client;
}

async function timeCall(client, name, args) {
  const t0 = process.hrtime.bigint();
  const result = await client.callTool({ name, arguments: args });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (result.isError) throw new Error(`MCP ${name}: ${result.content?.[0]?.text}`);
  return ms;
}

/** The MCP calls timed; get of one record is an ask with next to no work, the floor of a call through the folder. */
const mcpCalls = (title) => [['show', { list: LIST }], ['search', { text: RARE }], ['add', { list: LIST, title }], ['get', { id: '1' }]];

/** Per-call MCP figures are taken between the process rounds, so they share the machine's moment. */
async function mcpRound(client, times, title) {
  for (const [name, args] of mcpCalls(title)) {
    const calls = [];
    for (let i = 0; i < MCP_CALLS; i++) calls.push(await timeCall(client, name, args));
    times[`mcp ${name}`].push(median(calls));
  }
}

async function atSize(n) {
  const dir = tempDir();
  const t0 = performance.now();
  const made = await fill(dir, n);
  const taskEnv = taskwarrior(dir, made.taskImport);
  const filledMs = performance.now() - t0;
  const cwd = dirname(made.folder);
  const binderEnv = { ...process.env };
  delete binderEnv.BINDER_DIR;
  const keeper = await serve(made.storeDir);
  const client = await mcpSession(cwd);
  const node = process.execPath;
  const b = (name, ...args) => ({ name, argv: [node, BINDER, ...args], cwd, env: binderEnv });
  const t = (name, ...args) => ({ name, argv: ['task', ...args], cwd, env: taskEnv });
  const commands = [
    { name: 'node -e 0', argv: [node, '-e', '0'], cwd },
    b('binder show', 'show', LIST),
    t('task list', 'list'),
    b('binder search', 'search', RARE),
    t('task /word/ list', `/${RARE}/`, 'list'),
    b('binder add', 'add', LIST, 'a record added by the bench'),
    t('task add', 'add', 'a task added by the bench'),
    t('task limit:50 list', 'limit:50', 'list'),
  ];
  const times = Object.fromEntries([...commands.map((c) => [c.name, []]), ...MCP_OPS.map((o) => [`mcp ${o}`, []])]);
  const loads = [load()];
  for (let r = 0; r < 3 + ROUNDS; r++) {
    const one = interleaveRound(commands);
    await mcpRound(client, times, `a record added through MCP ${r}`);
    if (r < 3) {
      for (const k of Object.keys(times)) times[k].length = 0; // the warm-up rounds are not kept
      continue;
    }
    for (const [name, ms] of Object.entries(one)) times[name].push(ms);
  }
  // The same calls in a steady stream, as an agent's session makes them: after the rounds, 10
  // not kept, then STEADY_CALLS of each operation in turn.
  const steady = Object.fromEntries(MCP_OPS.map((o) => [o, []]));
  for (let i = 0; i < 10 + STEADY_CALLS; i++) {
    for (const [name, args] of mcpCalls(`a record added in a stream ${i}`)) {
      const ms = await timeCall(client, name, args);
      if (i >= 10) steady[name].push(ms);
    }
  }
  loads.push(load());
  await client.close();
  await keeper.stop();

  const floor = times['node -e 0'];
  const ratios = (name) => times[name].map((ms, i) => ms / floor[i]);
  const row = (name, peer) => ({
    name,
    ms: round(median(times[name])),
    toFloor: round(medianRatio(times[name], floor), 3),
    // How the ratio spread over the rounds: the middle half of them lay between these.
    toFloorMiddleHalf: [round(percentile(ratios(name), 25), 3), round(percentile(ratios(name), 75), 3)],
    ...(peer ? { peer, peerMs: round(median(times[peer])), toPeer: round(medianRatio(times[name], times[peer]), 3) } : {}),
  });
  return {
    records: n,
    filledMs: Math.round(filledMs),
    rounds: ROUNDS,
    load: loads,
    floorMs: round(median(floor)),
    command: [row('binder show', 'task list'), row('binder search', 'task /word/ list'), row('binder add', 'task add')],
    peer: [row('task list'), row('task limit:50 list'), row('task /word/ list'), row('task add')],
    mcp: MCP_OPS.map((o) => {
      const peer = { show: 'task list', search: 'task /word/ list', add: 'task add' }[o];
      return {
        name: `mcp ${o}`,
        ms: round(median(times[`mcp ${o}`])),
        steadyMs: round(median(steady[o])),
        steadyP90Ms: round(percentile(steady[o], 90)),
        ...(peer ? { peer, toPeer: round(medianRatio(times[`mcp ${o}`], times[peer]), 4) } : {}),
      };
    }),
  };
}

/** Calls of each operation, per build and per round, in the stream beside the earlier build. */
// --calls: MCP calls of each operation a round beside the earlier build (a longer stream, a steadier median).
const BESIDE_CALLS = Number(option('--calls', '10'));

/** One build's keeper, store, folder and binder-mcp, filled by that build's own bench/fill.mjs. */
async function buildAt(bin, n) {
  const root = resolve(dirname(bin), '..', '..');
  const { fill: fillOf } = await import(pathToFileURL(join(root, 'bench', 'fill.mjs')).href);
  const dir = tempDir();
  const made = await fillOf(dir, n);
  const keeper = await serve(made.storeDir, [], [], bin);
  const cwd = dirname(made.folder);
  const client = await mcpSession(cwd, join(dirname(bin), 'binder-mcp.js'));
  return { bin, cwd, keeper, client };
}

/** This build beside the one at BEFORE: MCP calls in a stream and commands, rounds alternating. */
async function besideAt(n) {
  const builds = { before: await buildAt(BEFORE, n), now: await buildAt(BINDER, n) };
  const env = { ...process.env };
  delete env.BINDER_DIR;
  const names = ['before', 'now'];
  const commands = (order) => order.flatMap((build) => ['show', 'search', 'add'].map((verb) => ({
    name: `${build} binder ${verb}`,
    argv: [process.execPath, builds[build].bin, verb, ...(verb === 'show' ? [LIST] : verb === 'search' ? [RARE] : [LIST, 'a record added by the bench'])],
    cwd: builds[build].cwd,
    env,
  })));
  const times = {};
  const push = (key, ms) => (times[key] ??= []).push(ms);
  const loads = [load()];
  for (let r = 0; r < 3 + ROUNDS; r++) {
    const order = r % 2 ? [...names].reverse() : names;
    const one = interleaveRound(commands(order));
    const calls = {};
    for (const [name, args] of mcpCalls(`a record added beside the earlier build ${r}`)) {
      for (const build of order) {
        const ms = [];
        for (let i = 0; i < BESIDE_CALLS; i++) ms.push(await timeCall(builds[build].client, name, args));
        calls[`${build} mcp ${name}`] = median(ms);
      }
    }
    if (r < 3) continue; // the warm-up rounds are not kept
    for (const [key, ms] of Object.entries({ ...one, ...calls })) push(key, ms);
  }
  loads.push(load());
  for (const build of Object.values(builds)) {
    await build.client.close();
    await build.keeper.stop();
  }
  const row = (what) => ({
    name: what,
    beforeMs: round(median(times[`before ${what}`])),
    nowMs: round(median(times[`now ${what}`])),
    ratio: round(medianRatio(times[`now ${what}`], times[`before ${what}`]), 3),
    // How the ratio spread over the rounds: the middle half of them lay between these.
    middleHalf: [25, 75].map((p) => round(percentile(times[`now ${what}`].map((ms, i) => ms / times[`before ${what}`][i]), p), 3)),
  });
  return {
    records: n,
    before: BEFORE,
    rounds: ROUNDS,
    callsPerRound: BESIDE_CALLS,
    load: loads,
    mcp: MCP_OPS.map((o) => row(`mcp ${o}`)),
    command: ['show', 'search', 'add'].map((v) => row(`binder ${v}`)),
  };
}

const results = { machine: machine(), sizes: [] };
if (BEFORE) {
  process.stdout.write(`bench/cli — ${results.machine}; beside ${BEFORE}; ${ROUNDS} rounds after 3 of warm-up, the builds in turn\n`);
  for (const n of SIZES) {
    const at = await besideAt(n);
    results.sizes.push(at);
    const lines = [
      `\n${n.toLocaleString('en')} records (load ${at.load.join(' → ')}): median per call in a stream of ${BESIDE_CALLS} a round; now/before, median of the rounds' ratios (middle half)`,
      ...[...at.mcp, ...at.command].map((c) => `  ${c.name.padEnd(16)} before ${String(c.beforeMs).padStart(7)} ms  now ${String(c.nowMs).padStart(7)} ms  ${String(c.ratio).padStart(6)}× (${c.middleHalf.join('–')})`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(results, null, 2)}\n`);
  process.exit(0);
}
process.stdout.write(`bench/cli — ${results.machine}; ${ROUNDS} rounds after 3 of warm-up\n`);
for (const n of SIZES) {
  const at = await atSize(n);
  results.sizes.push(at);
  const lines = [
    `\n${n.toLocaleString('en')} records (filled in ${at.filledMs} ms; load ${at.load.join(' → ')}); node -e 0: ${at.floorMs} ms`,
    ...at.command.map((c) => `  ${c.name.padEnd(16)} ${String(c.ms).padStart(8)} ms  ${String(c.toFloor).padStart(6)}× node -e 0 (middle half ${c.toFloorMiddleHalf.join('–')})   ${String(c.toPeer).padStart(6)}× ${c.peer} (${c.peerMs} ms)`),
    ...at.peer.map((c) => `  ${c.name.padEnd(18)} ${String(c.ms).padStart(6)} ms  ${String(c.toFloor).padStart(6)}× node -e 0`),
    ...at.mcp.map((c) => `  ${c.name.padEnd(16)} ${String(c.ms).padStart(8)} ms per call between the rounds; ${c.steadyMs} ms (p90 ${c.steadyP90Ms}) in a stream   ${c.peer ? `${String(c.toPeer).padStart(6)}× ${c.peer}` : '(the floor: one record read)'}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(results, null, 2)}\n`);
