/**
 * A person's access token from the provider as `Authorization: Bearer` on /api, /mcp and
 * /page/api, against a real provider process on loopback: checked against the provider's keys
 * (signature, issuer, audience, expiry), resolved to the person; an expired one, one for another
 * audience, one signed by another key, one from another provider — each refused with 401, a
 * sentence and WWW-Authenticate, nothing done. Agents' tokens keep working beside them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { discoverSignIn } from '../../src/http/oidc.js';
import { provider } from '../helpers/oidc-provider.js';
import { HOST, served } from './kit.js';
import { signedInService } from './oidc-kit.js';

const ann = { sub: 'u-ann', name: 'Ann Lee', email: 'ann@acme.test', email_verified: true };
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };
const mcpList = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lists', arguments: {} } };

test('a person\'s access token is the person on REST, MCP and the page\'s API; an agent\'s token still the agent', async (t) => {
  const s = await signedInService(t);
  const token = await s.idp.token(ann);
  const rest = await s.call('GET', '/api/lists', { token });
  assert.equal(rest.status, 200, rest.json.text);
  const added = await s.call('POST', '/api/add', { token, body: { list: 'Batches', title: 'From a script' } });
  assert.equal(added.status, 200, added.json.text);
  const got = await s.store.get(1, { id: 'person:x', kind: 'person', name: 'x' });
  assert.equal(got.history[0]!.by.id, `person:${new URL(s.idp.issuer).host}/u-ann`);
  assert.equal(got.history[0]!.by.email, 'ann@acme.test');
  const mcp = await s.call('POST', '/mcp', { token, body: mcpList, headers: MCP_HEADERS });
  assert.equal(mcp.status, 200);
  const page = await s.call('POST', '/page/api/note', { token, body: { id: 1, text: 'no Origin needed with a token' } });
  assert.equal(page.status, 200, page.json.text);
  const agent = await s.call('GET', '/api/lists');
  assert.equal(agent.status, 200, 'the agent\'s binder_ token works beside them');
  assert.match(s.logs.join('\n'), /Ann Lee add done over REST \(localhost:\d+\/u-ann\)/);
  assert.doesNotMatch(s.logs.join('\n'), new RegExp(token.slice(-20)), 'the token is never logged');
});

test('tokens refused: expired, another audience, signed by another key, from another provider — 401, a sentence, nothing done', async (t) => {
  const s = await signedInService(t);
  const forger = await provider(t, { clientId: s.idp.clientId, kid: s.idp.kid });
  const stranger = await provider(t, { clientId: s.idp.clientId });
  const cases: [string, string, RegExp][] = [
    ['expired', await s.idp.token(ann, { expiresIn: -120 }), /^This token expired: sign in again/],
    ['another audience', await s.idp.token(ann, { change: { aud: 'someone-else' } }), /made for another audience, not "binder-test"/],
    ['another key', await forger.token(ann, { change: { iss: s.idp.issuer } }),
      /not signed by http:\/\/localhost:\d+'s keys/],
    ['another provider', await stranger.token(ann), /not signed by http:\/\/localhost:\d+'s keys/],
    ['another issuer named', await s.idp.token(ann, { change: { iss: stranger.issuer } }), /not from http:\/\/localhost:\d+, the provider/],
    ['not yet', await s.idp.token(ann, { change: { nbf: Math.floor(Date.now() / 1000) + 600 } }), /not valid yet/],
    ['not a token', 'plainly-not-a-token', /neither an agent's token/],
  ];
  for (const [what, token, said] of cases) {
    for (const [method, path, body] of [['POST', '/api/add', { list: 'Batches', title: `by ${what}` }], ['POST', '/mcp', mcpList], ['POST', '/page/api/add', { list: 'Batches', title: what }]] as const) {
      const res = await s.call(method, path, { token, body, headers: path === '/mcp' ? MCP_HEADERS : {} });
      assert.equal(res.status, 401, `${what} on ${path}`);
      assert.match(res.json.text, said, `${what} on ${path}`);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm="binder", error="invalid_token", error_description="/, what);
    }
  }
  assert.equal((await s.store.show('batches', { id: 'person:x', kind: 'person', name: 'x' })).records.length, 0, 'nothing was done');
});

test('a verified token is remembered a minute at most, and never past its expiry', async (t) => {
  const idp = await provider(t);
  const clock = { ms: Date.now() };
  const signIn = await discoverSignIn({ issuer: idp.issuer, clientId: idp.clientId, now: () => clock.ms });
  const s = await served(t, { app: { signIn } });
  const token = await idp.token(ann, { expiresIn: 30 });
  assert.equal((await s.call('GET', '/api/lists', { token })).status, 200);
  assert.equal((await signIn.verifyAccess(token)).ok, true);
  clock.ms += 31_000;
  const late = await s.call('GET', '/api/lists', { token });
  assert.equal(late.status, 401, 'past its expiry, though seen a moment ago');
  assert.match(late.json.text, /expired/);
  assert.equal(HOST, 'localhost:4180');
});

test('a provider that cannot be reached while a token is checked: 503 with Retry-After and a sentence, not 401; nothing done', async (t) => {
  const s = await signedInService(t);
  const token = await s.idp.token(ann);
  // Discovered at start, its keys not fetched yet: then it goes away.
  await s.idp.stop();
  for (const [method, path, body] of [['POST', '/api/add', { list: 'Batches', title: 'while it is down' }], ['POST', '/mcp', mcpList], ['POST', '/page/api/add', { list: 'Batches', title: 'down' }]] as const) {
    const res = await s.call(method, path, { token, body, headers: path === '/mcp' ? MCP_HEADERS : {} });
    assert.equal(res.status, 503, `${path}: ${res.json.text}`);
    assert.match(res.headers.get('retry-after') ?? '', /^\d+$/, path);
    assert.match(res.json.text, /could not be checked against the provider's keys now .*ask again in a moment/, path);
    assert.equal(res.headers.get('www-authenticate'), null, `${path}: the token is not said to be wrong`);
  }
  assert.equal((await s.store.show('batches', { id: 'person:x', kind: 'person', name: 'x' })).records.length, 0, 'nothing was done');
});

test('a provider whose keys\' address answers with an error: 503 too, the token not called wrong; back up, the token is the person', async (t) => {
  const idp = await provider(t);
  // The provider's keys, served through a door that can be shut (its discovery names the door).
  let down = true;
  const door = createServer((req, res) => {
    if (down) { res.writeHead(500).end('down'); return; }
    void fetch(`${idp.issuer}/jwks`).then(async (r) => res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text()));
  });
  await new Promise<void>((done) => door.listen(0, '127.0.0.1', done));
  t.after(() => new Promise<void>((done) => door.close(() => done())));
  await idp.keysAt(`http://127.0.0.1:${(door.address() as AddressInfo).port}/jwks`);
  const signIn = await discoverSignIn({ issuer: idp.issuer, clientId: idp.clientId });
  const s = await served(t, { app: { signIn } });
  const token = await idp.token(ann);
  const res = await s.call('GET', '/api/lists', { token });
  assert.equal(res.status, 503, res.json.text);
  assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
  assert.match(res.json.text, /could not be checked against the provider's keys now/);
  down = false;
  const up = await s.call('GET', '/api/lists', { token });
  assert.equal(up.status, 200, up.json.text);
});

test('a person\'s access token that expires while its wait is held: the wait is answered 401, never with what changed since', { timeout: 60_000 }, async (t) => {
  const s = await signedInService(t);
  const token = await s.idp.token(ann, { expiresIn: 3 });
  assert.equal((await s.call('GET', '/api/brief', { token })).status, 200);
  const waiting = s.call('POST', '/api/wait', { token, body: { timeout: '30s' } });
  // The provider's token lapsing is what is tested: it is let run out (the provider signs it with its own clock).
  await new Promise((resolve) => setTimeout(resolve, 4500));
  await s.store.add('batches', { title: 'After its expiry' }, { id: 'person:bea', kind: 'person', name: 'Bea' });
  const r = await waiting;
  assert.equal(r.status, 401, r.json.text);
  assert.match(r.json.text, /expired/);
  assert.doesNotMatch(JSON.stringify(r.json), /After its expiry/);
});
