/**
 * Hostile people and agents at the boundary between two organisations of one signed-in server:
 * what one organisation's person or agent does must neither reach nor hinder the other's binder.
 * Against a real provider process, on the organisations' binders beside a service store (SQLite).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHttpApp } from '../../src/http/app.js';
import { STREAMS_PER_AGENT } from '../../src/http/limits.js';
import { orgsOf } from '../../src/http/listen.js';
import { discoverSignIn } from '../../src/http/oidc.js';
import { openBinders } from '../../src/keeper/binders.js';
import { createKeeper } from '../../src/keeper/keeper.js';
import { provider } from '../helpers/oidc-provider.js';
import { tempDir } from '../helpers/temp.js';
import { HOST } from './kit.js';

const ann = { sub: 'u-ann', name: 'Ann Lee', email: 'ann@acme.test', email_verified: true };
const zed = { sub: 'u-zed', name: 'Zed Kay', email: 'zed@beta.test', email_verified: true };

interface Reply { status: number; text: string; raw: string; res: Response }

async function twoOrgs(t: TestContext) {
  const dir = tempDir(t);
  const idp = await provider(t);
  const signIn = await discoverSignIn({ issuer: idp.issuer, clientId: idp.clientId });
  const binders = await openBinders({ kind: 'sqlite', dir: join(dir, 'service') }, { log: () => {} });
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
  const call = async (token: string, method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await app.request(path, {
      method,
      headers: { host: HOST, authorization: `Bearer ${token}`, origin: `http://${HOST}`, accept: 'application/json, text/event-stream', ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (path.startsWith('/api/changes')) return { status: res.status, text: '', raw: '', res };
    const raw = await res.text();
    let text = raw;
    try { text = (JSON.parse(raw) as { text: string }).text; } catch { /* not JSON */ }
    return { status: res.status, text, raw, res };
  };
  const annT = await idp.token(ann);
  const zedT = await idp.token(zed);
  const tokenOf = (reply: Reply): string => /binder_[A-Za-z0-9_-]{43}/.exec(reply.raw)![0];
  return { dir, binders, call, annT, zedT, tokenOf };
}

test('a signed-in admin cannot register a folder of the server: another organisation\'s agent\'s folder stays its own', { timeout: 60_000 }, async (t) => {
  const { dir, binders, call, annT, zedT } = await twoOrgs(t);
  // Both are their organisation's first person: its admin.
  assert.equal((await call(annT, 'GET', '/page/api/lists')).status, 200);
  assert.equal((await call(zedT, 'GET', '/page/api/lists')).status, 200);
  // Beta's agent's folder, registered by whoever runs the server.
  const folder = join(dir, 'beta-agent');
  mkdirSync(folder);
  const beta = await binders.of('beta.test');
  await beta.store.addSide(folder, 'Claude', { id: 'person:operator', kind: 'person', name: 'operator' });

  // Acme's admin names beta's folder (or any folder of the server) as one of acme's.
  const spy = await call(annT, 'POST', '/page/api/side-add', { dir: folder, name: 'Spy' });
  assert.equal(spy.status, 403, `refused: ${spy.status} ${spy.text}`);
  assert.match(spy.text, /binder admin --org/, 'says who registers a folder, and how');
  const acme = await binders.of('acme.test');
  assert.deepEqual(await acme.store.sides(), [], 'nothing registered in acme');
  const elsewhere = await call(zedT, 'POST', '/page/api/side-add', { dir: join(dir, 'service'), name: 'Spy' });
  assert.equal(elsewhere.status, 403, 'beta\'s admin neither: not even the service\'s own folder');
  // The machine's operator still registers one (binder admin --org), and a signed-in admin removes one.
  const removed = await call(zedT, 'POST', '/page/api/side-remove', { name: 'Claude' });
  assert.equal(removed.status, 200, removed.text);
});

test('one organisation\'s agent holding its streams of changes leaves the other organisation\'s agent of the same name its own', { timeout: 60_000 }, async (t) => {
  const { call, annT, zedT, tokenOf } = await twoOrgs(t);
  const acmeClaude = tokenOf(await call(annT, 'POST', '/page/api/token-add', { name: 'Claude' }));
  const betaClaude = tokenOf(await call(zedT, 'POST', '/page/api/token-add', { name: 'Claude' }));
  const held: Response[] = [];
  t.after(async () => { for (const res of held) await res.body?.cancel(); });
  for (let i = 0; i < STREAMS_PER_AGENT; i++) {
    const { status, res } = await call(betaClaude, 'GET', '/api/changes');
    assert.equal(status, 200);
    held.push(res);
  }
  assert.equal((await call(betaClaude, 'GET', '/api/changes')).status, 429, 'beta\'s agent has its streams');
  const acme = await call(acmeClaude, 'GET', '/api/changes');
  held.push(acme.res);
  assert.equal(acme.status, 200, 'acme\'s agent Claude is not beta\'s: its streams are its own');
});
