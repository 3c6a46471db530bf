// bench/instructions: the CPU work of starting each agent command, counted in instructions
// (valgrind's callgrind), against a bare `node -e 0`. Unlike a wall time, a count hardly moves
// with the machine's load, so it shows what the command itself adds to node's start-up even on
// a busy machine. It leaves out the time spent waiting for the keeper's answer (no instructions
// run then): the wall-time figures of bench/cli.mjs include it. Needs valgrind.
// A count still moves by a few per cent from run to run (V8's threads collect and compile when
// they get to it): each figure is the median of --runs runs.
//   node bench/instructions.mjs [--records 10000] [--runs 5] [--json FILE]
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fill, LIST, RARE } from './fill.mjs';
import { BINDER, BINDER_MCP, machine, median, option, round, serve, tempDir } from './lib.mjs';

const RECORDS = Number(option('--records', '10000'));
const JSON_OUT = option('--json', '');
const RUNS = Number(option('--runs', '5'));

if (spawnSync('valgrind', ['--version']).status !== 0) {
  process.stdout.write('bench/instructions: skipped (no valgrind; apt-get install valgrind)\n');
  process.exit(0);
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});

/** Instructions run by `argv` and every thread of it, start to exit. */
function instructions(argv, cwd, input) {
  const r = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', ...argv], {
    cwd, input: input ?? '', encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, BINDER_DIR: '' },
  });
  const found = /Collected : (\d+)/.exec(r.stderr);
  if (!found) throw new Error(`valgrind ${argv.join(' ')}: ${r.stderr.slice(-500)}`);
  return Number(found[1]);
}

const dir = tempDir();
const made = await fill(dir, RECORDS);
const cwd = dirname(made.folder);
const keeper = await serve(made.storeDir);
const node = process.execPath;
const commands = [
  ['node -e 0', [node, '-e', '0']],
  ['binder --version', [node, BINDER, '--version']],
  ['binder show', [node, BINDER, 'show', LIST]],
  ['binder search', [node, BINDER, 'search', RARE]],
  ['binder add', [node, BINDER, 'add', LIST, 'a record added by the bench']],
  ['binder-mcp to initialize', [node, BINDER_MCP], `${INITIALIZE}\n`],
];
// Once first, not kept: code caches written, files in the page cache.
for (const [, argv, input] of commands) instructions(argv, cwd, input);
const counts = commands.map(([name]) => ({ name, runs: [] }));
for (let r = 0; r < RUNS; r++) commands.forEach(([, argv, input], i) => counts[i].runs.push(instructions(argv, cwd, input)));
for (const c of counts) c.instructions = median(c.runs);
await keeper.stop();
const floor = counts[0].instructions;
for (const c of counts) c.toFloor = round(c.instructions / floor, 3);

process.stdout.write(`bench/instructions — ${machine()}; ${RECORDS.toLocaleString('en')} records; median of ${RUNS} runs\n`);
for (const c of counts) process.stdout.write(`  ${c.name.padEnd(26)} ${(c.instructions / 1e6).toFixed(1).padStart(8)} M instructions  ${c.toFloor}× node -e 0\n`);
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify({ machine: machine(), records: RECORDS, counts }, null, 2)}\n`);
