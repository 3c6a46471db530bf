/**
 * The progress bar of a long export or import: drawn on a terminal (a real pseudo-terminal made
 * by `script`), not a byte of it when stderr is piped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.js';
import { BINDER, binder } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';
import { PROGRESS_FROM } from '../../src/exchange/progress.js';

const ann = { id: 'person:ann', kind: 'person' as const, name: 'ann' };

test('a long export shows a progress bar on a terminal, and nothing when piped', async (t) => {
  const root = tempDir(t);
  const store = join(root, 'store');
  const s = openStore(store);
  await s.createList({ template: 'blank' }, ann);
  await s.transaction(async (tx) => { for (let i = 0; i < PROGRESS_FROM + 500; i++) await tx.add('blank', { title: `record ${i}` }, ann); });
  await s.close();

  const piped = binder(['admin', '--store', store, 'export', '--out', join(root, 'piped.json')]);
  assert.equal(piped.code, 0, piped.err);
  assert.equal(piped.err, '', 'not a byte on a piped stderr');

  const has = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (has.error) { t.skip('script (util-linux) is not installed: no pseudo-terminal to draw on'); return; }
  const command = [process.execPath, BINDER, 'admin', '--store', store, 'export', '--out', join(root, 'tty.json')].map((w) => `'${w}'`).join(' ');
  const tty = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(tty.status, 0, tty.stderr);
  assert.match(tty.stdout, /Exporting \[[█░ =-]*\] \d+% \d+\/2500 records/, 'the bar was drawn');
  assert.match(tty.stdout, /Exported 1 list and 2500 records/);
});
