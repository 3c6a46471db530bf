/**
 * A person removed from an organisation's binder has their sessions (kept in the service store)
 * ended by the removal itself, in the store: through the store, the keeper's catalog and
 * `binder admin --org … remove-person`, with no HTTP face running to watch for it. Ended when the
 * removal answers, not some moment later; another person's session stays open.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openBinders } from '../../src/keeper/binders.js';
import type { StoreSpec, Who } from '../../src/store/index.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { binder } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const operator: Who = { id: 'person:operator', kind: 'person', name: 'operator' };
const ann: Who = { id: 'person:idp.test/ann', kind: 'person', name: 'Ann Lee', email: 'ann@acme.test' };
const bob: Who = { id: 'person:idp.test/bob', kind: 'person', name: 'Bob Ray', email: 'bob@acme.test' };
const cy: Who = { id: 'person:idp.test/cy', kind: 'person', name: 'Cy Dunn', email: 'cy@acme.test' };
const dee: Who = { id: 'person:idp.test/dee', kind: 'person', name: 'Dee Fox', email: 'dee@acme.test' };

for (const engine of ['sqlite', 'postgres'] as const) {
  const missing = engine === 'postgres' ? postgresMissing() : null;
  test(`a removal ends the removed person's sessions as it is made, by every path [${engine}]`, { timeout: 120_000, ...(missing ? { skip: missing } : {}) }, async (t) => {
    if (engine === 'sqlite') {
      const dir = join(tempDir(t), 'service');
      return endedByRemoval(t, { kind: 'sqlite', dir }, dir);
    }
    const c = await cluster();
    const url = c.database();
    try {
      await endedByRemoval(t, { kind: 'postgres', url }, url);
    } finally {
      dropDatabase(c, url);
    }
  });
}

async function endedByRemoval(t: TestContext, spec: StoreSpec, store: string): Promise<void> {
  const binders = await openBinders(spec, { start: false, log: () => {} });
  t.after(() => binders.close());
  const acme = await binders.of('acme.test');
  for (const who of [ann, bob, cy, dee]) {
    await acme.store.signIn(who);
    await binders.service.openSession(who, 'acme.test', 'a browser');
  }
  const open = async (who: Who): Promise<number> =>
    (await binders.service.sessions(operator)).filter((s) => s.email === who.email).length;
  assert.equal(await open(bob), 1);

  // Through the store.
  await acme.store.removePerson('bob@acme.test', ann);
  assert.equal(await open(bob), 0, 'Bob\'s session ended with his removal');

  // Through the keeper's catalog, as the page and every face ask it.
  const answer = await acme.keeper.act('remove-person', { person: 'cy@acme.test' }, ann);
  assert.equal(answer.ok, true, answer.text);
  assert.equal(await open(cy), 0, 'Cy\'s session ended with his removal');

  // Through `binder admin --org`, another process.
  const removed = binder(['admin', '--store', store, '--org', 'acme.test', 'remove-person', 'dee@acme.test']);
  assert.equal(removed.code, 0, removed.err);
  assert.equal(await open(dee), 0, 'Dee\'s session ended with her removal');

  assert.equal(await open(ann), 1, 'Ann stays signed in');
}
