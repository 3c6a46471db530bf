/**
 * A person's sign-in to the page, in the store: a login link is one use and ten minutes, a session
 * is the person of its link, only hashes are kept, an agent can make neither, and a revoked or
 * signed-out session is no one. On both engines.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LINK_MS, SESSION_MS } from '../../src/store/index.js';
import { ann, bot, eachStore, fresh, refusal } from './helpers.js';

eachStore('a login link opens one session for its person, once; the store keeps only hashes', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  const link = await f.store.addLoginLink('Ann', ann);
  assert.match(link.key, /^[A-Za-z0-9_-]{43}$/);
  const made = await f.store.useLoginLink(link.key, 'Mozilla/5.0 (test)');
  assert.equal(made.person, 'Ann');
  const check = await f.store.checkSession(made.cookie);
  assert.deepEqual(check, { ok: true, who: { id: 'person:Ann', kind: 'person', name: 'Ann' }, id: made.id });
  assert.match(await refusal(() => f.store.useLoginLink(link.key, 'again')), /used already, has expired/);
  if (f.engine === 'sqlite') {
    await f.store.checkpoint();
    const bytes = readFileSync(join(f.dir, 'store', 'binder.db')).toString('latin1');
    assert.ok(!bytes.includes(link.key), 'the link\'s key is not in the database file');
    assert.ok(!bytes.includes(made.cookie), 'the cookie is not in the database file');
  }
});

eachStore('two uses of one link at once open one session', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  const other = await f.reopen();
  const link = await f.store.addLoginLink('Ann', ann);
  const tries = await Promise.allSettled([f.store.useLoginLink(link.key, 'a'), other.useLoginLink(link.key, 'b')]);
  assert.equal(tries.filter((r) => r.status === 'fulfilled').length, 1, 'one of the two signed in');
  assert.equal((await f.store.sessions(ann)).length, 1);
});

eachStore('a link expires after ten minutes; a session after its time; a revoked or ended one is no one', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  const late = await f.store.addLoginLink('Ann', ann);
  f.clock.ms += LINK_MS;
  assert.match(await refusal(() => f.store.useLoginLink(late.key, '')), /expired/);
  const one = await f.store.useLoginLink((await f.store.addLoginLink('Ann', ann)).key, '');
  const two = await f.store.useLoginLink((await f.store.addLoginLink('Bea', ann)).key, '');
  assert.deepEqual((await f.store.sessions(ann)).map((s) => s.person).sort(), ['Ann', 'Bea']);
  assert.equal((await f.store.revokeSessions(one.id, ann)).length, 1);
  assert.deepEqual(await f.store.checkSession(one.cookie), { ok: false });
  assert.equal(await f.store.endSession(two.cookie), true);
  assert.deepEqual(await f.store.checkSession(two.cookie), { ok: false });
  const three = await f.store.useLoginLink((await f.store.addLoginLink('Ann', ann)).key, '');
  f.clock.ms += SESSION_MS;
  assert.deepEqual(await f.store.checkSession(three.cookie), { ok: false });
  assert.match(await refusal(() => f.store.revokeSessions('nobody', ann)), /No open session/);
});

eachStore('an agent makes no link and sees no session; a cookie of another shape is no one', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  assert.match(await refusal(() => f.store.addLoginLink('Ann', bot)), /Only a person/);
  assert.match(await refusal(() => f.store.sessions(bot)), /Only a person/);
  assert.match(await refusal(() => f.store.revokeSessions('all', bot)), /Only a person/);
  assert.deepEqual(await f.store.checkSession('x'), { ok: false });
  assert.deepEqual(await f.store.checkSession(`${'a'.repeat(43)}`), { ok: false });
  assert.match(await refusal(() => f.store.useLoginLink('../../etc', '')), /not one/);
});
