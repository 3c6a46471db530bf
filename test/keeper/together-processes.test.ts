/**
 * Agents working together as real processes against `binder serve --no-tui`: eight `binder`
 * commands racing with `take --next` for the same hundred records take each exactly once, and
 * racing for one record by its number, one wins; a wait held by a keeper killed with SIGKILL is
 * answered by the next keeper, once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { openStore } from '../../src/store/index.js';
import { personWho } from '../../src/keeper/keeper.js';
import { binderAsync, serveKeeper, type Serving } from '../helpers/processes.js';
import { until, inOrder } from '../helpers/temp.js';

const ann = personWho('Ann');

/** A temporary folder removed only once the keepers started in it are stopped. */
function folderWithKeepers(t: TestContext, prefix: string): { root: string; keepers: Serving[] } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const keepers: Serving[] = [];
  t.after(async () => {
    for (const keeper of keepers) await keeper.stop();
    rmSync(root, { recursive: true, force: true });
  });
  return { root, keepers };
}

test('8 agent processes race with take --next for the same 100 records: every record is taken exactly once', { timeout: 300_000 }, async (t) => {
  const { root, keepers } = folderWithKeepers(t, 'binder-race-');
  const storeDir = join(root, 'store');
  const store = openStore(storeDir);
  t.after(() => store.close());
  await store.createList({ template: 'batches' }, ann);
  const dirs = await inOrder(Array.from({ length: 8 }, (_, i) => i), async (_, i) => {
    const dir = join(root, `agent${i}`, '.binder');
    mkdirSync(dir, { recursive: true });
    await store.addSide(dir, `Agent ${i}`, ann);
    await store.grant('batches', `Agent ${i}`, 'write', ann);
    return dir;
  });
  const ids: number[] = [];
  await store.transaction(async (tx) => {
    for (let i = 0; i < 100; i++) {
      const id = (await tx.add('batches', { title: `batch ${i}` }, ann)).id;
      await tx.approve(id, true, ann);
      ids.push(id);
    }
  });
  keepers.push(await serveKeeper(t, ['--store', storeDir, '--quiet']));

  const loop = async (dir: string): Promise<number[]> => {
    const taken: number[] = [];
    for (;;) {
      const run = await binderAsync(['take', '--next', 'Batches'], { env: { BINDER_DIR: dir, BINDER_WAIT_MS: '30000' } });
      if (run.code === 1) {
        assert.match(run.err, /Nothing in Batches is ready for you now/);
        return taken;
      }
      assert.equal(run.code, 0, run.err);
      const id = /^You hold #(\d+) /.exec(run.out);
      assert.ok(id, run.out);
      taken.push(Number(id[1]));
    }
  };
  const started = Date.now();
  const byAgent = await Promise.all(dirs.map(loop));
  t.diagnostic(`100 records taken by 8 processes in ${Date.now() - started} ms; per agent: ${byAgent.map((l) => l.length).join(', ')}`);
  const all = byAgent.flat().sort((a, b) => a - b);
  assert.deepEqual(all, ids, 'each record once, none twice, none left');
  assert.ok(byAgent.filter((l) => l.length > 0).length > 1, 'more than one agent won records');
  // The store agrees: each record has one owner, the agent that was told it won it.
  byAgent.forEach(async (taken, i) => {
    for (const id of taken) assert.deepEqual((await store.get(id, ann)).record.owners, [`agent:agent-${i}`]);
  });
  const takes = store.db.prepare("SELECT count(*) FROM log WHERE op = 'take'").pluck().get();
  assert.equal(takes, 100);

  // All eight at once for one record by its number: one wins, seven are told who holds it and until when.
  const one = (await store.add('batches', { title: 'the last one' }, ann)).id;
  const runs = await Promise.all(dirs.map((dir) => binderAsync(['take', String(one)], { env: { BINDER_DIR: dir, BINDER_WAIT_MS: '30000' } })));
  const won = runs.filter((r) => r.code === 0);
  assert.equal(won.length, 1, runs.map((r) => r.out + r.err).join('\n'));
  const winner = (await store.get(one, ann)).record.lease!.by.name;
  for (const lost of runs.filter((r) => r.code !== 0)) {
    assert.equal(lost.code, 1);
    assert.match(lost.err, new RegExp(`^Not done: #${one} is taken by ${winner} until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC \\(in 30 min\\)`));
  }
});

test('a wait held by a keeper killed with SIGKILL is answered by the next keeper, once, with what changed meanwhile', { timeout: 120_000 }, async (t) => {
  const { root, keepers } = folderWithKeepers(t, 'binder-restart-');
  const storeDir = join(root, 'store');
  const dir = join(root, 'agent', '.binder');
  mkdirSync(dir, { recursive: true });
  const store = openStore(storeDir);
  t.after(() => store.close());
  await store.createList({ template: 'batches' }, ann);
  await store.addSide(dir, 'Claude', ann);
  await store.grant('batches', 'Claude', 'write', ann);
  const id = (await store.add('batches', { title: 'Dark mode' }, ann)).id;
  await store.brief({ id: 'agent:claude', kind: 'agent', name: 'Claude' });

  const first = await serveKeeper(t, ['--store', storeDir, '--quiet']);
  keepers.push(first);
  const waiting = binderAsync(['wait', String(id), '--timeout', '60s'], { env: { BINDER_DIR: dir } });
  const held = () => store.db.prepare('SELECT count(*) FROM waits').pluck().get() as number;
  await until(() => held() === 1, 15_000, 'the keeper to hold the wait');
  first.child.kill('SIGKILL');
  await until(() => first.child.exitCode !== null || first.child.signalCode !== null, 10_000, 'the keeper to die');

  await store.approve(id, true, ann);
  keepers.push(await serveKeeper(t, ['--store', storeDir, '--quiet']));
  const run = await waiting;
  assert.equal(run.code, 0, run.err);
  assert.equal(run.out, `1 change since you last looked:\n#${id} Dark mode: approved by Ann\n`);
  assert.equal(held(), 0);
  const answers = readFileSync(join(dir, 'answers.jsonl'), 'utf8').split('\n').filter((line) => line.includes('approved by Ann'));
  assert.equal(answers.length, 1, 'answered once');
});
