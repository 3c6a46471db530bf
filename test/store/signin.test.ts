/**
 * A signed-in service's part of the store: a sign-in under way is kept under its state's hash,
 * sealed, ten minutes and one use, for the browser that began it; a session opened for a person
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
const pending = { nonce: 'nonce-secret-xyz', verifier: 'verifier-secret-0123456789abcdefghijklmnopqrstu', back: '/' };

eachStore('a sign-in under way is finished once, by the browser that began it, within ten minutes, its secrets never in clear', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  await f.store.beginSignIn(STATE, 'browser-a', pending);
  // Nor spoil it (a callback seen and sent first by a stranger): the browser that began it still finishes it, below.
  assert.equal(await f.store.finishSignIn(STATE, 'browser-b'), null, 'another browser cannot finish it');
  if (f.engine === 'sqlite') {
    await f.store.checkpoint();
    const bytes = readFileSync(join(f.dir, 'store', 'binder.db')).toString('latin1');
    for (const secret of [STATE, pending.nonce, pending.verifier]) assert.ok(!bytes.includes(secret), `${secret} is not in the file`);
  }
  const other = await f.reopen();
  assert.deepEqual(await other.finishSignIn(STATE, 'browser-a'), pending, 'another keeper on the store finishes it');
  assert.equal(await f.store.finishSignIn(STATE, 'browser-a'), null, 'once');
  await f.store.beginSignIn(STATE, 'browser-a', pending);
  f.clock.ms += PENDING_MS;
  assert.equal(await f.store.finishSignIn(STATE, 'browser-a'), null, 'expired');
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
