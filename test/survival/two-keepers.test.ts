/**
 * Promise 3: two keepers on one store. Two `binder serve --no-tui` processes read the same
 * folders while agent processes ask; one of them is killed with SIGKILL (its asks done but not
 * answered are answered by the other) and started again. Each ask is done once, answered once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { killRun } from './kill-run.js';
import { survivalDir } from './harness.js';

test('two binder serve on one store, one killed twice: each ask done once and answered once', { timeout: 150_000 }, async (t) => {
  const seed = Number(process.env.BINDER_SURVIVAL_SEED) || Date.now() % 1_000_000;
  const { figures, problems } = await killRun({
    root: survivalDir(t, 'binder-two-'), asks: 500, kills: 2, keepers: 2, agents: 5, binderAgents: 1, binderAsks: 15, seed,
    say: (line) => t.diagnostic(line),
  });
  const { keeperSaid, ...shown } = figures;
  t.diagnostic(`seed ${seed}: ${JSON.stringify(shown)}`);
  if (keeperSaid.length) t.diagnostic(`the keepers said: ${keeperSaid.slice(0, 10).join(' | ')}`);
  assert.deepEqual(problems, []);
  assert.equal(figures.answered, 500);
  assert.ok(figures.answeredBy.every((n) => n > 0), `both keepers answered asks: ${figures.answeredBy.join(', ')}`);
});
