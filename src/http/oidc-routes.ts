/**
 * The page's sign-in through the identity provider: `GET /page/oidc/start` sends the browser to
 * the provider (code flow, PKCE S256, state and nonce; the sign-in under way kept in the browser
 * that began it, in a cookie sealed with the store's key — encrypted and authenticated, so that
 * any keeper of the store can finish it and nobody can read or forge it — and nothing written in
 * the store: a flood of starts costs the binder no write, and needs no limit that would lock a
 * person out with it), and `GET /page/oidc/callback` finishes it: the cookie's state is the
 * callback's, the ID token checked, the sign-in marked finished (once), the person and their
 * organisation found, a session opened, the browser sent back to the page. Every refusal is a
 * sentence on a page of its own, and opens nothing. It never puts a secret in a URL of its own
 * nor in a log.
 */
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { timingSafeEqual } from 'node:crypto';
import { EncryptJWT, base64url, jwtDecrypt } from 'jose';
import type { Keeper } from '../keeper/keeper-types.js';
import { PENDING_MS, type PendingSignIn, SESSION_MS, type Who } from '../store/index.js';
import type { HttpEnv } from './auth.js';
import { randomNonce, randomState, randomVerifier, type SignIn } from './oidc.js';
import { refusalOf } from './answers.js';
import { binderMark, cookieName, halves, originOf, overTls, type PersonOptions } from './person.js';

/** The cookie that holds a sign-in under way in the browser that began it (sent back by the provider's redirect: Lax), its binder's own. */
const pendingCookie = (keeper: Keeper): string => `binder_signin_${binderMark(keeper)}`;
const PENDING_PATH = '/page/oidc';
const SEAL = { alg: 'dir', enc: 'A256GCM' } as const;

/** A sign-in under way as its cookie holds it: its state with what it must remember, sealed. */
interface Sealed extends PendingSignIn { state: string; expires: number }

async function seal(key: Uint8Array, pending: Sealed): Promise<string> {
  return new EncryptJWT({ s: pending.state, n: pending.nonce, v: pending.verifier, b: pending.back })
    .setProtectedHeader(SEAL).setExpirationTime(Math.floor(pending.expires / 1000)).encrypt(key);
}

