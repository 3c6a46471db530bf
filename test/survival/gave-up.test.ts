/**
 * An ask its asker gave up on is never done: `binder` waits, says nothing was changed, and a
 * keeper that starts a moment later answers that ask "too late" instead of doing it. The agent
 * asking again gets its record once, not twice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { binder, binderAsync, serveKeeper } from '../helpers/processes.js';
import { tempDir, until } from '../helpers/temp.js';
import { TOO_LATE_TEXT } from '../../src/keeper/folder-pump.js';

test('a keeper that comes after binder gave up answers too late and does nothing; asking again does it once', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const store = join(root, 'store');
  const folder = join(root, 'w', '.binder');
  mkdirSync(folder, { recursive: true });
  assert.equal(binder(['admin', '--store', store, 'create-list', 'Batches', '--template', 'batches']).code, 0);
  assert.equal(binder(['admin', '--store', store, 'grant', 'batches', 'Helper', 'write']).code, 0);

  // No keeper has ever kept this folder (no heartbeat): binder waits its whole window, then gives up.
  const first = await binderAsync(['add', 'Batches', 'Only once', '--dir', folder], { env: { BINDER_WAIT_MS: '1500' } });
  assert.equal(first.code, 3, first.err);
  assert.match(first.err, /Nothing was changed/);

  const keeper = await serveKeeper(t, ['--store', store, '--side', `${folder}=Helper`]);
  const answers = () => readFileSync(join(folder, 'answers.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { ok: boolean; text: string });
  await until(() => { try { return answers().length === 1; } catch { return false; } }, 10_000, 'the late answer');
  assert.deepEqual(answers().map((a) => [a.ok, a.text]), [[false, TOO_LATE_TEXT]]);

  const again = await binderAsync(['add', 'Batches', 'Only once', '--dir', folder]);
  assert.equal(again.code, 0, again.err);
  const shown = await binderAsync(['search', 'once', '--json', '--dir', folder]);
  assert.equal(shown.code, 0, shown.err);
  assert.equal((JSON.parse(shown.out) as unknown[]).length, 1, 'the record is there once');
  assert.equal(await keeper.stop(), 0);
});
