/**
 * Who a person is over HTTP, in one place: the resolver from a request to the person of its
 * session cookie (a login link opened it), and the routes that open and close a session. A sign-in
 * method added later (OpenID Connect) opens sessions beside the login link and is resolved here
 * too. An agent's token never makes a person: a page request that carries one is refused, and
 * nothing a request says of who it is is believed.
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { Keeper } from '../keeper/keeper-types.js';
import { SESSION_MS } from '../store/sessions.js';
import type { Who } from '../store/types.js';
import { jsonOf, refuse, refusalOf } from './answers.js';
import type { HttpEnv } from './auth.js';
import type { RateLimit } from './rate.js';

export interface Person { who: Who; session: string; cookie: string }

/** The cookie's name: under TLS, `__Host-` binds it to this origin and to Secure. */
export const cookieName = (secure: boolean): string => (secure ? '__Host-binder_session' : 'binder_session');

export const SIGN_IN = 'Not signed in: this page is a person\'s. Open a login link from binder admin login-link '
  + '(the screen and binder serve --http show one at start): it signs this browser in.';

/** Does this request reach the browser over TLS (the server's own, or a proxy's said by it)? */
export function overTls(c: Context, options: { tls: boolean; behindProxy: boolean }): boolean {
  if (options.tls) return true;
  return options.behindProxy && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/** The person a request is, by its session cookie; null for anyone else. The one resolver. */
export async function personOf(keeper: Keeper, c: Context, secure: boolean): Promise<Person | null> {
  const cookie = getCookie(c, cookieName(secure));
  if (!cookie) return null;
  const check = await keeper.store.checkSession(cookie);
  return check.ok ? { who: check.who, session: check.id, cookie } : null;
}

/** A page request with an agent's token is not a person's, whatever else it carries. */
const noToken: MiddlewareHandler = async (c, next) => {
  if (c.req.header('authorization') !== undefined) {
    return refuse(c, 403, 'The page is a person\'s: an agent\'s token does not open it. Agents use /api and /mcp.');
  }
  return next();
};

/**
 * A change needs a browser's `Origin`, the server's own (the guard refused any other already):
 * a request without one is no page of this server's.
 */
const ownOrigin: MiddlewareHandler = async (c, next) => {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.header('origin') === undefined) {
    return refuse(c, 403, 'A change from the page needs the browser\'s Origin header: this request has none.');
  }
  return next();
};

export interface PersonOptions { tls: boolean; behindProxy: boolean; rate: RateLimit }

/** The guards of every page route: no token, an own Origin for a change. */
export const pageGuards = (): MiddlewareHandler[] => [noToken, ownOrigin];

/** Sets the person, or answers 401 with the sign-in explanation; then takes one of the session's rate. */
export function sessionRequired(keeper: Keeper, options: PersonOptions): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const person = await personOf(keeper, c, overTls(c, options));
    if (!person) return refuse(c, 401, SIGN_IN);
    const wait = options.rate.take(`session:${person.session}`);
    if (wait > 0) return refuse(c, 429, `Too many requests: ask again in ${Math.ceil(wait / 1000)} s.`, { 'Retry-After': String(Math.ceil(wait / 1000)) });
    c.set('person', person);
    return next();
  };
}

/** `POST /page/login` (a link's key) opens a session; `GET /page/session` says whose; `POST /page/logout` ends it. */
export function sessionRoutes(route: Hono<HttpEnv>, keeper: Keeper, options: PersonOptions): void {
  route.post('/page/login', async (c) => {
    let key: unknown;
    try {
      key = ((await c.req.json()) as { key?: unknown } | null)?.key;
    } catch {
      key = undefined;
    }
    if (typeof key !== 'string' || key.length > 200) return refuse(c, 400, 'Send the link\'s key as {"key": "…"}.');
    const secure = overTls(c, options);
    let made;
    try {
      made = await keeper.store.useLoginLink(key, c.req.header('user-agent') ?? '');
    } catch (error) {
      const refused = refusalOf(error);
      if (refused) return refuse(c, 403, refused.text);
      throw error;
    }
    setCookie(c, cookieName(secure), made.cookie, {
      httpOnly: true, sameSite: 'Strict', path: '/', secure, maxAge: Math.floor(SESSION_MS / 1000),
    });
    return jsonOf(c, { ok: true, text: `Signed in as ${made.person}.`, data: { person: { id: `person:${made.person}`, name: made.person }, session: made.id } });
  });
  route.get('/page/session', async (c) => {
    const person = await personOf(keeper, c, overTls(c, options));
    if (!person) return refuse(c, 401, SIGN_IN);
    return jsonOf(c, { ok: true, text: `Signed in as ${person.who.name}.`, data: { person: { id: person.who.id, name: person.who.name }, session: person.session } });
  });
  route.post('/page/logout', async (c) => {
    const secure = overTls(c, options);
    const person = await personOf(keeper, c, secure);
    if (person) await keeper.store.endSession(person.cookie);
    setCookie(c, cookieName(secure), '', { httpOnly: true, sameSite: 'Strict', path: '/', secure, maxAge: 0 });
    return jsonOf(c, { ok: true, text: 'Signed out.', data: null });
  });
}
