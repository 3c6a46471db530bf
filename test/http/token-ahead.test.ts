/**
 * A read over REST on PostgreSQL, with its token's look sent together with the read's first
 * statement (store/token-ahead.ts): the look is made in the read's own transaction (seen in the
 * server's log, by its transaction id), and a token revoked or expired since the last request is
 * refused at the very next one, with no record in the answer — revoked through another keeper's
 * store, expired by the clock, whether or not the read sent any statement.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHttpApp } from '../../src/http/app.js';
import { createKeeper, personWho } from '../../src/keeper/keeper.js';
import { openAnyStore, type Store } from '../../src/store/index.js';
import { postgresMissing, startCluster, type Cluster } from '../helpers/postgres.js';
import { HOST } from './kit.js';

const missing = postgresMissing();
const ann = personWho('Ann');

let own: Promise<Cluster> | null = null;
/** One server for this file, logging each statement with its process and transaction. */
const logged = (): Promise<Cluster> => (own ??= startCluster({ settings: ['log_statement=all', 'log_line_prefix=%p %v '] }));

type Reply = { status: number; body: { ok: boolean; text: string; data: unknown } };
interface Setup {
  url: string; store: Store; token: string; tokens: Record<string, string>; clock: { now: number };
  get(path: string): Promise<Reply>;
  /** A change over REST by the agent `as`, with an Idempotency-Key when `key` is given. */
  post(as: string, op: string, body: unknown, key?: string): Promise<Reply>;
}

