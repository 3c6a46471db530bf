/**
 * The page's sign-in through the identity provider: `GET /page/oidc/start` sends the browser to
 * the provider (code flow, PKCE S256, state and nonce; the sign-in under way kept in the store,
 * where any keeper can finish it, and bound to this browser by a cookie of its own), and
 * `GET /page/oidc/callback` finishes it: the ID token checked, the person and their organisation
 * found, a session opened, the browser sent back to the page. Every refusal is a sentence on a
 * page of its own, and opens nothing. It never puts a secret in a URL of its own nor in a log.
 */
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { randomBytes } from 'node:crypto';
import type { Keeper } from '../keeper/keeper-types.js';
import { SESSION_MS } from '../store/sessions.js';
import type { Who } from '../store/types.js';
import type { HttpEnv } from './auth.js';
import { randomNonce, randomState, randomVerifier, type SignIn } from './oidc.js';
import { refusalOf } from './answers.js';
import { cookieName, halves, originOf, overTls, type PersonOptions } from './person.js';

/** The cookie that ties a sign-in under way to the browser that began it (sent back by the provider's redirect: Lax). */
const PENDING_COOKIE = 'binder_signin';
const PENDING_PATH = '/page/oidc';

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

  app.get(`${PENDING_PATH}/start`, async (c) => {
    const remote = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? 'here';
    const wait = options.rate.take(`signin:${remote}`);
    if (wait > 0) return page(c, 429, 'Too many sign-ins', `Too many sign-ins from here: try again in ${Math.ceil(wait / 1000)} s.`, again);
    const secure = overTls(c, options);
    const state = randomState();
    const nonce = randomNonce();
    const verifier = randomVerifier();
    const browser = randomBytes(32).toString('base64url');
    await keeper.store.beginSignIn(state, browser, { nonce, verifier, back: backOf(c.req.query('back')) });
    setCookie(c, PENDING_COOKIE, browser, { httpOnly: true, sameSite: 'Lax', path: PENDING_PATH, secure, maxAge: 600 });
    const to = await signIn.authorizationUrl(`${originOf(c, options)}${PENDING_PATH}/callback`, state, nonce, verifier);
    return c.redirect(to.href, 302);
  });

  app.get(`${PENDING_PATH}/callback`, async (c) => {
    const secure = overTls(c, options);
    const browser = getCookie(c, PENDING_COOKIE);
    deleteCookie(c, PENDING_COOKIE, { path: PENDING_PATH, secure });
    const url = new URL(c.req.url);
    const error = url.searchParams.get('error');
    if (error) {
      const said = (url.searchParams.get('error_description') ?? error).replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
      return page(c, 403, 'Not signed in', `${signIn.provider} did not sign you in: ${said}.`, again);
    }
    const state = url.searchParams.get('state') ?? '';
    const pending = browser ? await keeper.store.finishSignIn(state, browser) : null;
    if (!pending) {
      return page(c, 400, 'Not signed in', 'This sign-in is not one this browser began, was finished already, or took more than 10 minutes: sign in again.', again);
    }
    const callback = new URL(`${originOf(c, options)}${PENDING_PATH}/callback${url.search}`);
    const vouched = await signIn.finish(callback, { state, nonce: pending.nonce, verifier: pending.verifier });
    if (!vouched.ok) return page(c, 403, 'Not signed in', vouched.text, again);
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
