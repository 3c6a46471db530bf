/**
 * A PostgreSQL store closed while its connection for other keepers' news is still being made (a
 * keeper stopped just after it started): that connection is ended when it is made, and the
 * process is free to exit by itself. Before, it was kept, listening for no one, and kept its
 * process alive (a test file ran its tests, then waited for its timeout).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';

const missing = postgresMissing();
const STORE = new URL('../../src/store/index.js', import.meta.url).href;

test('a store closed while its news connection is being made lets its process exit', { skip: missing ?? false, timeout: 120_000 }, async () => {
  const c = await cluster();
  const url = c.database();
  try {
    const script = `
      const { openAnyStore } = await import(${JSON.stringify(STORE)});
      const store = await openAnyStore({ kind: 'postgres', url: ${JSON.stringify(url)} });
      store.onOtherChange(() => {});
      await store.close();
      process.stdout.write('closed\\n');`;
    // Bounded: a process kept alive is killed at the bound, and the test fails saying so.
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.stdout, 'closed\n', run.stderr);
    assert.equal(run.signal, null, 'the process did not exit by itself: something of the closed store kept it alive');
    assert.equal(run.status, 0);
  } finally {
    dropDatabase(c, url);
  }
});