async function setup(t: TestContext, expiresMs?: number, agents = ['Claude']): Promise<Setup> {
  const c = await logged();
  const url = c.database();
  const clock = { now: Date.now() };
  const store = await openAnyStore({ kind: 'postgres', url }, { now: () => clock.now });
  await store.createList({ template: 'batches' }, ann);
  await store.add('batches', { title: 'Lot 7 of flour' }, ann);
  const tokens: Record<string, string> = {};
  for (const name of agents) {
    tokens[name] = (await store.addToken(name, expiresMs === undefined ? {} : { expiresMs }, ann)).token;
    await store.grant('batches', name, 'write', ann);
  }
  const token = tokens[agents[0]!]!;
  const keeper = createKeeper({ store, sides: [], log: () => {} });
  await keeper.start();
  const http = createHttpApp({ keeper, hosts: ['localhost'], log: () => {}, told: () => {} });
  t.after(async () => {
    await http.close();
    await keeper.close();
    await store.close();
  });
  const reply = async (res: Response): Promise<Reply> => ({ status: res.status, body: await res.json() as Reply['body'] });
  return {
    url, store, token, tokens, clock,
    get: async (path) => reply(await http.app.request(path, { headers: { host: HOST, authorization: `Bearer ${token}` } })),
    post: async (as, op, body, key) => reply(await http.app.request(`/api/${op}`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { host: HOST, authorization: `Bearer ${tokens[as]!}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    })),
  };
}

/** Another keeper's store on the same database, as `binder admin` or a second keeper would be. */
async function revokeElsewhere(t: TestContext, url: string, prefix: string): Promise<void> {
  const other = await openAnyStore({ kind: 'postgres', url });
  t.after(() => other.close());
  await other.revokeTokens(prefix, ann);
}

test('a read\'s token is looked at with the read\'s first statement: on its connection, just before it', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const c = await logged();
  const s = await setup(t);
  assert.equal((await s.get('/api/get?id=1')).status, 200, 'the first read looks at the token first, as always');
  const before = readFileSync(c.logFile!, 'utf8').length;
  const second = await s.get('/api/get?id=1');
  assert.equal(second.status, 200);
  assert.match(JSON.stringify(second.body.data), /Lot 7 of flour/);
  // Each statement's entry: its first line starts with the process and the transaction, the SQL's own lines follow.
  const lines = readFileSync(c.logFile!, 'utf8').slice(before).split(/\n(?=\d+ )/);
  const token = lines.find((line) => /FROM tokens t WHERE t\.hash/.test(line));
  const record = lines.find((line) => /FROM records r/.test(line));
  assert.ok(token && record, `the token's look and the record's read were both made:\n${lines.join('\n')}`);
  const pid = (line: string): string => /^(\d+) /.exec(line)?.[1] ?? 'none';
  // A record's page is one statement on PostgreSQL, in no transaction: the look is the statement
  // before it on its connection (a change's, in its transaction: the batch test below).
  const ofProcess = lines.filter((line) => pid(line) === pid(token) && / LOG: /.test(line));
  assert.equal(ofProcess.indexOf(record), ofProcess.indexOf(token) + 1, `the look, then the read:\n${ofProcess.join('\n')}`);
  assert.ok(!ofProcess.some((line) => /: (BEGIN|COMMIT)/.test(line)), `no transaction around them:\n${ofProcess.join('\n')}`);
});

test('a token revoked through another keeper since its last request: the very next read is refused, with no record in it', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const s = await setup(t);
  const first = await s.get('/api/get?id=1');
  assert.equal(first.status, 200);
  const prefix = (await s.store.tokens(ann))[0]!.prefix;
  await revokeElsewhere(t, s.url, prefix);
  for (const path of ['/api/get?id=1', '/api/show?list=batches']) {
    const refused = await s.get(path);
    assert.equal(refused.status, 401, path);
    assert.match(refused.body.text, new RegExp(`This token \\(${prefix}\\) was revoked on `));
    assert.equal(refused.body.data, null);
    assert.doesNotMatch(JSON.stringify(refused.body), /Lot 7/);
  }
});

test('revoked, and the read refused before any statement (an id that is no number): refused as revoked all the same', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const s = await setup(t);
  assert.equal((await s.get('/api/get?id=1')).status, 200);
  const prefix = (await s.store.tokens(ann))[0]!.prefix;
  await revokeElsewhere(t, s.url, prefix);
  const refused = await s.get('/api/get?id=seven');
  assert.equal(refused.status, 401);
  assert.match(refused.body.text, /was revoked on /);
});

test('a token past its expiry by the keeper\'s clock is not presumed: refused as expired', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const s = await setup(t, 60_000);
  assert.equal((await s.get('/api/get?id=1')).status, 200);
  s.clock.now += 61_000;
  const refused = await s.get('/api/get?id=1');
  assert.equal(refused.status, 401);
  assert.match(refused.body.text, /expired on /);
  assert.equal(refused.body.data, null);
});

test('a token that was refused is looked at first again, and one accepted again after is served', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const s = await setup(t);
  assert.equal((await s.get('/api/get?id=1')).status, 200);
  const none = await s.get('/api/get?id=999');
  assert.equal(none.status, 403, 'a record not there is refused as one not seen, not as a token');
  assert.doesNotMatch(none.body.text, /token/);
  assert.equal((await s.get('/api/get?id=1')).status, 200);
});

test('the store itself: a read as a presumed asker whose token was revoked meanwhile fails at its first statement, and the check says why', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const s = await setup(t);
  assert.equal((await s.get('/api/get?id=1')).status, 200);
  const prefix = (await s.store.tokens(ann))[0]!.prefix;
  await revokeElsewhere(t, s.url, prefix);
  const presumed = s.store.presumeToken(s.token);
  assert.ok(presumed, 'accepted at its last look: presumed');
  await assert.rejects(s.store.get(1, presumed.check.who), /This token is no longer accepted/);
  const check = await presumed.settle();
  assert.equal(check.ok, false);
  assert.equal(s.store.presumeToken(s.token), undefined, 'refused at its last look: never presumed again');
});

/** The notes on record #1, as its store reads them now. */
const notesOf = async (s: Setup): Promise<string[]> => (await s.store.get(1, ann)).record.notes.map((n) => n.text);

test('a change by a token revoked through another keeper since its last request: 401, nothing changed, keyed or not', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const s = await setup(t);
  assert.equal((await s.post('Claude', 'note', { id: 1, text: 'first, accepted' })).status, 200);
  const prefix = (await s.store.tokens(ann))[0]!.prefix;
  await revokeElsewhere(t, s.url, prefix);
  for (const key of [undefined, 'a-key-of-claude']) {
    const refused = await s.post('Claude', 'note', { id: 1, text: 'after the revocation' }, key);
    assert.equal(refused.status, 401, `key ${String(key)}`);
    assert.match(refused.body.text, /was revoked on /);
  }
  assert.deepEqual(await notesOf(s), ['first, accepted']);
});

test('asks of two agents in one batch, one agent\'s token revoked meanwhile: that one refused, the other\'s done once', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const s = await setup(t, undefined, ['Claude', 'Codex']);
  for (const name of ['Claude', 'Codex']) assert.equal((await s.post(name, 'note', { id: 1, text: `hello from ${name}` })).status, 200);
  const claude = (await s.store.tokens(ann)).find((info) => info.name === 'Claude')!.prefix;
  await revokeElsewhere(t, s.url, claude);
  // Asked at once: the keeper takes them in one transaction.
  const [refused, done] = await Promise.all([
    s.post('Claude', 'note', { id: 1, text: 'Claude, revoked' }, 'key-claude'),
    s.post('Codex', 'note', { id: 1, text: 'Codex, accepted' }, 'key-codex'),
  ]);
  assert.equal(refused.status, 401);
  assert.equal(done.status, 200, done.body.text);
  assert.deepEqual(await notesOf(s), ['hello from Claude', 'hello from Codex', 'Codex, accepted']);
  const again = await s.post('Codex', 'note', { id: 1, text: 'Codex, accepted' }, 'key-codex');
  assert.equal(again.status, 200);
  assert.equal((await notesOf(s)).length, 3, 'the key asked again is answered from the ledger');
});
