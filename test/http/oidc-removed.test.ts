/**
 * A person removed from their organisation's binder is signed out at once: their sessions (kept
 * in the service store) end when the removal is made (in the organisation's binder), before they
 * ask anything, and their open stream of changes closes — whether an admin removed them through
 * the page or `binder admin --org … remove-person` did it from another process. Against a real
 * provider process; on SQLite (a folder each) and PostgreSQL (a schema each).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createHttpApp } from '../../src/http/app.js';
import { orgsOf } from '../../src/http/listen.js';
import { discoverSignIn } from '../../src/http/oidc.js';
import { openBinders } from '../../src/keeper/binders.js';
import { createKeeper } from '../../src/keeper/keeper.js';
import type { StoreSpec, Who } from '../../src/store/index.js';
import { provider } from '../helpers/oidc-provider.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';
import { cookiesOf, pendingPair, sessionPair } from './oidc-kit.js';
import { HOST } from './kit.js';

const run = promisify(execFile);
const BIN = join(process.cwd(), 'dist', 'bin', 'binder.js');
const operator: Who = { id: 'person:operator', kind: 'person', name: 'operator' };
const ann = { sub: 'u-ann', name: 'Ann Lee', email: 'ann@acme.test', email_verified: true };
const bob = { sub: 'u-bob', name: 'Bob Roe', email: 'bob@acme.test', email_verified: true };
const cy = { sub: 'u-cy', name: 'Cy Dunn', email: 'cy@acme.test', email_verified: true };

for (const engine of ['sqlite', 'postgres'] as const) {
  const missing = engine === 'postgres' ? postgresMissing() : null;
  test(`a removed person's sessions end and their stream closes at the removal, not at their next request [${engine}]`, { timeout: 60_000, ...(missing ? { skip: missing } : {}) }, async (t) => {
    if (engine === 'sqlite') {
      const dir = join(tempDir(t), 'service');
      return removedAtOnce(t, { kind: 'sqlite', dir }, ['--store', dir]);
    }
    const c = await cluster();
    const url = c.database();
    try {
      await removedAtOnce(t, { kind: 'postgres', url }, null);
    } finally {
      t.after(() => dropDatabase(c, url));
    }
  });
}

async function removedAtOnce(t: TestContext, spec: StoreSpec, cli: string[] | null): Promise<void> {
  const idp = await provider(t);
  const signIn = await discoverSignIn({ issuer: idp.issuer, clientId: idp.clientId });
  const binders = await openBinders(spec, { log: () => {} });
  const service = createKeeper({ store: binders.service, sides: [], log: () => {} });
  await service.start();
  await binders.service.markSignIn(signIn.issuer);
  const orgs = orgsOf(binders);
  const { app, close } = createHttpApp({ keeper: service, hosts: ['localhost'], signIn, orgs, onSignIn: orgs.record });
  const streams: ReadableStreamDefaultReader<Uint8Array>[] = [];
  t.after(async () => {
    for (const s of streams) await s.cancel().catch(() => {});
    await close();
    await service.close();
    await binders.close();
  });

  const signInAs = async (claims: typeof ann): Promise<string> => {
    await idp.as(claims);
    const start = await app.request('/page/oidc/start', { headers: { host: HOST } });
    const pending = pendingPair(start.headers);
    const back = new URL((await fetch(start.headers.get('location')!, { redirect: 'manual' })).headers.get('location')!);
    const res = await app.request(`${back.pathname}${back.search}`, { headers: { host: HOST, cookie: pending } });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    // The session's two halves, as `cookie.pageKey`: the cookie's, and the page's (in the fragment it is sent on to).
    return `${sessionPair(cookiesOf(res.headers))!}.${/#key=([A-Za-z0-9_-]+)/.exec(text)![1]}`;
  };
  const call = (session: string, method: string, path: string, body?: unknown): Promise<Response> => Promise.resolve(app.request(path, {
    method,
    headers: {
      host: HOST, cookie: session.split('.')[0]!, 'binder-page-key': session.split('.')[1]!, origin: `http://${HOST}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }));
  const stream = async (cookie: string): Promise<ReadableStreamDefaultReader<Uint8Array>> => {
    const res = await call(cookie, 'GET', '/page/events');
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    streams.push(reader);
    assert.match(new TextDecoder().decode((await reader.read()).value), /event: ready/);
    return reader;
  };
  /** Reads the stream to its end (true), or false if it is still open after `ms`. */
  const ends = async (reader: ReadableStreamDefaultReader<Uint8Array>, ms = 10_000): Promise<boolean> => {
    const end = Date.now() + ms;
    for (;;) {
      const left = end - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      const read = await Promise.race([
        reader.read().then((r) => r, () => ({ done: true as const, value: undefined })),
        new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), left); }),
      ]);
      clearTimeout(timer);
      if (read === 'late') return false;
      if (read.done) return true;
    }
  };
  const open = async (email: string): Promise<number> => (await binders.service.sessions(operator)).filter((s) => s.email === email).length;

  const annC = await signInAs(ann);
  const bobC = await signInAs(bob);
  const cyC = await signInAs(cy);
  assert.equal((await call(bobC, 'GET', '/page/api/lists')).status, 200);
  const annStream = await stream(annC);
  const bobStream = await stream(bobC);
  const cyStream = await stream(cyC);

  // Ann, acme's admin, removes Bob through the page: his session ends, and his stream closes, before he asks anything.
  const removed = await call(annC, 'POST', '/page/api/remove-person', { person: 'bob@acme.test' });
  assert.equal(removed.status, 200, await removed.text());
  assert.equal(await open('bob@acme.test'), 0, 'Bob\'s session ended with the removal\'s answer');
  assert.equal(await ends(bobStream), true, 'Bob\'s stream is closed');
  const session = await call(bobC, 'GET', '/page/session');
  assert.equal(session.status, 401, 'Bob\'s cookie opens nothing');
  assert.equal((await call(bobC, 'GET', '/page/api/lists')).status, 401);

  // Cy is removed by the machine's operator, from another process (or another connection): the same, at once.
  if (cli) {
    const { stdout } = await run(process.execPath, [BIN, 'admin', '--org', 'acme.test', 'remove-person', 'cy@acme.test', ...cli]);
    assert.match(stdout, /Cy Dunn/);
  } else {
    await (await binders.of('acme.test')).store.removePerson('cy@acme.test', operator);
  }
  assert.equal(await open('cy@acme.test'), 0, 'Cy\'s session ended with the removal');
  assert.equal(await ends(cyStream), true, 'Cy\'s stream is closed');
  assert.equal((await call(cyC, 'GET', '/page/session')).status, 401);

  // Ann stays signed in, her stream open.
  assert.equal(await open('ann@acme.test'), 1);
  assert.equal(await ends(annStream, 300), false, 'Ann\'s stream stays open');
  assert.equal((await call(annC, 'GET', '/page/api/lists')).status, 200);
}
