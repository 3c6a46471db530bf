// bench/person-start: how long a person's short commands take, spawn to exit — `binder admin`
// reading a record, the lists, and `binder completion bash` — beside a bare `node -e 0`, round
// after round. These load the keeper's bundle (SQLite, zod, the catalog), which the agent's
// `binder` never does; the tests run `binder admin` hundreds of times too.
// With --before DIST_BIN (an earlier build's dist/bin/binder.js), the same commands of that build
// run in the same rounds, on a binder of their own made alike; which build goes first alternates.
//   node bench/person-start.mjs [--records 20] [--rounds 30] [--before DIST_BIN] [--json FILE]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BINDER, adminOf, interleaveRound, load, machine, median, medianRatio, option, percentile, round, tempDir } from './lib.mjs';

const RECORDS = Number(option('--records', '20'));
const ROUNDS = Number(option('--rounds', '30'));
const BEFORE = option('--before', '');
const JSON_OUT = option('--json', '');

/** A binder of `RECORDS` records in one list, made by `bin`'s own `binder admin`. */
function filled(bin) {
  const store = join(tempDir(), 'store');
  adminOf(bin, store, 'create-list', 'Tasks', '--template', 'batches');
  for (let i = 0; i < RECORDS; i++) adminOf(bin, store, 'add', 'tasks', `Task ${i + 1}`);
  return store;
}

const floorCommand = { name: 'node -e 0', argv: [process.execPath, '-e', '0'] };
const perBuild = [['now', BINDER], ...(BEFORE ? [['before', BEFORE]] : [])].map(([name, bin]) => {
  const store = filled(bin);
  const admin = (...args) => [process.execPath, bin, 'admin', '--store', store, '--as', 'bench', ...args];
  return [
    { name: `${name}: binder admin get`, argv: admin('--json', 'get', '1') },
    { name: `${name}: binder admin lists`, argv: admin('lists') },
    { name: `${name}: binder completion bash`, argv: [process.execPath, bin, 'completion', 'bash'] },
  ];
});
const commands = [floorCommand, ...perBuild.flat()];

process.stdout.write(`bench/person-start on ${machine()}; load ${load()}; ${RECORDS} records, ${ROUNDS} rounds\n`);
// Rounds in turn, 3 of warm-up not kept; the builds' order reversed every other round.
const times = Object.fromEntries(commands.map((c) => [c.name, []]));
for (let r = 0; r < 3 + ROUNDS; r++) {
  const one = interleaveRound([floorCommand, ...(r % 2 ? [...perBuild].reverse() : perBuild).flat()]);
  if (r >= 3) for (const [name, ms] of Object.entries(one)) times[name].push(ms);
}
const floor = times['node -e 0'];
process.stdout.write('| command | median | / node -e 0 |' + (BEFORE ? ' now / before |' : '') + '\n|---|---|---|' + (BEFORE ? '---|' : '') + '\n');
const rows = [];
for (const { name } of commands) {
  const [build, what] = name.includes(': ') ? name.split(': ') : ['', name];
  const then = build === 'now' && BEFORE ? times[`before: ${what}`] : null;
  const ratios = then ? times[name].map((x, i) => x / then[i]) : null;
  const row = {
    name, ms: round(median(times[name]), 1), perNode: round(medianRatio(times[name], floor)),
    ...(ratios ? { nowPerBefore: round(median(ratios)), middleHalf: [round(percentile(ratios, 25)), round(percentile(ratios, 75))] } : {}),
  };
  rows.push(row);
  const beside = row.nowPerBefore ? `${row.nowPerBefore}× (${row.middleHalf[0]}–${row.middleHalf[1]})` : '';
  process.stdout.write(`| ${name} | ${row.ms} ms | ${row.perNode}× |${BEFORE ? ` ${beside} |` : ''}\n`);
}
process.stdout.write(`load after: ${load()}\n`);
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ machine: machine(), records: RECORDS, rounds: ROUNDS, rows }, null, 2));
