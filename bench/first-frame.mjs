#!/usr/bin/env node
// A benchmark, not a test (it asserts nothing): how soon `binder tui` shows its first frame in a
// real terminal. Each command is started in a fresh 120×40 tmux pane (a shell there waits for
// Enter, so tmux and the shell are already up), the pane's output is piped to a file watched for
// the board's `#1 `, and the time is taken from the Enter to that text reaching the terminal:
// nothing polls tmux meanwhile, which on a small machine would take the processor from the
// command it waits for. Each command also says, from inside, when its first frame was written
// (ms from its process's start, and the processor time used by then). Node alone printing `#1 `
// is run the same way in every round, for scale; rounds run the commands in turn (A B C A B C…)
// after two not kept, and each ratio is taken within its round.
//   npm run build && node bench/first-frame.mjs [--rounds 10] [--records 10000] [--before DIST_BIN]
// --before: another build's dist/bin/binder.js (or its dist/bin), say of an earlier commit, measured
// in the same rounds on a store filled by that checkout's own bench/fill.mjs: a store of one build
// need not open in the other.
// Needs tmux. Writes only in a temporary folder, removed at the end.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const ROUNDS = Number(option('--rounds', '10'));
const RECORDS = Number(option('--records', '10000'));
const BEFORE_OPTION = option('--before', '');
const BEFORE = BEFORE_OPTION.endsWith('.js') ? dirname(BEFORE_OPTION) : BEFORE_OPTION;

if (spawnSync('tmux', ['-V']).status !== 0) {
  process.stdout.write('first-frame: needs tmux\n');
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'binder-first-frame-'));
const socket = `binder-first-frame-${process.pid}`;
const tmux = (...args) => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs) => {
  const s = [...xs].filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

try {
  const fillWith = async (checkout, into) => (await import(pathToFileURL(join(checkout, 'bench', 'fill.mjs')).href)).fill(join(dir, into), RECORDS);
  const made = await fillWith(root, 'binder');
  const madeBefore = BEFORE ? await fillWith(join(BEFORE, '..', '..'), 'binder-before') : null;
  const work = join(dir, 'work');
  mkdirSync(work);

  // Said from inside each command: ms from its process's start to its first write holding `#1 `, and processor ms by then.
  const said = join(dir, 'said.cjs');
  writeFileSync(said, `const { appendFileSync } = require('node:fs');
const write = process.stdout.write;
let said = false;
process.stdout.write = function (chunk, ...rest) {
  const done = write.call(this, chunk, ...rest);
  if (!said && String(chunk).includes('#1 ')) {
    said = true;
    const used = process.cpuUsage();
    appendFileSync(process.env.FIRST_FRAME_FILE, \`\${performance.now()} \${(used.user + used.system) / 1000}\\n\`);
  }
  return done;
};
`);
  const screen = (bin, store = made) => `cd ${quote(work)} && env -u CI ${quote(process.execPath)} -r ${quote(said)} ${quote(join(bin, 'binder.js'))} tui --store ${quote(store.storeDir)} --side ${quote(join(work, '.binder'))}=Agent`;
  const commands = [
    ['node alone', `${quote(process.execPath)} -r ${quote(said)} -e "process.stdout.write('#1 x')"; sleep 5`],
    ...(madeBefore ? [['before', screen(BEFORE, madeBefore)]] : []),
    ['binder tui', screen(join(root, 'dist', 'bin'))],
  ];

  tmux('new-session', '-d', '-x', '120', '-y', '40', '-s', 'keep', 'sleep 100000');
  const seen = Object.fromEntries(commands.map(([name]) => [name, []]));
  const inside = Object.fromEntries(commands.map(([name]) => [name, []]));
  for (let round = -2; round < ROUNDS; round++) {
    for (const [name, command] of commands) {
      const pane = `r${round + 2}-${name.replace(/\W/g, '')}`;
      const out = join(dir, `${pane}.out`);
      const saidFile = join(dir, `${pane}.said`);
      writeFileSync(out, '');
      writeFileSync(saidFile, '');
      tmux('new-session', '-d', '-x', '120', '-y', '40', '-s', pane, `FIRST_FRAME_FILE=${quote(saidFile)} sh -c ${quote(`read go; ${command}`)}`);
      tmux('pipe-pane', '-t', pane, `cat >> ${quote(out)}`);
      await sleep(300);
      let watcher;
      const shown = new Promise((resolve) => {
        watcher = watch(out, () => {
          if (readFileSync(out, 'latin1').includes('#1 ')) resolve(performance.now());
        });
      });
      const started = performance.now();
      tmux('send-keys', '-t', pane, 'Enter');
      const at = await Promise.race([shown, sleep(20_000).then(() => NaN)]);
      watcher.close();
      if (Number.isNaN(at)) process.stderr.write(`first-frame: ${name} showed no #1 within 20 s:\n${tmux('capture-pane', '-p', '-t', pane).stdout}\n`);
      await sleep(300);
      tmux('send-keys', '-t', pane, 'q');
      await sleep(300);
      tmux('kill-session', '-t', pane);
      if (round < 0) continue;
      seen[name].push(at - started);
      const [ms, cpu] = readFileSync(saidFile, 'utf8').trim().split(' ').map(Number);
      inside[name].push({ ms, cpu });
    }
  }

  const floor = commands[0][0];
  const load = spawnSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).stdout.trim().split(' ').slice(0, 3).join(' ');
  console.log(`first-frame: ${RECORDS} records, ${ROUNDS} rounds, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${load}`);
  console.log('what'.padEnd(12), 'on screen (median ms)', 'ratio to node alone', '| its first frame written, from its start (ms)', 'processor (ms)');
  for (const [name] of commands) {
    const ratio = median(seen[name].map((t, i) => t / seen[floor][i]));
    console.log(name.padEnd(12), String(Math.round(median(seen[name]))).padStart(21), ratio.toFixed(2).padStart(19),
      '|', String(Math.round(median(inside[name].map((s) => s.ms)))).padStart(44), String(Math.round(median(inside[name].map((s) => s.cpu)))).padStart(14));
  }
} finally {
  tmux('kill-server');
  rmSync(dir, { recursive: true, force: true });
}
