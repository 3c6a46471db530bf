/**
 * `--public-url https://binder.example`, for a keeper behind a proxy: the address it prints, the
 * one `binder admin login-link` puts in a link, the sign-in's redirect address at the provider —
 * all the public one, not the address it listens on — and its host answered to without
 * --allow-host. What it takes is an origin: a path, a query, a clear http address over the
 * network are refused with a sentence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { httpPlan } from '../../src/http/plan.js';
import { provider } from '../helpers/oidc-provider.js';
import { binder, binderAsync, serveKeeper } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

/** A port nobody listens on now (the keeper is given it: its printed address is the public one). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

interface Got { status: number; location: string | null; cookies: string[]; text: string }

/** A GET as the proxy passes it on, with the Host it names (fetch would put the address dialled there). */
function get(port: number, path: string, headers: Record<string, string>): Promise<Got> {
  return new Promise((done, failed) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => done({ status: res.statusCode ?? 0, location: res.headers.location ?? null, cookies: res.headers['set-cookie'] ?? [], text }));
    });
    req.on('error', failed);
    req.end();
  });
}

test('--public-url is read: an origin, its host answered to, refused with a sentence when it is not one', () => {
  const plan = httpPlan({ http: '127.0.0.1:0', behindProxy: true, publicUrl: 'https://Binder.Example/' }, {}) as { publicUrl: string; allowHosts: string[] };
  assert.equal(plan.publicUrl, 'https://binder.example');
  assert.deepEqual(plan.allowHosts, ['binder.example']);
  assert.equal((httpPlan({ http: true, publicUrl: 'http://localhost:8080' }, {}) as { publicUrl: string }).publicUrl, 'http://localhost:8080');
  const problem = (publicUrl: string, http: string | undefined = '127.0.0.1:0'): string =>
    (httpPlan({ ...(http ? { http } : {}), publicUrl }, {}) as { problem: string }).problem;
  assert.match(problem('binder.example'), /--public-url takes the address people reach the binder by, e\.g\. --public-url https:\/\/binder\.example; "binder\.example" is not one\./);
  assert.match(problem('https://binder.example/team'), /an origin alone.*the binder answers at its root/);
  assert.match(problem('https://binder.example/?a=1'), /an origin alone/);
  assert.match(problem('http://binder.example'), /in clear: give its https:\/\/ address\./);
  assert.match(problem('ftp://binder.example'), /takes an https:\/\/ address/);
  assert.match(problem('https://binder.example', ''), /--public-url only go with --http/);
});

test('with --public-url, the address printed and login-link\'s link are the public one', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const store = join(dir, 'store');
  const keeper = await serveKeeper(t, ['--store', store, '--side', `${join(dir, '.binder')}=A`, '--http', '127.0.0.1:0', '--behind-proxy', '--quiet',
    '--public-url', 'https://binder.example']);
  assert.match(keeper.out(), /Answering on https:\/\/binder\.example too \(MCP at https:\/\/binder\.example\/mcp, REST at https:\/\/binder\.example\/api\)/);
  assert.doesNotMatch(keeper.out(), /127\.0\.0\.1/);
  const link = binder(['admin', '--store', store, 'login-link']);
  assert.equal(link.code, 0, link.err);
  assert.match(link.out, /https:\/\/binder\.example\/#login=/);
  await keeper.stop();
  const bad = await binderAsync(['serve', '--no-tui', '--quiet', '--store', store, '--http', '127.0.0.1:0', '--public-url', 'https://binder.example/x']);
  assert.equal(bad.code, 64);
  assert.match(bad.err, /binder serve: --public-url takes an origin alone/);
});

test('with --public-url, the sign-in sends the provider back to the public address, and a browser coming that way signs in', { timeout: 60_000 }, async (t) => {
  const idp = await provider(t);
  const dir = tempDir(t);
  const port = await freePort();
  const keeper = await serveKeeper(t, ['--store', join(dir, 'store'), '--side', `${join(dir, '.binder')}=A`, '--http', `127.0.0.1:${port}`, '--behind-proxy', '--quiet',
    '--public-url', 'https://binder.example', '--oidc-issuer', idp.issuer, '--oidc-client-id', idp.clientId]);
  assert.match(keeper.out(), /The page: https:\/\/binder\.example\/ \(people sign in with localhost:\d+ there; no login links\)/);
  // As nginx passes it on: the public host in Host, no X-Forwarded-* at all. Its host needs no --allow-host.
  const start = await get(port, '/page/oidc/start', { host: 'binder.example' });
  assert.equal(start.status, 302, start.text);
  const toProvider = new URL(start.location!);
  assert.equal(toProvider.searchParams.get('redirect_uri'), 'https://binder.example/page/oidc/callback');
  const pending = start.cookies.find((c) => c.startsWith('binder_signin_'))!;
  assert.match(pending, /; Secure/i, 'the public address is https: the cookie is kept for it');
  const atProvider = await fetch(toProvider, { redirect: 'manual' });
  const back = new URL(atProvider.headers.get('location')!);
  assert.equal(back.origin, 'https://binder.example');
  const done = await get(port, `${back.pathname}${back.search}`, { host: 'binder.example', cookie: pending.split(';')[0]! });
  assert.equal(done.status, 200, done.text);
  assert.match(done.text, /Signed in as/);
  // Another name is still refused: the public host is allowed, not every host.
  const other = await get(port, '/page/oidc/start', { host: 'evil.example' });
  assert.equal(other.status, 421);
  await keeper.stop();
});
