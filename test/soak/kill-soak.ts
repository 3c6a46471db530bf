/**
 * The long run of promise 1, by hand (not in the suite): `npm run build`, then
 * `node build/test/soak/kill-soak.js [asks] [kills]` (10,000 and 20 unless told). Eight agent
 * processes ask while `binder serve` is killed with SIGKILL at random moments and started again;
 * it prints the figures as JSON and exits 1 if any promise broke. Seed: BINDER_SURVIVAL_SEED.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killRun } from '../survival/kill-run.js';
import { killAll } from '../survival/harness.js';

const asks = Number(process.argv[2]) || 10_000;
const kills = Number(process.argv[3]) || 20;
const seed = Number(process.env.BINDER_SURVIVAL_SEED) || Date.now() % 1_000_000;
const root = mkdtempSync(join(tmpdir(), 'binder-soak-'));
try {
  const { figures, problems } = await killRun({
    root, asks, kills, agents: 8, binderAgents: 1, binderAsks: Math.max(1, Math.round(asks * 0.03)), seed,
    say: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${JSON.stringify({ seed, ...figures }, null, 1)}\n`);
  for (const problem of problems) process.stderr.write(`PROBLEM: ${problem}\n`);
  process.exitCode = problems.length ? 1 : 0;
} finally {
  await killAll();
  rmSync(root, { recursive: true, force: true });
}
