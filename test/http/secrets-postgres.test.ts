/**
 * Secrets on a PostgreSQL store, against a server of the test's own that logs every statement
 * (`log_statement=all`) and asks its keeper's role for a password: the password given in the
 * store URL's query (`?password=`, a form libpq documents) is used, and shown nowhere — not in
 * `binder serve`'s start line, nor `binder admin`'s errors, nor `/healthz`; a token a person makes
 * over REST with an Idempotency-Key is never kept in the ledger, so never written in a statement
 * the server logs; a replay says it was made, by its prefix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { discoverSignIn } from '../../src/http/oidc.js';
import { createHttpApp } from '../../src/http/app.js';
import { createKeeper, personWho } from '../../src/keeper/keeper.js';
import { openAnyStore, shownStoreUrl } from '../../src/store/index.js';
import { provider } from '../helpers/oidc-provider.js';
import { postgresMissing, startCluster, type Cluster } from '../helpers/postgres.js';
import { binder, serveKeeper } from '../helpers/processes.js';
import { HOST } from './kit.js';

const missing = postgresMissing();
const PASSWORD = `Pw${randomBytes(12).toString('hex')}`;

let own: Promise<Cluster> | null = null;
/** One server for this file: every statement logged, and the role `keeper` signed in with a password. */
function logged(): Promise<Cluster> {
  own ??= (async () => {
    const c = await startCluster({ settings: ['log_statement=all', 'log_min_messages=info'], hba: ['local all keeper scram-sha-256'] });
    c.psql('postgres', `CREATE ROLE keeper LOGIN PASSWORD '${PASSWORD}'`);
    return c;
  })();
  return own;
}

function database(c: Cluster): { url: string; bare: string } {
  const name = `s_${randomBytes(6).toString('hex')}`;
  c.psql('postgres', `CREATE DATABASE ${name} OWNER keeper`);
  const bare = `postgres://keeper@localhost/${name}?host=${encodeURIComponent(c.host)}&application_name=binder-test`;
  return { url: `${bare}&password=${PASSWORD}`, bare };
}

test('the shown form of a store URL: its user, host, port, database and harmless options; every other value …', () => {
  assert.equal(shownStoreUrl('postgres://ann:pw1@db.example:5433/binder?password=pw2&sslmode=require&sslpassword=pw3&x=pw4'),
    'postgres://ann@db.example:5433/binder?password=…&sslmode=require&sslpassword=…&x=…');
  assert.equal(shownStoreUrl('postgresql://db/b?host=%2Fvar%2Frun%2Fpostgresql&PASSWORD=pw'), 'postgresql://db/b?host=%2Fvar%2Frun%2Fpostgresql&PASSWORD=…');
  assert.equal(shownStoreUrl('postgres://[broken'), 'postgres://…');
});

test('a password in the store URL\'s query is used, and shown nowhere: start line, admin\'s errors, /healthz, the server\'s log', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const c = await logged();
  const { url, bare } = database(c);
  const made = binder(['admin', '--store', url, 'create-list', 'Batches', '--template', 'batches']);
  assert.equal(made.code, 0, `the password opens the store: ${made.err}`);
  // Refused, and ended: pg kept the socket of a connect that failed on its side, and the command
  // waited with it for the server's authentication_timeout (60 s) until the helper's own limit.
  const without = binder(['admin', '--store', bare, 'lists']);
  assert.equal(without.code, 2, `without it, the server refuses the role, and binder admin ends: ${without.err}`);
  assert.match(without.err, /Binder cannot open its store postgres:\/\/keeper@localhost\/s_[0-9a-f]+\?host=.*: SASL: .*password/);
  const wrong = binder(['admin', '--store', url.replace(/\/s_[0-9a-f]+\?/, '/nothing_here?'), 'lists']);
  assert.notEqual(wrong.code, 0);
  assert.match(wrong.err, /Binder cannot open its store postgres:\/\/keeper@localhost\/nothing_here\?host=.*&password=…/);
  const keeper = await serveKeeper(t, ['--store', url, '--http', '127.0.0.1:0', '--quiet']);
  assert.match(keeper.out(), /Binder kept in postgres:\/\/keeper@localhost\/s_[0-9a-f]+\?host=.*application_name=binder-test&password=…/);
  const at = /Answering on (http:\/\/[^ ]+) too/.exec(keeper.out())?.[1] ?? '';
  const health = await (await fetch(`${at}/healthz`)).text();
  assert.match(health, /^ok\nup \d+ s\n$/);
  assert.equal(await keeper.stop(), 0);
  // The server's log: every statement but the test's own that made the role with its password.
  const serverLog = readFileSync(c.logFile!, 'utf8').split('\n').filter((line) => !line.includes('CREATE ROLE keeper')).join('\n');
  assert.match(serverLog, /statement: .*binder_meta|execute/, 'the server logged the keeper\'s statements');
  for (const [what, text] of [['admin', made.out + made.err + without.err + wrong.err], ['serve', keeper.out() + keeper.err()], ['healthz', health], ['the server', serverLog]]) {
    assert.ok(!text!.includes(PASSWORD), `${what} shows the password`);
  }
});

