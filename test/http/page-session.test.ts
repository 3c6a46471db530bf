/**
 * The person's routes of the HTTP face, without a socket: a login link opens a session once (an
 * HttpOnly, SameSite=Strict cookie; Secure and __Host- under TLS); without a session the page
 * says how to sign in and gives no data; an agent's token never opens the page; a change needs
 * the server's own Origin; the person's operations are done as the session's person, whatever
 * the body says; every answer carries the CSP.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ann, HOST, served, type Served } from './kit.js';

const ORIGIN = `http://${HOST}`;

/** What a signed-in page sends: its session's two halves, the cookie and the page's own header. */
interface Session { cookie: string; 'binder-page-key': string }

async function signIn(s: Served, name = 'Ann', options: { tls?: boolean } = {}): Promise<Session> {
  const link = await s.store.addLoginLink(name, ann);
  const res = await s.http.app.request('/page/login', {
    method: 'POST', headers: { host: HOST, origin: options.tls ? `https://${HOST}` : ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ key: link.key }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  const cookie = res.headers.get('set-cookie') ?? '';
  const key = ((await res.json()) as { data: { key: string } }).data.key;
  return { cookie: cookie.split(';')[0]!, 'binder-page-key': key };
}

const page = (s: Served, method: string, path: string, session: Partial<Session> | null, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
  s.call(method, path, {
    token: null,
    ...(options.body !== undefined ? { body: options.body } : {}),
    headers: { ...(session ?? {}), ...(method === 'POST' ? { origin: ORIGIN } : {}), ...options.headers },
  });

test('a login link signs a browser in once, with an HttpOnly SameSite=Strict cookie; without it, no data', async (t) => {
  const s = await served(t);
  const shell = await s.http.app.request('/', { headers: { host: HOST } });
  assert.equal(shell.status, 200);
  const html = await shell.text();
  assert.match(html, /Not signed in/);
  assert.match(shell.headers.get('content-security-policy') ?? '', /default-src 'none'; script-src 'self'.*frame-ancestors 'none'/);
  assert.equal(shell.headers.get('x-content-type-options'), 'nosniff');
  assert.doesNotMatch(html, /<script>|style=/, 'nothing inline');
  const none = await page(s, 'GET', '/page/api/lists', null);
  assert.equal(none.status, 401);
  assert.equal(none.json.data, null);
  assert.match(none.json.text, /login link/);

  const link = await s.store.addLoginLink('Ann', ann);
  const login = (): Promise<Response> => Promise.resolve(s.http.app.request('/page/login', {
    method: 'POST', headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json' }, body: JSON.stringify({ key: link.key }),
  }));
  const first = await login();
  assert.equal(first.status, 200);
  const set = first.headers.get('set-cookie') ?? '';
  assert.match(set, /^binder_session_[0-9a-f]{12}=[A-Za-z0-9_-]{22};/);
  assert.match(set, /HttpOnly/);
  assert.match(set, /SameSite=Strict/);
  assert.match(set, /Path=\//);
  assert.doesNotMatch(set, /Secure/);
  assert.equal((await login()).status, 403, 'a link is one use');
  const key = ((await first.clone().json()) as { data: { key: string } }).data.key;
  assert.match(key, /^[A-Za-z0-9_-]{21}$/, 'the page\'s half of the session');
  const cookie = { cookie: set.split(';')[0]!, 'binder-page-key': key };
  const lists = await page(s, 'GET', '/page/api/lists', cookie);
  assert.equal(lists.status, 200);
  assert.ok(Array.isArray(lists.json.data));
  const me = await page(s, 'GET', '/page/session', cookie);
  assert.equal((me.json.data as { person: { name: string } }).person.name, 'Ann');
  assert.match(await (await s.http.app.request('/', { headers: { host: HOST, cookie: cookie.cookie } })).text(), /<div id="root"><\/div>/);

  assert.equal((await page(s, 'POST', '/page/logout', cookie)).status, 200);
  assert.equal((await page(s, 'GET', '/page/api/lists', cookie)).status, 401, 'signed out');
});

test('the session\'s cookie alone opens nothing: a server on another port of the host, sent it by the browser, cannot act as the person', async (t) => {
  const s = await served(t);
  const session = await signIn(s);
  // What a browser sends to any port of the host: the cookie, never the page's storage.
  const cookieAlone = { cookie: session.cookie };
  const id = (await s.call('POST', '/api/add', { body: { list: 'Batches', title: 'The agent\'s own' } })).json.data as { id: number };
  for (const [method, path, body] of [['POST', '/page/api/approve', { id: id.id }], ['POST', '/page/api/grant', { list: 'hidden', agent: 'Claude', access: 'write' }],
    ['POST', '/page/api/token-add', { name: 'Ann' }], ['GET', '/page/api/brief', undefined], ['GET', '/page/api/lists', undefined], ['GET', '/page/session', undefined]] as const) {
    const res = await page(s, method, path, cookieAlone, body !== undefined ? { body } : {});
    assert.equal(res.status, 401, `${method} ${path}: ${res.json.text}`);
  }
  const stream = await s.http.app.request('/page/events', { headers: { host: HOST, cookie: session.cookie } });
  assert.equal(stream.status, 401, 'nor the stream of changes');
  const wrongHalf = await page(s, 'GET', '/page/api/lists', { ...cookieAlone, 'binder-page-key': 'A'.repeat(21) });
  assert.equal(wrongHalf.status, 401);
  assert.equal((await s.store.get(id.id, ann)).record.approved, null, 'nothing approved');
  assert.equal((await s.store.tokens(ann)).length, 1, 'no token made');
  assert.equal((await page(s, 'GET', '/page/api/lists', session)).status, 200, 'the page, with both halves, is signed in');
});

test('an agent\'s token never opens the page, and a session never answers for an agent', async (t) => {
  const s = await served(t);
  const cookie = await signIn(s);
  const token = s.tokens.Claude!;
  for (const path of ['/page/api/lists', '/page/session', '/']) {
    const withToken = await s.call('GET', path, { token });
    assert.equal(withToken.status, 403, path);
    const both = await s.call('GET', path, { token, headers: { ...cookie } });
    assert.equal(both.status, 403, `${path} with a token and a cookie`);
  }
  const approve = await s.call('POST', '/page/api/approve', { token, body: { id: 1 }, headers: { origin: ORIGIN } });
  assert.equal(approve.status, 403);
  const agentRoute = await s.call('GET', '/api/lists', { token: null, headers: { ...cookie } });
  assert.equal(agentRoute.status, 401, 'a cookie is nobody on the agents\' routes');
});

test('a change needs the session and the server\'s own Origin; it is done as the session\'s person', async (t) => {
  const s = await served(t);
  const cookie = await signIn(s, 'Bea');
  const add = { list: 'Batches', title: 'From the page', as: 'person:Ann', who: { id: 'person:Ann', kind: 'person', name: 'Ann' } };
  const noOrigin = await s.call('POST', '/page/api/add', { token: null, body: add, headers: { ...cookie } });
  assert.equal(noOrigin.status, 403);
  assert.match(noOrigin.json.text, /Origin/);
  const foreign = await s.call('POST', '/page/api/add', { token: null, body: add, headers: { ...cookie, origin: 'http://evil.example' } });
  assert.equal(foreign.status, 403);
  const noSession = await page(s, 'POST', '/page/api/add', null, { body: add });
  assert.equal(noSession.status, 401);
  assert.equal((await s.store.show('batches', ann)).records.length, 0, 'nothing was added');
  const done = await page(s, 'POST', '/page/api/add', cookie, { body: add });
  assert.equal(done.status, 200, done.json.text);
  const id = (done.json.data as { id: number }).id;
  const approved = await page(s, 'POST', '/page/api/approve', cookie, { body: { id } });
  assert.equal(approved.status, 200);
  const record = await s.store.get(id, ann);
  assert.equal(record.record.approved?.by.id, 'person:Bea', 'approved by the session\'s person, not by whom the body named');
  assert.ok(record.history.every((h) => h.by.id === 'person:Bea'));
  const get = await page(s, 'GET', `/page/api/get?id=${id}`, cookie);
  assert.equal((get.json.data as { record: { title: string } }).record.title, 'From the page');
  const refused = await page(s, 'POST', '/page/api/move', cookie, { body: { id, state: 'Nowhere' } });
  assert.equal(refused.json.ok, false);
  assert.ok(refused.status >= 400 && refused.status < 500);
  const french = await page(s, 'POST', '/page/api/move', cookie, { body: { id, state: 'Nowhere' }, headers: { 'binder-lang': 'fr' } });
  assert.match(french.json.text, /état|aucun/i);
  assert.equal((await page(s, 'GET', '/page/api/approve?id=1', cookie)).status, 405);
  assert.equal((await page(s, 'GET', '/page/api/nothing', cookie)).status, 404);
});

test('under TLS the cookie is __Host- and Secure', async (t) => {
  const s = await served(t, { app: { tls: true } });
  const cookie = await signIn(s, 'Ann', { tls: true });
  assert.match(cookie.cookie, /^__Host-binder_session_[0-9a-f]{12}=/);
  const link = await s.store.addLoginLink('Ann', ann);
  const res = await s.http.app.request('/page/login', {
    method: 'POST', headers: { host: HOST, origin: `https://${HOST}`, 'content-type': 'application/json' }, body: JSON.stringify({ key: link.key }),
  });
  assert.match(res.headers.get('set-cookie') ?? '', /Secure/);
});

test('the page\'s stream says "changed" when an agent changes the binder', async (t) => {
  const s = await served(t);
  const cookie = await signIn(s);
  const res = await s.http.app.request(`/page/events?key=${cookie['binder-page-key']}`, { headers: { host: HOST, cookie: cookie.cookie } });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  const until = async (pattern: RegExp): Promise<void> => {
    const deadline = Date.now() + 5000;
    while (!pattern.test(seen)) {
      if (Date.now() > deadline) throw new Error(`not seen: ${pattern} in ${seen}`);
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      seen += decoder.decode(value);
    }
  };
  await until(/event: ready/);
  const added = await s.call('POST', '/api/add', { body: { list: 'Batches', title: 'By the agent' } });
  assert.equal(added.status, 200);
  await until(/event: changed/);
  await reader.cancel();
});

test('signed out through this server, a page\'s stream is told at once and ends (no wait for its next ping)', async (t) => {
  const s = await served(t);
  const cookie = await signIn(s);
  const other = await signIn(s);
  const open = async (who: Session) => {
    const res = await s.http.app.request(`/page/events?key=${who['binder-page-key']}`, { headers: { host: HOST, cookie: who.cookie } });
    assert.equal(res.status, 200);
    return res.body!.getReader();
  };
  const [mine, theirs] = [await open(cookie), await open(other)];
  const decoder = new TextDecoder();
  // A read left waiting when the time is up is the next call's: no chunk is lost between calls.
  const waiting = new Map<ReadableStreamDefaultReader<Uint8Array>, Promise<ReadableStreamReadResult<Uint8Array>>>();
  const readAll = async (reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<{ text: string; ended: boolean }> => {
    let text = '';
    const deadline = Date.now() + ms;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return { text, ended: false };
      const read = waiting.get(reader) ?? reader.read();
      waiting.set(reader, read);
      const next = await Promise.race([read, new Promise<null>((resolve) => setTimeout(() => resolve(null), left))]);
      if (next === null) return { text, ended: false };
      waiting.delete(reader);
      if (next.done) return { text, ended: true };
      text += decoder.decode(next.value);
    }
  };
  assert.match((await readAll(mine, 300)).text, /event: ready/);
  assert.match((await readAll(theirs, 300)).text, /event: ready/);
  assert.equal((await page(s, 'POST', '/page/logout', cookie)).status, 200);
  const after = await readAll(mine, 2000);
  assert.ok(after.ended, `the signed-out page's stream ended within 2 s: ${after.text}`);
  assert.match(after.text, /event: changed/);
  const still = await readAll(theirs, 300);
  assert.equal(still.ended, false, 'another session\'s stream goes on');
  await theirs.cancel();
  assert.equal((await page(s, 'GET', '/page/api/lists', cookie)).status, 401, 'the page, reading again, is refused');
});

test('the page\'s webhooks: an admin reads each hook\'s last try and latest deliveries, with no secret', async (t) => {
  const s = await served(t);
  const made = await s.store.addHook({ url: 'http://127.0.0.1:9/hook', events: ['proposed'] }, ann);
  const admin = await signIn(s);
  const seen = await page(s, 'GET', '/page/webhooks', admin);
  assert.equal(seen.status, 200);
  const hooks = seen.json.data as { url: string; last: unknown; waiting: number; recent: unknown[] }[];
  assert.deepEqual(hooks.map((h) => [h.url, h.last, h.waiting, h.recent]), [['http://127.0.0.1:9/hook', null, 0, []]], 'with its latest deliveries: none yet');
  assert.doesNotMatch(JSON.stringify(seen.json), new RegExp(made.secret), 'no secret');
});
