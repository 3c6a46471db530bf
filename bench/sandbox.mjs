// bench/sandbox: what `binder sandbox` adds to an agent's start. Round after round (after a
// warm-up), each a process of its own:
//   the floor        node -e 0
//   bubblewrap       bwrap with the sandbox's mounts, around node -e 0 (the tool's own cost)
//   binder sandbox   binder sandbox -- node -e 0 (its plan, then bubblewrap)
//   binder doctor    binder doctor, in the sandbox's folder
// It prints the median of each and the cost of `binder sandbox` over the floor. Linux only.
//   node bench/sandbox.mjs [--rounds 30]
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BINDER, machine, median, option, tempDir } from './lib.mjs';

const ROUNDS = Number(option('--rounds', '30'));
if (spawnSync('bwrap', ['--ro-bind', '/', '/', 'true']).status !== 0) {
  console.log('bench/sandbox: bubblewrap is not installed here (apt install bubblewrap); nothing measured.');
  process.exit(0);
}
const work = tempDir('binder-bench-sandbox-');
mkdirSync(join(work, '.binder'));
const env = { ...process.env, HOME: work, BINDER_DIR: '' };
const mounts = ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-pid', '--unshare-ipc', '--proc', '/proc', '--tmpfs', '/tmp', '--die-with-parent', '--bind', work, work, '--chdir', work, '--'];
const runs = {
  'the floor: node -e 0': [process.execPath, ['-e', '0']],
  'bubblewrap around node -e 0': ['bwrap', [...mounts, process.execPath, '-e', '0']],
  'binder sandbox -- node -e 0': [process.execPath, [BINDER, 'sandbox', '--', process.execPath, '-e', '0']],
  'binder doctor': [process.execPath, [BINDER, 'doctor']],
};
const times = Object.fromEntries(Object.keys(runs).map((name) => [name, []]));
for (let round = -2; round < ROUNDS; round++) {
  for (const [name, [command, args]] of Object.entries(runs)) {
    const start = process.hrtime.bigint();
    spawnSync(command, args, { cwd: work, env, stdio: 'ignore' });
    if (round >= 0) times[name].push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}
console.log(`bench/sandbox: ${ROUNDS} rounds; ${JSON.stringify(machine())}`);
for (const [name, ms] of Object.entries(times)) console.log(`  ${name.padEnd(32)} ${median(ms).toFixed(1)} ms`);
const floor = median(times['the floor: node -e 0']);
console.log(`  binder sandbox adds ${(median(times['binder sandbox -- node -e 0']) - floor).toFixed(1)} ms to an agent's start (bubblewrap alone: ${(median(times['bubblewrap around node -e 0']) - floor).toFixed(1)} ms)`);
