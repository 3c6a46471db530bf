/**
 * What the page must refuse, in Chromium against a real server: a browser without a session sees
 * how to sign in and no data; a link opens one session only; an agent's token never opens the
 * page's routes; a page of another origin cannot change the binder with the person's cookie, nor
 * can a server on another port of the host that the browser sends it to; a hostile title, note or
 * link is shown as text, never run or followed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { axe, browser, loginLink, newPage, serve, shot, signedIn } from './kit.js';

test('without a session the page explains how to sign in and gives no data; a used link signs no one in', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('add', 'Batches', 'Hidden from strangers');
  const { page } = await newPage(await browser(t));
  await page.goto(server.url);
  await page.getByText(/Not signed in|This page is a person's/).first().waitFor();
  assert.doesNotMatch(await page.content(), /Hidden from strangers|Batches/);
  const asked = await page.evaluate(async () => {
    const res = await fetch('/page/api/show?list=batches');
    return { status: res.status, body: await res.json() as { data: unknown } };
  });
  assert.equal(asked.status, 401);
  assert.equal(asked.body.data, null);
  await shot(page, '10-sign-in');
  await axe(page, 'the sign-in page');

  const link = loginLink(server);
  const first = await newPage(await browser(t));
  await first.page.goto(link);
  await first.page.getByText('Signed in as Ann').waitFor();
  const second = await newPage(await browser(t));
  await second.page.goto(link);
  await second.page.getByText(/did not sign you in/).waitFor();
  assert.doesNotMatch(await second.page.content(), /Hidden from strangers/);
});

test('an agent\'s token is refused on the page\'s routes; a foreign Origin cannot change the binder with the person\'s cookie', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  const token = server.admin('token', 'add', 'Claude').out.split('\n')[0]!;
  server.admin('grant', 'Batches', 'Claude', 'write');
  for (const path of ['/', '/page/api/lists', '/page/session', '/page/events']) {
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 403, `${path} with an agent's token`);
  }
  const approve = await fetch(`${server.url}/page/api/approve`, { method: 'POST', headers: { authorization: `Bearer ${token}`, origin: server.url }, body: '{"id":1}' });
  assert.equal(approve.status, 403);

  const page = await signedIn(t, server);
  await page.getByRole('heading', { name: /^Batches/ }).waitFor();
  // Another origin on the same machine (same site: the cookie goes with its requests), whose
  // script tries a change the simplest way a browser sends one across origins.
  const evil = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>evil</title><script>
      fetch(${JSON.stringify(`${server.url}/page/api/add`)}, { method: 'POST', mode: 'no-cors', credentials: 'include',
        headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ list: 'batches', title: 'Planted by another site' }) })
        .then(() => { document.title = 'sent'; }, () => { document.title = 'sent'; });
    </script>`);
  });
  await new Promise<void>((done) => evil.listen(0, '127.0.0.1', done));
  t.after(() => new Promise<void>((done) => evil.close(() => done())));
  const other = await page.context().newPage();
  await other.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
  await other.waitForFunction(() => document.title === 'sent');
  const cookies = await page.context().cookies(server.url);
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const foreign = await fetch(`${server.url}/page/api/add`, { method: 'POST', headers: { cookie, origin: 'http://evil.example' }, body: JSON.stringify({ list: 'batches', title: 'Planted with a foreign Origin' }) });
  assert.equal(foreign.status, 403);
  const none = await fetch(`${server.url}/page/api/add`, { method: 'POST', headers: { cookie }, body: JSON.stringify({ list: 'batches', title: 'Planted without an Origin' }) });
  assert.equal(none.status, 403);
  assert.doesNotMatch(server.admin('show', 'Batches').out, /Planted/, 'nothing was added');
  const cookieSet = cookies.find((c) => /^binder_session_[0-9a-f]{12}$/.test(c.name));
  assert.ok(cookieSet?.httpOnly, 'HttpOnly');
  assert.equal(cookieSet?.sameSite, 'Strict');
});

test('a server an agent runs on another port of the host is sent the person\'s cookie by the browser, and can do nothing with it', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('add', 'Batches', 'The agent\'s own work');
  const page = await signedIn(t, server);
  // The agent's server: a report it attached as a link, on the same host, another port.
  const heard: string[] = [];
  const agentServer = createServer((req, res) => {
    heard.push(req.headers.cookie ?? '');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>the report</p>');
  });
  await new Promise<void>((resolve) => agentServer.listen(0, '127.0.0.1', resolve));
  t.after(() => agentServer.close());
  const host = new URL(server.url).hostname;
  const report = await page.context().newPage();
  await report.goto(`http://${host}:${(agentServer.address() as AddressInfo).port}/report`);
  const cookie = heard.map((h) => /binder_session_[0-9a-f]{12}=[^;]+/.exec(h)?.[0]).find(Boolean);
  assert.ok(cookie, 'the browser sent the session\'s cookie to the other port');
  // Replayed with the binder's own Origin, as any program may send it.
  const replay = async (method: string, path: string, body?: unknown): Promise<number> => (await fetch(`${server.url}${path}`, {
    method, headers: { cookie: cookie!, origin: server.url, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}),
  })).status;
  assert.equal(await replay('POST', '/page/api/approve', { id: 1 }), 401);
  assert.equal(await replay('POST', '/page/api/token-add', { name: 'Ann' }), 401);
  assert.equal(await replay('GET', '/page/api/show?list=batches'), 401);
  assert.equal(await replay('GET', '/page/api/brief'), 401);
  assert.doesNotMatch(server.admin('get', '1').out, /approved by/i, 'nothing approved');
  // The page itself is still signed in, and acts.
  await page.reload();
  await page.getByText('Signed in as Ann').waitFor();
});

test('a hostile title, note and link are shown as text, never run nor followed', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  const title = '<img src=x onerror="document.title=\'pwned\'"><b>bold</b>';
  assert.equal(server.admin('add', 'Batches', title, '--note', '<script>document.title="pwned"</script>').code, 0);
  assert.equal(server.admin('attach', '1', 'link', 'javascript:document.title="pwned"', 'click me').code, 0);
  assert.equal(server.admin('attach', '1', 'link', 'https://example.com/a?b=<c>', 'real').code, 0);
  const page = await signedIn(t, server);
  const card = page.locator('.card', { hasText: 'onerror' });
  await card.waitFor();
  assert.equal(await card.locator('img, b').count(), 0, 'no element made from the title');
  assert.ok((await card.innerText()).includes(title));
  await card.click();
  await page.getByRole('heading', { name: /onerror/ }).waitFor();
  assert.equal(await page.locator('.record img, .record script, .record b').count(), 0);
  assert.ok((await page.locator('.notes').innerText()).includes('<script>document.title="pwned"</script>'));
  assert.equal(await page.locator('a[href^="javascript"]').count(), 0, 'a javascript: address is no link');
  const real = page.locator('.attached a');
  assert.equal(await real.count(), 1);
  assert.equal(await real.innerText(), await real.getAttribute('href'), 'a link shows its real address');
  assert.notEqual(await page.title(), 'pwned');
  await shot(page, '11-hostile-text');
});

test('two binders on one host, one browser: signing in to the second leaves the first signed in (each its own cookie)', { timeout: 90_000 }, async (t) => {
  const first = await serve(t);
  const second = await serve(t);
  first.admin('create-list', 'Batches', '--template', 'batches');
  second.admin('create-list', 'Tasks', '--template', 'tasks');
  const page = await signedIn(t, first);
  const other = await page.context().newPage();
  await other.goto(loginLink(second));
  await other.getByText('Signed in as Ann').waitFor({ timeout: 10_000 });
  await page.reload();
  await page.getByText('Signed in as Ann').waitFor({ timeout: 10_000 });
  await page.getByText('Batches').first().waitFor({ timeout: 10_000 });
  const names = (await page.context().cookies(first.url)).map((c) => c.name).filter((name) => name.startsWith('binder_session'));
  assert.equal(new Set(names).size, 2, `a cookie each: ${names.join(', ')}`);
});