test('a token made over REST with an Idempotency-Key, on PostgreSQL: no statement the server logs holds it; the replay says its prefix', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const c = await logged();
  const { url } = database(c);
  const idp = await provider(t);
  const signIn = await discoverSignIn({ issuer: idp.issuer, clientId: idp.clientId });
  const store = await openAnyStore({ kind: 'postgres', url });
  await store.createList({ template: 'batches' }, personWho('Ann'));
  await store.markSignIn(signIn.issuer);
  const keeper = createKeeper({ store, sides: [], log: () => {} });
  await keeper.start();
  const logs: string[] = [];
  const http = createHttpApp({ keeper, hosts: ['localhost'], signIn, log: (line) => logs.push(line), told: (line) => logs.push(line) });
  t.after(async () => {
    await http.close();
    await keeper.close();
    await store.close();
  });
  const access = await idp.token({ sub: 'u-bea', name: 'Bea Ray', email: 'bea@acme.test', email_verified: true });
  const key = randomUUID();
  const ask = () => http.app.request('/api/token-add', {
    method: 'POST', body: JSON.stringify({ name: 'Robot' }),
    headers: { host: HOST, authorization: `Bearer ${access}`, 'content-type': 'application/json', 'idempotency-key': key },
  });
  const first = await ask();
  const firstText = ((await first.json()) as { text: string }).text;
  assert.equal(first.status, 200, firstText);
  const token = /binder_[A-Za-z0-9_-]{43}/.exec(firstText)?.[0] ?? '';
  assert.ok(token);
  const again = await ask();
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  const againText = ((await again.json()) as { text: string }).text;
  assert.match(againText, new RegExp(`the token ${token.slice(0, 15)} \\(Robot's\\) was made then and shown once`));
  // The ledger's row was written (the server logged it), and holds no more than the prefix.
  const serverLog = readFileSync(c.logFile!, 'utf8');
  assert.match(serverLog, new RegExp(`parameters:.*'${key}'`), 'the ledger\'s statement is in the server\'s log');
  assert.ok(!serverLog.includes(token.slice(15)), 'the server\'s log holds the token');
  assert.ok(!logs.join('\n').includes(token.slice(15)), 'the keeper\'s log holds the token');
  assert.equal(c.psql(new URL(url).pathname.slice(1), 'SELECT count(*) FROM asks WHERE answer LIKE \'%' + token.slice(15, 30) + '%\'').trim(), '0');
});

test('a sign-in\'s start writes nothing to the PostgreSQL store (no statement but reads in the server\'s log); the provider\'s answer finishes it', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const c = await logged();
  const { url } = database(c);
  const idp = await provider(t);
  const signIn = await discoverSignIn({ issuer: idp.issuer, clientId: idp.clientId });
  const store = await openAnyStore({ kind: 'postgres', url });
  await store.markSignIn(signIn.issuer);
  await store.signInKey();
  const keeper = createKeeper({ store, sides: [], log: () => {} });
  await keeper.start();
  const http = createHttpApp({ keeper, hosts: ['localhost'], signIn, rate: { perSecond: 1, burst: 5 } });
  t.after(async () => {
    await http.close();
    await keeper.close();
    await store.close();
  });
  const db = new URL(url).pathname.slice(1);
  const mark = (word: string): void => void c.psql(db, `SELECT 'mark-${word}'`);
  const start = (): Promise<Response> => Promise.resolve(http.app.request('/page/oidc/start', { headers: { host: HOST } }));
  mark('starts');
  const starts = await Promise.all(Array.from({ length: 30 }, start));
  mark('started');
  assert.deepEqual([...new Set(starts.map((r) => r.status))], [302]);
  const serverLog = readFileSync(c.logFile!, 'utf8');
  const during = serverLog.slice(serverLog.indexOf('mark-starts'), serverLog.indexOf('mark-started'));
  assert.ok(during.length > 0);
  assert.doesNotMatch(during, /\b(INSERT|UPDATE|DELETE)\b/i, 'a sign-in under way writes nothing');
  // The person whose sign-in follows the flood is signed in.
  await idp.as({ sub: 'u-bea', name: 'Bea Ray', email: 'bea@acme.test', email_verified: true });
  const begun = await start();
  const cookie = begun.headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => pair.startsWith('binder_signin_'))!;
  const back = new URL((await fetch(begun.headers.get('location')!, { redirect: 'manual' })).headers.get('location')!);
  const done = await http.app.request(`${back.pathname}${back.search}`, { headers: { host: HOST, cookie } });
  assert.equal(done.status, 200, await done.text());
  assert.ok(done.headers.getSetCookie().some((line) => /^binder_session_[0-9a-f]{12}=/.test(line)));
  const again = await http.app.request(`${back.pathname}${back.search}`, { headers: { host: HOST, cookie } });
  assert.equal(again.status, 400, 'finished once');
});
