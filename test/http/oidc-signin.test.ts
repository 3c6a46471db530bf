/**
 * Signing in through a provider (OpenID Connect) over HTTP, against a real provider process on
 * loopback: the code flow with PKCE (S256), state and nonce; the ID token checked; the person's
 * Who (issuer host and subject, name, e-mail) and organisation in the session; a sign-in finished
 * once, by the browser that began it (held there, sealed: its start writes nothing in the store,
 * and a flood of starts locks no one out); refusals that open nothing; sign-out; no login links.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOST } from './kit.js';
import { pendingPair, sessionPair, signedInService, walkSignIn } from './oidc-kit.js';

test('the start sends the browser to the provider with a PKCE S256 challenge, a state and a nonce; the browser holds the sign-in sealed, none of it readable', async (t) => {
  const s = await signedInService(t);
  const res = await s.http.app.request('/page/oidc/start', { headers: { host: HOST } });
  assert.equal(res.status, 302);
  const to = new URL(res.headers.get('location')!);
  assert.equal(`${to.origin}`, s.idp.issuer);
  assert.equal(to.searchParams.get('code_challenge_method'), 'S256');
  assert.match(to.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
  assert.ok((to.searchParams.get('state') ?? '').length >= 32);
  assert.ok((to.searchParams.get('nonce') ?? '').length >= 32);
  assert.equal(to.searchParams.get('redirect_uri'), `http://${HOST}/page/oidc/callback`);
  assert.equal(to.searchParams.get('scope'), 'openid email profile');
  const cookie = res.headers.getSetCookie().join('\n');
  assert.match(cookie, /binder_signin_[0-9a-f]{12}=[A-Za-z0-9_.-]{100,}; Max-Age=600; Path=\/page\/oidc; HttpOnly; SameSite=Lax/);
  const sealed = pendingPair(res.headers).split('=')[1]!;
  for (const part of sealed.split('.')) {
    const opened = Buffer.from(part, 'base64url').toString('latin1');
    for (const secret of [to.searchParams.get('state')!, to.searchParams.get('nonce')!]) assert.ok(!opened.includes(secret) && !part.includes(secret), 'nothing of it in clear');
  }
});

test('a sign-in opens a session for the person the provider vouched for: their Who, e-mail and organisation', async (t) => {
  const s = await signedInService(t);
  const walk = await walkSignIn(s);
  assert.equal(walk.status, 200, walk.text);
  assert.match(walk.text, /Signed in as Ann Lee &#60;ann@acme\.test&#62;/);
  assert.match(walk.text, /<meta http-equiv="refresh" content="0;url=\/#key=[A-Za-z0-9_-]{21}">/);
  const session = sessionPair(walk.cookies);
  assert.ok(session, 'a session cookie');
  const cookieAlone = await s.call('GET', '/page/session', { token: null, headers: { cookie: session! } });
  assert.equal(cookieAlone.status, 401, 'the cookie alone opens nothing: the page\'s half of the session comes with it');
  const me = await s.call('GET', '/page/session', { token: null, headers: walk.page });
  assert.equal(me.status, 200);
  assert.deepEqual((me.json.data as { person: unknown }).person, { id: `person:${new URL(s.idp.issuer).host}/u-ann`, name: 'Ann Lee', email: 'ann@acme.test' });
  assert.equal((me.json.data as { org: string }).org, 'acme.test');
  const lists = await s.call('GET', '/page/api/lists', { token: null, headers: walk.page });
  assert.equal(lists.status, 200);
  // Sign-out ends it, and says where to sign out of the provider too.
  const out = await s.call('POST', '/page/logout', { token: null, headers: { ...walk.page, origin: `http://${HOST}` } });
  assert.match(out.json.text, /Signed out of this binder\. To sign out of localhost:\d+ too: http:\/\/localhost:\d+\/endsession\?/);
  const after = await s.call('GET', '/page/api/lists', { token: null, headers: walk.page });
  assert.equal(after.status, 401);
  assert.match(after.json.text, /choose "Sign in with localhost:\d+"/);
});

test('a callback is finished once, only by the browser that began it', async (t) => {
  const s = await signedInService(t);
  // A cookie of the right name that this binder never sealed: forged, or another store's.
  const named = pendingPair((await s.http.app.request('/page/oidc/start', { headers: { host: HOST } })).headers).split('=')[0];
  const stranger = await walkSignIn(s, { cookie: `${named}=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA` });
  assert.equal(stranger.status, 400);
  assert.match(stranger.text, /not one this browser began/);
  assert.equal(sessionPair(stranger.cookies), undefined);
  const none = await walkSignIn(s, { cookie: null });
  assert.equal(none.status, 400);
  const walk = await walkSignIn(s);
  assert.equal(walk.status, 200);
  const again = await s.http.app.request(walk.callback, { headers: { host: HOST, cookie: walk.pending } });
  assert.equal(again.status, 400, 'the same callback again opens nothing');
  assert.equal(again.headers.getSetCookie().some((c) => /^binder_session_[0-9a-f]{12}=[^;]/.test(c)), false);
});

test('an ID token with another nonce, for another audience, or from another issuer opens no session', async (t) => {
  const s = await signedInService(t);
  for (const [what, change] of [
    ['nonce', { nonce: 'not-the-one' }],
    ['audience', { aud: 'another-client' }],
    ['issuer', { iss: 'http://localhost:1' }],
  ] as const) {
    await s.idp.changeIdTokens(change);
    const walk = await walkSignIn(s);
    await s.idp.changeIdTokens(null);
    assert.equal(walk.status, 403, `${what}: ${walk.text}`);
    assert.match(walk.text, /Not signed in: the provider&#39;s answer was refused/);
    assert.equal(sessionPair(walk.cookies), undefined, what);
  }
});

test('the organisation: a claim named by --oidc-org-claim, else a verified e-mail\'s domain; none, or one not admitted, is refused', async (t) => {
  const s = await signedInService(t, { orgClaim: 'org', allowOrgs: ['acme', 'acme.test'] });
  await s.idp.as({ sub: 'u-1', name: 'Ann', email: 'ann@acme.test', email_verified: true, org: 'ACME' });
  const named = await walkSignIn(s);
  assert.equal(named.status, 200);
  const me = await s.call('GET', '/page/session', { token: null, headers: named.page });
  assert.equal((me.json.data as { org: string }).org, 'acme');
  await s.idp.as({ sub: 'u-2', name: 'Bob', email: 'bob@acme.test', email_verified: false });
  const unverified = await walkSignIn(s);
  assert.equal(unverified.status, 403);
  assert.match(unverified.text, /no &#34;org&#34; claim\) and no verified e-mail address/);
  await s.idp.as({ sub: 'u-3', name: 'Eve', email: 'eve@evil.test', email_verified: true });
  const other = await walkSignIn(s);
  assert.equal(other.status, 403);
  assert.match(other.text, /the organisation &#34;evil\.test&#34; may not use this binder/);
  assert.equal(sessionPair(other.cookies), undefined);
});

test('where people sign in through a provider, a login link opens nothing and the page offers the provider alone', async (t) => {
  const s = await signedInService(t);
  const res = await s.call('POST', '/page/login', { token: null, body: { key: 'A'.repeat(43) }, headers: { origin: `http://${HOST}` } });
  assert.equal(res.status, 403);
  assert.match(res.json.text, /signs people in through localhost:\d+: there are no login links/);
  const shell = await s.http.app.request('/', { headers: { host: HOST } });
  const html = await shell.text();
  assert.match(html, /<a class="sign-in-button" href="\/page\/oidc\/start">Sign in with localhost:\d+<\/a>/);
  assert.doesNotMatch(html, /login-link/);
  const session = await s.call('GET', '/page/session', { token: null });
  assert.equal(session.status, 401);
  assert.deepEqual((session.json.data as { signIn: unknown }).signIn, { provider: new URL(s.idp.issuer).host, start: '/page/oidc/start' });
});

test('the code is exchanged with the PKCE verifier the start made: a provider that asks for it (as a strict one does) signs the person in', async (t) => {
  const s = await signedInService(t);
  // The tests' provider is a strict one: a code given for a challenge is exchanged only with its verifier.
  const walk = await walkSignIn(s);
  assert.equal(walk.status, 200, walk.text);
  const verifiers = await s.idp.verifiers();
  assert.ok(verifiers.length >= 1, 'the verifier was sent with the code');
  assert.match(verifiers[0]!, /^[A-Za-z0-9_-]{43,128}$/);
  assert.equal(new Set(verifiers).size, 1);
});

test('another browser sent a sign-in\'s callback (its state and code seen, replayed) opens nothing and does not spoil it: the browser that began it still finishes it', async (t) => {
  const s = await signedInService(t);
  const start = await s.http.app.request('/page/oidc/start', { headers: { host: HOST } });
  const pending = pendingPair(start.headers);
  const back = new URL((await fetch(start.headers.get('location')!, { redirect: 'manual' })).headers.get('location')!);
  const callback = `${back.pathname}${back.search}`;
  // The stranger began a sign-in of his own: his browser has a sign-in cookie, not this one.
  const his = await s.http.app.request('/page/oidc/start', { headers: { host: HOST } });
  const stolen = await s.http.app.request(callback, { headers: { host: HOST, cookie: pendingPair(his.headers) } });
  assert.equal(stolen.status, 400);
  assert.equal(stolen.headers.getSetCookie().some((c) => /^binder_session_[0-9a-f]{12}=[^;]/.test(c)), false);
  const own = await s.http.app.request(callback, { headers: { host: HOST, cookie: pending } });
  assert.equal(own.status, 200, await own.text());
  assert.ok(own.headers.getSetCookie().some((c) => /^binder_session_[0-9a-f]{12}=[A-Za-z0-9_-]{22};/.test(c)), 'the rightful browser is signed in');
});

test('a sign-in\'s start writes nothing to the store, and a flood of starts from one address leaves a person\'s sign-in open', async (t) => {
  // A rate small enough that the flood below would pass any limit per address many times over.
  const s = await signedInService(t, {}, { rate: { perSecond: 1, burst: 5 } });
  const changes = (): number => s.store.db.prepare('SELECT total_changes()').pluck().get() as number;
  const before = changes();
  const starts = await Promise.all(Array.from({ length: 50 }, () => s.http.app.request('/page/oidc/start', { headers: { host: HOST } })));
  assert.deepEqual([...new Set(starts.map((r) => r.status))], [302]);
  assert.equal(changes(), before, 'no row written for a sign-in under way');
  const walk = await walkSignIn(s);
  assert.equal(walk.status, 200, walk.text);
  assert.ok(sessionPair(walk.cookies), 'the person is signed in');
  assert.ok(changes() > before, 'written once the provider answered: the sign-in finished, the session');
});