/** The sign-in a cookie holds, if it is one this store sealed, not expired, and for `state`; else null. */
async function unseal(key: Uint8Array, cookie: string | undefined, state: string): Promise<Sealed | null> {
  if (!cookie || cookie.length > 2048 || state.length < 16 || state.length > 200) return null;
  try {
    const { payload } = await jwtDecrypt(cookie, key, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
    const { s, n, v, b, exp } = payload as { s?: unknown; n?: unknown; v?: unknown; b?: unknown; exp?: unknown };
    if (typeof s !== 'string' || typeof n !== 'string' || typeof v !== 'string' || typeof b !== 'string' || typeof exp !== 'number') return null;
    const same = s.length === state.length && timingSafeEqual(Buffer.from(s), Buffer.from(state));
    return same ? { state: s, nonce: n, verifier: v, back: b, expires: exp * 1000 } : null;
  } catch {
    return null;
  }
}

/** What a signed-in person's sign-in does besides opening a session (their organisation's binder records them). */
export type OnSignIn = (who: Who, org: string) => Promise<void>;

const escape = (text: string): string => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A page of its own: a sentence, and a way on. Nothing inline (the CSP allows no inline script nor style). */
function page(c: Context, status: 200 | 400 | 403 | 429 | 502, title: string, text: string, link: { href: string; words: string }, refresh = false): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refresh ? `<meta http-equiv="refresh" content="0;url=${escape(link.href)}">\n` : ''}<title>${escape(title)}</title>
<link rel="stylesheet" href="/page/app.css">
</head>
<body>
<main class="sign-in">
<h1>${escape(title)}</h1>
<p>${escape(text)}</p>
<p><a href="${escape(link.href)}">${escape(link.words)}</a></p>
</main>
</body>
</html>
`;
  return c.html(html, status, { 'Cache-Control': 'no-store' });
}

/** Where to return after signing in: a path of this page's, never another site. */
const backOf = (given: string | undefined): string => (given && /^\/(?![/\\])[\x21-\x7e]{0,200}$/.test(given) ? given : '/');

export function signInRoutes(app: Hono<HttpEnv>, keeper: Keeper, signIn: SignIn, options: PersonOptions, onSignIn?: OnSignIn): void {
  const again = { href: `${PENDING_PATH}/start`, words: `Sign in with ${signIn.provider}` };
  const name = pendingCookie(keeper);
  // The store's sealing key, read once (made when the service started).
  let key: Promise<Uint8Array> | null = null;
  const sealing = (): Promise<Uint8Array> => {
    key ??= keeper.store.signInKey().then((k) => base64url.decode(k));
    key.catch(() => { key = null; });
    return key;
  };

  app.get(`${PENDING_PATH}/start`, async (c) => {
    const secure = overTls(c, options);
    const state = randomState();
    const nonce = randomNonce();
    const verifier = randomVerifier();
    const sealed = await seal(await sealing(), { state, nonce, verifier, back: backOf(c.req.query('back')), expires: Date.now() + PENDING_MS });
    setCookie(c, name, sealed, { httpOnly: true, sameSite: 'Lax', path: PENDING_PATH, secure, maxAge: PENDING_MS / 1000 });
    const to = await signIn.authorizationUrl(`${originOf(c, options)}${PENDING_PATH}/callback`, state, nonce, verifier);
    return c.redirect(to.href, 302);
  });

  app.get(`${PENDING_PATH}/callback`, async (c) => {
    const secure = overTls(c, options);
    const held = getCookie(c, name);
    deleteCookie(c, name, { path: PENDING_PATH, secure });
    const url = new URL(c.req.url);
    const error = url.searchParams.get('error');
    if (error) {
      const said = (url.searchParams.get('error_description') ?? error).replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
      return page(c, 403, 'Not signed in', `${signIn.provider} did not sign you in: ${said}.`, again);
    }
    const state = url.searchParams.get('state') ?? '';
    const pending = await unseal(await sealing(), held, state);
    const notOne = (): Response => page(c, 400, 'Not signed in', 'This sign-in is not one this browser began, was finished already, or took more than 10 minutes: sign in again.', again);
    if (!pending || await keeper.store.signInFinished(state)) return notOne();
    const callback = new URL(`${originOf(c, options)}${PENDING_PATH}/callback${url.search}`);
    const vouched = await signIn.finish(callback, { state, nonce: pending.nonce, verifier: pending.verifier });
    if (!vouched.ok) return page(c, 403, 'Not signed in', vouched.text, again);
    // The provider has answered: now, and only now, the store is written — this sign-in, finished once.
    if (!await keeper.store.finishedSignIn(state, pending.expires)) return notOne();
    try {
      if (onSignIn) await onSignIn(vouched.who, vouched.org);
    } catch (error) {
      const refused = refusalOf(error);
      if (refused) return page(c, 403, 'Not signed in', refused.text, again);
      throw error;
    }
    const made = await keeper.store.openSession(vouched.who, vouched.org, c.req.header('user-agent') ?? '');
    const { cookie, key } = halves(made.cookie);
    setCookie(c, cookieName(secure, keeper), cookie, { httpOnly: true, sameSite: 'Strict', path: '/', secure, maxAge: Math.floor(SESSION_MS / 1000) });
    // Sent on by a page of this server's, not by the redirect the provider began: a Strict cookie
    // goes with a navigation this origin starts, and the page then opens signed in. The page's
    // half of the session goes in the fragment, which no server is sent: the page keeps it.
    const back = `${pending.back.split('#')[0]}#key=${key}`;
    return page(c, 200, 'Signed in', `Signed in as ${vouched.who.name}${vouched.who.email ? ` <${vouched.who.email}>` : ''}.`, { href: back, words: 'Open the page' }, true);
  });
}
