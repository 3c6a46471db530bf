/**
 * The asking side of a wait: its ask line says how much longer than the usual window its asker
 * waits, and `binder` waits that long; `binder admin wait` blocks until another process changes
 * something the person can see.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBinder, type BinderIO } from '../../src/agent/cli.js';
import { personWho } from '../../src/keeper/keeper.js';
import { createPerform } from '../../src/keeper/perform.js';
import { waitHere } from '../../src/keeper/wait-here.js';
import { openStore } from '../../src/store/index.js';
import { binderAsync } from '../helpers/processes.js';
import { tempDir, until } from '../helpers/temp.js';
import { miniKeeper } from './mini-keeper.js';

async function run(folder: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: BinderIO = {
    out: (s) => { out += s; }, err: (s) => { err += s; },
    env: { BINDER_WAIT_MS: '400' }, cwd: folder,
  };
  const code = await runBinder(['--dir', folder, ...argv], io);
  return { code, out, err };
}

test('a wait\'s ask says how long it may be held, and binder waits that much longer than the usual window', async (t) => {
  const folder = tempDir(t);
  // This keeper answers every ask 1.2 s late: past the usual window (400 ms here), within a wait's.
  const pending: NodeJS.Timeout[] = [];
  const keeper = miniKeeper(folder, () => null);
  t.after(() => { keeper.stop(); for (const p of pending) clearTimeout(p); });
  keeper.beat();
  const late = (text: string) => {
    const ask = keeper.asks.at(-1)!;
    pending.push(setTimeout(() => appendFileSync(join(folder, 'answers.jsonl'), `${JSON.stringify({ ask: ask.id, at: new Date().toISOString(), ok: true, text })}\n`), 1200));
  };

  const waiting = run(folder, ['wait', '#12', '--timeout', '3s']);
  await until(() => keeper.asks.length === 1, 5_000, 'the wait ask');
  assert.equal(keeper.asks[0]!.op, 'wait');
  assert.equal(keeper.asks[0]!.wait, 3000, 'the line says how long it may be held');
  late('1 change since you last looked:\n#12 Dark mode: approved by Ann');
  const waited = await waiting;
  assert.equal(waited.code, 0, waited.err);
  assert.equal(waited.out, '1 change since you last looked:\n#12 Dark mode: approved by Ann\n');

  const listing = run(folder, ['lists']);
  await until(() => keeper.asks.length === 2, 5_000, 'the lists ask');
  assert.equal(keeper.asks[1]!.wait, undefined, 'an ask answered at once says nothing of waiting');
  late('1 list');
  assert.equal((await listing).code, 75, 'the same lateness is "not known" for an ask that is not held');

  const byDefault = run(folder, ['wait']);
  await until(() => keeper.asks.length === 3, 5_000, 'the second wait ask');
  assert.equal(keeper.asks[2]!.wait, 60_000, 'sixty seconds by default');
  late('Nothing changed in 60s.');
  assert.equal((await byDefault).code, 0);
});

test('a person\'s wait with no keeper (binder admin wait) wakes on a change by another connection, and times out', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const storeDir = join(root, 'store');
  const ann = personWho('Ann');
  const bea = personWho('Bea');
  const mine = openStore(storeDir);
  const other = openStore(storeDir);
  t.after(async () => { await mine.close(); await other.close(); });
  await other.createList({ template: 'batches' }, ann);
  const id = (await other.add('batches', { title: 'Dark mode' }, ann)).id;
  await mine.brief(bea);
  const perform = createPerform({ store: mine, log: () => {} });
  let done = false;
  const waiting = waitHere(mine, perform, bea, { on: 'batches', timeout: '30s' }).then((a) => { done = true; return a; });
  await Promise.resolve();
  assert.equal(done, false, 'nothing changed yet: it waits');
  await other.approve(id, true, ann);
  const answer = await waiting;
  assert.equal(answer.text, `1 change since you last looked:\n#${id} Dark mode: approved by Ann`);

  const quiet = await binderAsync(['admin', '--store', storeDir, '--as', 'Bea', 'wait', '--timeout', '1s']);
  assert.equal(quiet.code, 0, quiet.err);
  assert.equal(quiet.out, 'Nothing changed in 1s. To keep waiting: binder wait.\n');
});
