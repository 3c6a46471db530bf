/**
 * A signed-in service's part of the store: the key that seals the sign-ins under way (kept in the
 * browsers that began them), and the sign-ins finished, once each; a session opened for a person
 * the provider vouched for carries their Who (with e-mail) and organisation; where a provider is
 * set, login links are refused. On both engines.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PENDING_MS } from '../../src/store/index.js';
import type { Who } from '../../src/store/types.js';
import { ann, eachStore, fresh, refusal } from './helpers.js';

const lee: Who = { id: 'person:idp.example/u-1', kind: 'person', name: 'Ann Lee', email: 'ann@acme.test' };
const STATE = 'st-0123456789abcdefghijklmnop';

eachStore('a sign-in is finished once, the key that seals those under way is one per store and made once, and no state is kept in clear', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  const key = await f.store.signInKey();
  assert.match(key, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(await f.store.signInKey(), key, 'made once');
  const other = await f.reopen();
  assert.equal(await other.signInKey(), key, 'another keeper on the store seals and opens with the same key');
  assert.equal(await f.store.signInFinished(STATE), false);
  assert.equal(await f.store.finishedSignIn(STATE, f.clock.ms + PENDING_MS), true);
  assert.equal(await other.signInFinished(STATE), true, 'seen by every keeper');
  assert.equal(await other.finishedSignIn(STATE, f.clock.ms + PENDING_MS), false, 'finished once');
  if (f.engine === 'sqlite') {
    await f.store.checkpoint();
    const bytes = readFileSync(join(f.dir, 'store', 'binder.db')).toString('latin1');
    assert.ok(!bytes.includes(STATE), 'the state is not in the file');
  }
  f.clock.ms += PENDING_MS + 1;
  assert.equal(await f.store.signInFinished(STATE), false, 'forgotten once it would have expired');
});

eachStore('a session opened for a signed-in person is that person, with e-mail and organisation', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  const made = await f.store.openSession(lee, 'acme.test', 'Mozilla/5.0 (test)');
  assert.deepEqual(await f.store.checkSession(made.cookie), { ok: true, who: lee, id: made.id, org: 'acme.test' });
  const listed = await f.store.sessions(ann);
  assert.equal(listed[0]!.email, 'ann@acme.test');
  assert.equal(listed[0]!.org, 'acme.test');
  assert.equal(await f.store.endSession(made.cookie), true);
  assert.deepEqual(await f.store.checkSession(made.cookie), { ok: false });
});

eachStore('where people sign in through a provider, login links are refused with a sentence', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  const before = await f.store.addLoginLink('Ann', ann);
  assert.equal(await f.store.signInIssuer(), null);
  await f.store.markSignIn('https://idp.example/realms/acme');
  assert.equal(await f.store.signInIssuer(), 'https://idp.example/realms/acme');
  assert.match(await refusal(() => f.store.addLoginLink('Ann', ann)), /signs people in through idp\.example: there are no login links/);
  assert.match(await refusal(() => f.store.useLoginLink(before.key, 'x')), /no login links/, 'a link made before is no way in either');
  await f.store.markSignIn('https://other.example');
  assert.equal(await f.store.signInIssuer(), 'https://other.example', 'one provider at a time');
});
