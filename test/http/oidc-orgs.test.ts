/**
 * Two organisations on one signed-in server see nothing of each other through any face: the
 * page's API, REST, MCP, the stream of changes, search, brief and wait — people by their
 * provider's tokens, agents by tokens made in their organisation's binder. And a person's role is
 * their organisation's: the first is its admin, a member cannot grant. Against a real provider
 * process, on the organisations' binders beside a service store: on SQLite (a folder each) and on
 * PostgreSQL (a schema each, in one database of the run's cluster).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createHttpApp } from '../../src/http/app.js';
import { orgsOf } from '../../src/http/listen.js';
import { discoverSignIn } from '../../src/http/oidc.js';
import { openBinders } from '../../src/keeper/binders.js';
import { createKeeper } from '../../src/keeper/keeper.js';
import type { StoreSpec } from '../../src/store/index.js';
import { provider } from '../helpers/oidc-provider.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';
import { HOST } from './kit.js';

const ann = { sub: 'u-ann', name: 'Ann Lee', email: 'ann@acme.test', email_verified: true };
const bob = { sub: 'u-bob', name: 'Bob Roe', email: 'bob@acme.test', email_verified: true };
const zed = { sub: 'u-zed', name: 'Zed Kay', email: 'zed@other.test', email_verified: true };

for (const engine of ['sqlite', 'postgres'] as const) {
  const missing = engine === 'postgres' ? postgresMissing() : null;
  test(`two organisations on one server see nothing of each other: page, REST, MCP, SSE, search, brief, wait; roles are each organisation's [${engine}]`, { timeout: 60_000, ...(missing ? { skip: missing } : {}) }, async (t) => {
    if (engine === 'sqlite') return twoOrganisations(t, { kind: 'sqlite', dir: join(tempDir(t), 'service') });
    const c = await cluster();
    const url = c.database();
    try {
      await twoOrganisations(t, { kind: 'postgres', url });
    } finally {
      // Registered last, so run after the binders' connections are closed.
      t.after(() => dropDatabase(c, url));
    }
  });
}

async function twoOrganisations(t: TestContext, spec: StoreSpec): Promise<void> {
  const idp = await provider(t);
  const signIn = await discoverSignIn({ issuer: idp.issuer, clientId: idp.clientId });
  const binders = await openBinders(spec, { log: () => {} });
  const service = createKeeper({ store: binders.service, sides: [], log: () => {} });
  await service.start();
  await binders.service.markSignIn(signIn.issuer);
  const orgs = orgsOf(binders);
  const { app, close } = createHttpApp({ keeper: service, hosts: ['localhost'], signIn, orgs, onSignIn: orgs.record });
  t.after(async () => {
    await close();
    await service.close();
    await binders.close();
  });
  const call = async (token: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: { ok: boolean; text: string; data: unknown }; raw: string }> => {
    const res = await app.request(path, {
      method,
      headers: { host: HOST, authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream', ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const raw = path.startsWith('/api/changes') ? '' : await res.text();
    if (path.startsWith('/api/changes')) {
      const reader = res.body!.getReader();
      const { value } = await reader.read();
      await reader.cancel();
      return { status: res.status, json: { ok: true, text: new TextDecoder().decode(value), data: null }, raw: new TextDecoder().decode(value) };
    }
    let json = { ok: false, text: raw, data: null as unknown };
    try { json = JSON.parse(raw) as typeof json; } catch { /* not JSON */ }
    return { status: res.status, json, raw };
  };
  const annT = await idp.token(ann);
  const bobT = await idp.token(bob);
  const zedT = await idp.token(zed);

  // Ann is acme's first: its admin. She makes a list, a record, and an agent's token, all in acme's binder.
  assert.equal((await call(annT, 'POST', '/page/api/create-list', { template: 'batches' })).status, 200);
  const added = await call(annT, 'POST', '/api/add', { list: 'Batches', title: 'Acme secret plan' });
  assert.equal(added.status, 200, added.json.text);
  const made = await call(annT, 'POST', '/page/api/token-add', { name: 'Claude' });
  assert.equal(made.status, 200, made.json.text);
  const claude = /binder_[A-Za-z0-9_-]{43}/.exec(JSON.stringify(made.json))![0];
  assert.equal((await call(annT, 'POST', '/page/api/grant', { list: 'batches', agent: 'Claude', access: 'write' })).status, 200);
  // Zed is other's first: its admin; his agent's token is other's.
  assert.equal((await call(zedT, 'POST', '/page/api/create-list', { template: 'tasks', title: 'Other work' })).status, 200);
  const zmade = await call(zedT, 'POST', '/page/api/token-add', { name: 'Claude' });
  const zclaude = /binder_[A-Za-z0-9_-]{43}/.exec(JSON.stringify(zmade.json))![0];
  assert.equal(await binders.tokenOrg(claude), 'acme.test');
  assert.equal(await binders.tokenOrg(zclaude), 'other.test');
  const where = await binders.specOf('acme.test');
  if (spec.kind === 'postgres') assert.equal(where.kind === 'postgres' && where.schema, 'org_acme_test', 'acme\'s binder is a schema of its own');

  const secret = /Acme secret plan|batches/i;
  for (const [who, token] of [['Zed', zedT], ['other\'s agent', zclaude]] as const) {
    for (const [method, path, body] of [
      ['GET', '/api/lists', undefined], ['GET', '/api/search?text=secret', undefined], ['GET', '/api/brief', undefined],
      ['GET', '/api/get?id=1', undefined], ['POST', '/api/wait', { on: '1', timeout: '1s' }],
      ['POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lists', arguments: {} } }],
      ['POST', '/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { text: 'secret' } } }],
      ['GET', '/api/changes', undefined],
    ] as const) {
      const res = await call(token, method, path, body);
      assert.doesNotMatch(res.raw || res.json.text, secret, `${who}: ${method} ${path} shows nothing of acme`);
    }
    if (who === 'Zed') {
      const page = await call(token, 'GET', '/page/api/lists');
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.raw, secret, 'Zed\'s page shows nothing of acme');
    }
  }
  // Acme's agent, in acme's binder, sees acme's record; other's list is not there.
  const seen = await call(claude, 'GET', '/api/search?text=secret');
  assert.match(seen.raw, /Acme secret plan/);
  assert.doesNotMatch((await call(claude, 'GET', '/api/lists')).raw, /Other work/);

  // Bob, acme's second, is a member: he may not grant; Ann makes him an admin, then he may; the last admin stays.
  const denied = await call(bobT, 'POST', '/page/api/grant', { list: 'batches', agent: 'Claude', access: 'read' });
  assert.equal(denied.status, 403, denied.json.text);
  assert.equal((await call(annT, 'POST', '/page/api/set-role', { person: 'bob@acme.test', role: 'admin' })).status, 200);
  assert.equal((await call(bobT, 'POST', '/page/api/grant', { list: 'batches', agent: 'Claude', access: 'read' })).status, 200);
  assert.equal((await call(bobT, 'POST', '/page/api/set-role', { person: 'ann@acme.test', role: 'member' })).status, 200);
  const last = await call(bobT, 'POST', '/page/api/set-role', { person: 'bob@acme.test', role: 'member' });
  assert.equal(last.status, 409, last.json.text);
  // Zed, admin of other, is nobody in acme: his role there is nothing.
  assert.doesNotMatch((await call(zedT, 'GET', '/page/api/people')).raw, /ann@acme|bob@acme/);

  // Bob removes Ann: her provider's token then does nothing anywhere, read or change; what she did stays hers.
  assert.equal((await call(bobT, 'POST', '/page/api/remove-person', { person: 'ann@acme.test' })).status, 200);
  for (const [method, path, body] of [
    ['GET', '/api/lists', undefined], ['POST', '/api/add', { list: 'Batches', title: 'after removal' }],
    ['POST', '/page/api/note', { id: 1, text: 'after removal' }], ['GET', '/page/api/lists', undefined],
    ['POST', '/mcp', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'lists', arguments: {} } }],
  ] as const) {
    const res = await call(annT, method, path, body);
    assert.ok(res.status === 401 || res.status === 403 || /"isError":true/.test(res.raw), `${method} ${path} for a removed person: ${res.status} ${res.raw.slice(0, 200)}`);
    assert.match(res.raw, /removed/i, `${method} ${path} says why`);
  }
  const record = await call(bobT, 'GET', '/api/get?id=1');
  assert.doesNotMatch(record.raw, /after removal/, 'nothing she asked after was done');
  assert.match(record.raw, /Ann Lee <ann@acme\.test>/, 'her history stays, by her name and e-mail');
}
