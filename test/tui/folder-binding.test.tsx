/** A folder whose path now leads to another directory is shown on the screen, with why, as the keeper says it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync } from 'node:fs';
import { batches, openScreen } from './harness.js';

test('the screen shows a folder whose path leads elsewhere on the folders screen, as the keeper says it', async (t) => {
  const s = await openScreen(t, { prepare: batches });
  await s.keeper.pump();
  await s.until((f) => f.includes('Batches'), 'the lists');
  renameSync(s.side.dir, `${s.side.dir}-moved`);
  mkdirSync(s.side.dir);
  await s.keeper.pump();
  assert.match(s.keeper.folders()[0]!.problem ?? '', /is not the folder kept for Agent any more/);
  await s.press('S');
  // The sentence begins with the folder's path; the row shows it after the folder's own column, cut at the width.
  await s.until((f) => f.split('\n').some((row) => row.includes('Agent') && row.includes(` · ${s.side.dir.slice(0, 24)}`)), 'the problem on the folders screen');
});
