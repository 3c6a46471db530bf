/**
 * Promise 1: nothing lost, nothing done twice, while the keeper is killed. Eight agent processes
 * (seven writing raw ask lines, one running `binder`) add, move and note, 1,000 asks in all, while
 * `binder serve` is killed with SIGKILL five times at random moments and started again.
 * The long run (20 kills over 10,000 asks) is test/soak/kill-soak.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { killRun } from './kill-run.js';
import { survivalDir } from './harness.js';

test('5 SIGKILLs over 1,000 asks from 8 agent processes: every ask answered once, records = adds, no note twice, integrity ok', { timeout: 150_000 }, async (t) => {
  const seed = Number(process.env.BINDER_SURVIVAL_SEED) || Date.now() % 1_000_000;
  const { figures, problems } = await killRun({
    root: survivalDir(t, 'binder-kill-'), asks: 1000, kills: 5, agents: 8, binderAgents: 1, binderAsks: 30, seed,
    say: (line) => t.diagnostic(line),
  });
  const { keeperSaid, ...shown } = figures;
  t.diagnostic(`seed ${seed}: ${JSON.stringify(shown)}`);
  if (keeperSaid.length) t.diagnostic(`the keepers said: ${keeperSaid.slice(0, 10).join(' | ')}`);
  assert.deepEqual(problems, []);
  assert.equal(figures.kills, 5);
  assert.equal(figures.answered, 1000);
  assert.equal(figures.records, figures.adds);
  assert.equal(figures.integrity, 'ok');
});
