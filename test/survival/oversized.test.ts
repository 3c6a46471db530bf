/**
 * An ask too long for a keeper, and an answers file no answer could come through, against a real
 * `binder serve`: `binder` refuses the long ask at once (exit 64, its size and the limit), the
 * keeper refuses a long line written by another client by the id at its start (its asker is not
 * left waiting for nobody), and `binder` exits 2 at once where answers.jsonl is a link or a
 * directory. Nothing is done.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binderAsync } from '../helpers/processes.js';
import { ANSWERS_FILE, ASKS_FILE, LINE_MAX } from '../../src/keeper/protocol.js';
import { answerTo, count, makeBinder, startKeeper, survivalDir } from './harness.js';

test('an oversized ask is refused at once by binder and by the keeper; an answers file that is a link or a directory makes binder exit 2 at once', { timeout: 90_000 }, async (t) => {
  const root = survivalDir(t, 'binder-oversized-');
  const { storeDir, store, dirs } = await makeBinder(root, 1);
  t.after(() => store.close());
  const dir = dirs[0]!;
  const keeper = await startKeeper(storeDir);
  const asks = () => readFileSync(join(dir, ASKS_FILE), 'utf8');
  const env = { BINDER_WAIT_MS: '600000' };

  assert.equal((await binderAsync(['add', 'Tasks', 'First', '--dir', dir])).code, 0);
  const before = asks();
  const long = await binderAsync(['add', 'Tasks', 'y'.repeat(LINE_MAX), '--dir', dir], { env });
  assert.equal(long.code, 64, long.err);
  assert.match(long.err, /This ask is 65,\d{3} bytes long, over the 65,536 bytes/);
  assert.equal(asks(), before, 'nothing was asked');

  // Another client's line over the limit: refused by the id at its start, then the next is served.
  const line = JSON.stringify({ id: 'long-raw', at: new Date().toISOString(), op: 'add', args: { list: 'tasks', title: 'z'.repeat(LINE_MAX) } });
  appendFileSync(join(dir, ASKS_FILE), `${line}\n`);
  const refused = await answerTo(dir, 'long-raw');
  assert.equal(refused.ok, false);
  assert.match(refused.text, new RegExp(`^Too long: this ask line is ${line.length} bytes, over the ${LINE_MAX} bytes a keeper reads`));

  for (const [make, said] of [
    [() => symlinkSync(join(root, 'elsewhere'), join(dir, ANSWERS_FILE)), /answers\.jsonl is a link/],
    [() => mkdirSync(join(dir, ANSWERS_FILE)), /answers\.jsonl is not a regular file/],
  ] as const) {
    rmSync(join(dir, ANSWERS_FILE), { recursive: true, force: true });
    writeFileSync(join(root, 'elsewhere'), '');
    make();
    const mark = asks();
    const ran = await binderAsync(['add', 'Tasks', 'Never', '--dir', dir], { env });
    assert.equal(ran.code, 2, ran.err);
    assert.match(ran.err, said);
    assert.equal(asks(), mark, 'nothing was asked');
  }
  assert.equal(count(store, 'SELECT count(*) FROM records'), 1, 'only the first add was done');
  assert.equal(await keeper.stop(), 0);
});
