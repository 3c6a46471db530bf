/**
 * `binder serve … --oidc-issuer URL --oidc-client-id ID` as a person runs it: the options read
 * (the secret from a file only its owner reads, or the environment, never argv), the provider
 * discovered at start (a sentence and exit 2 when it cannot be reached), the page's address said
 * instead of a login link, `binder admin login-link` refused, and the store kept a signed-in
 * service's (served without the provider, it is refused).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpPlan } from '../../src/http/plan.js';
import { provider } from '../helpers/oidc-provider.js';
import { binder, binderAsync, serveKeeper } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

test('--oidc-* are read: a client id needed, the secret from a private file or the environment, companions only with the issuer', (t) => {
  const dir = tempDir(t);
  const base = { http: '127.0.0.1:0', oidcIssuer: 'https://idp.example', oidcClientId: 'binder' };
  assert.deepEqual((httpPlan({ http: true, oidcIssuer: 'https://idp.example' }, {}) as { problem: string }).problem,
    '--oidc-issuer needs --oidc-client-id ID: the client this binder is at the provider.');
  assert.match((httpPlan({ http: true, oidcOrgClaim: 'org' }, {}) as { problem: string }).problem, /--oidc-org-claim only go with --oidc-issuer/);
  assert.match((httpPlan({ oidcIssuer: 'https://idp.example', oidcClientId: 'b' }, {}) as { problem: string }).problem, /--oidc-issuer only go with --http/);
  const file = join(dir, 'secret');
  writeFileSync(file, 's3cret\n');
  chmodSync(file, 0o644);
  assert.match((httpPlan({ ...base, oidcClientSecretFile: file }, {}) as { problem: string }).problem, /may be read by others: chmod 600/);
  chmodSync(file, 0o600);
  assert.equal((httpPlan({ ...base, oidcClientSecretFile: file }, {}) as { oidc: { clientSecret: string } }).oidc.clientSecret, 's3cret');
  assert.equal((httpPlan(base, { BINDER_OIDC_CLIENT_SECRET: 'from-env' }) as { oidc: { clientSecret: string } }).oidc.clientSecret, 'from-env');
  const plan = httpPlan({ ...base, oidcAllowOrg: ['Acme.test', ' b.test '], oidcOrgClaim: 'tenant' }, {}) as { oidc: unknown };
  assert.deepEqual(plan.oidc, { issuer: 'https://idp.example', clientId: 'binder', orgClaim: 'tenant', allowOrgs: ['acme.test', 'b.test'] });
});

test('a provider that cannot be reached at start: a sentence, exit 2, nothing listens', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const run = await binderAsync(['serve', '--no-tui', '--quiet', '--store', join(dir, 'store'), '--side', `${join(dir, '.binder')}=A`,
    '--http', '127.0.0.1:0', '--oidc-issuer', 'http://127.0.0.1:9', '--oidc-client-id', 'binder']);
  assert.equal(run.code, 2);
  assert.match(run.err, /binder cannot reach the identity provider http:\/\/127\.0\.0\.1:9 \(.*\): check --oidc-issuer/);
  assert.doesNotMatch(run.out, /Answering on/);
});

test('served with a provider: the page\'s address is said instead of a link, login links are refused, and the store stays the service\'s', { timeout: 60_000 }, async (t) => {
  const idp = await provider(t);
  const dir = tempDir(t);
  const store = join(dir, 'store');
  const keeper = await serveKeeper(t, ['--store', store, '--side', `${join(dir, '.binder')}=A`, '--http', '127.0.0.1:0', '--quiet',
    '--oidc-issuer', idp.issuer, '--oidc-client-id', idp.clientId]);
  assert.match(keeper.out(), /The page: http:\/\/127\.0\.0\.1:\d+\/ \(people sign in with localhost:\d+ there; no login links\)/);
  assert.doesNotMatch(keeper.out(), /#login=/);
  const link = binder(['admin', '--store', store, 'login-link']);
  assert.equal(link.code, 1);
  assert.match(link.err, /signs people in through localhost:\d+: there are no login links/);
  await keeper.stop();
  const local = await binderAsync(['serve', '--no-tui', '--quiet', '--store', store, '--side', `${join(dir, '.binder')}=A`, '--http', '127.0.0.1:0']);
  assert.equal(local.code, 2);
  assert.match(local.err, /This store is a signed-in service's \(people sign in through http:\/\/localhost:\d+\): start it with --oidc-issuer/);
});
