/**
 * A person's sign-in to the page, in the store: a login link is one use and ten minutes, a session
 * is the person of its link, only hashes are kept, an agent can make neither, and a revoked or
 * signed-out session is no one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LINK_MS, SESSION_MS } from '../../src/store/index.js';
import { ann, bot, fresh } from './helpers.js';

test('a login link opens one session for its person, once; the store keeps only hashes', (t) => {
  const f = fresh();
  t.after(() => f.done());
  const link = f.store.addLoginLink('Ann', ann);
  assert.match(link.key, /^[A-Za-z0-9_-]{43}$/);
  const made = f.store.useLoginLink(link.key, 'Mozilla/5.0 (test)');
  assert.equal(made.person, 'Ann');
  const check = f.store.checkSession(made.cookie);
  assert.deepEqual(check, { ok: true, who: { id: 'person:Ann', kind: 'person', name: 'Ann' }, id: made.id });
  assert.throws(() => f.store.useLoginLink(link.key, 'again'), /used already, has expired/);
  f.store.checkpoint();
  const bytes = readFileSync(join(f.dir, 'store', 'binder.db')).toString('latin1');
  assert.ok(!bytes.includes(link.key), 'the link\'s key is not in the database file');
  assert.ok(!bytes.includes(made.cookie), 'the cookie is not in the database file');
});

test('a link expires after ten minutes; a session after its time; a revoked or ended one is no one', (t) => {
  const f = fresh();
  t.after(() => f.done());
  const late = f.store.addLoginLink('Ann', ann);
  f.clock.ms += LINK_MS;
  assert.throws(() => f.store.useLoginLink(late.key, ''), /expired/);
  const one = f.store.useLoginLink(f.store.addLoginLink('Ann', ann).key, '');
  const two = f.store.useLoginLink(f.store.addLoginLink('Bea', ann).key, '');
  assert.deepEqual(f.store.sessions(ann).map((s) => s.person).sort(), ['Ann', 'Bea']);
  assert.equal(f.store.revokeSessions(one.id, ann).length, 1);
  assert.deepEqual(f.store.checkSession(one.cookie), { ok: false });
  assert.equal(f.store.endSession(two.cookie), true);
  assert.deepEqual(f.store.checkSession(two.cookie), { ok: false });
  const three = f.store.useLoginLink(f.store.addLoginLink('Ann', ann).key, '');
  f.clock.ms += SESSION_MS;
  assert.deepEqual(f.store.checkSession(three.cookie), { ok: false });
  assert.throws(() => f.store.revokeSessions('nobody', ann), /No open session/);
});

test('an agent makes no link and sees no session; a cookie of another shape is no one', (t) => {
  const f = fresh();
  t.after(() => f.done());
  assert.throws(() => f.store.addLoginLink('Ann', bot), /Only a person/);
  assert.throws(() => f.store.sessions(bot), /Only a person/);
  assert.throws(() => f.store.revokeSessions('all', bot), /Only a person/);
  assert.deepEqual(f.store.checkSession('x'), { ok: false });
  assert.deepEqual(f.store.checkSession(`${'a'.repeat(43)}`), { ok: false });
  assert.throws(() => f.store.useLoginLink('../../etc', ''), /not one/);
});
