/**
 * A token's check, as every request over HTTP asks it: where the store keeps the row it read while
 * nothing is committed (SQLite), a revocation — through this store, through another connection on
 * the same binder (another keeper, `binder admin`), or by a token sent where it leaks — and an
 * expiry are seen at the very next check, and a folder registered under the agent's name renames
 * it there at once. The same on PostgreSQL, which keeps nothing.
 */
import assert from 'node:assert/strict';
import { ann, eachStore, fresh } from './helpers.js';

eachStore('a token\'s check sees a revocation made by another connection, and an expiry, at the very next check', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  const made = await f.store.addToken('Bot', { expiresMs: 3_600_000 }, ann);
  const other = await f.reopen();
  for (let i = 0; i < 3; i++) assert.equal((await f.store.checkToken(made.token)).ok, true);
  // Another connection on the same binder revokes it: nothing of this store's was committed.
  await other.revokeTokens('Bot', ann);
  const revoked = await f.store.checkToken(made.token);
  assert.equal(revoked.ok, false);
  assert.equal(revoked.ok === false && revoked.why, 'revoked');

  const second = await f.store.addToken('Bot two', { expiresMs: 3_600_000 }, ann);
  assert.equal((await f.store.checkToken(second.token)).ok, true);
  assert.equal((await f.store.checkToken(second.token)).ok, true);
  // The clock passes its expiry, with nothing committed meanwhile.
  f.clock.ms += 3_600_001;
  const expired = await f.store.checkToken(second.token);
  assert.equal(expired.ok === false && expired.why, 'expired');
});

eachStore('a token\'s check sees this store\'s own revocation, a leaked token\'s, and a folder\'s name, at once', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  const made = await f.store.addToken('Bot', {}, ann);
  const leaked = await f.store.addToken('Spy', {}, ann);
  for (const token of [made.token, leaked.token]) assert.equal((await f.store.checkToken(token)).ok, true);
  await f.store.revokeTokens('Bot', ann);
  assert.equal((await f.store.checkToken(made.token)).ok, false);
  await f.store.leakedToken(leaked.token);
  assert.equal((await f.store.checkToken(leaked.token)).ok, false);

  const named = await f.store.addToken('Claude', {}, ann);
  const before = await f.store.checkToken(named.token);
  assert.equal(before.ok && before.who.name, 'Claude');
  const other = await f.reopen();
  await other.addSide(f.dir, 'CLAUDE', ann);
  const after = await f.store.checkToken(named.token);
  assert.equal(after.ok && after.who.name, 'CLAUDE', 'the folder\'s name, as the agent is shown');
  // Made up, or one character off: unknown, however often asked.
  for (const token of [`binder_${'A'.repeat(43)}`, `${named.token.slice(0, -1)}${named.token.endsWith('A') ? 'B' : 'A'}`, 'nonsense']) {
    assert.equal((await f.store.checkToken(token)).ok, false);
  }
});
