/**
 * An ask dated ahead of the keeper's clock, against a real `binder serve`: written while no keeper
 * ran, an hour ahead and with no `until`, it is refused when a keeper comes, saying the asker's
 * clock is ahead, and never done — not at once, nor once the keeper's clock would reach it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { ASKS_FILE } from '../../src/keeper/protocol.js';
import { answerTo, askLine, count, makeBinder, startKeeper, survivalDir } from './harness.js';

test('an ask dated an hour ahead, with no until, is refused as the asker\'s clock being ahead and never done', { timeout: 60_000 }, async (t) => {
  const root = survivalDir(t, 'binder-ahead-');
  const { storeDir, store, dirs } = await makeBinder(root, 1);
  t.after(() => store.close());
  const dir = dirs[0]!;
  appendFileSync(join(dir, ASKS_FILE), askLine('ahead', 'add', { list: 'tasks', title: 'From the future' }, Date.now() + 3_600_000));
  const keeper = await startKeeper(storeDir);
  const answer = await answerTo(dir, 'ahead');
  assert.equal(answer.ok, false, answer.text);
  assert.match(answer.text, /the asker's clock is ahead/);
  appendFileSync(join(dir, ASKS_FILE), askLine('now', 'lists', {}));
  await answerTo(dir, 'now');
  assert.equal(count(store, 'SELECT count(*) FROM records'), 0, 'nothing was added');
  assert.equal(await keeper.stop(), 0);
});
