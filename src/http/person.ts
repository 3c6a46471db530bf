/**
 * Who a person is over HTTP, in one place: the resolver from a request to the person of its
 * session cookie (a login link, or the identity provider, opened it) or of a provider's access
 * token, and the routes that open and close a session with a link. An agent's token never makes a
 * person: a page request that carries one is refused, and nothing a request says of who it is is
 * believed.
 */
import { createHash } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { Keeper } from '../keeper/keeper-types.js';
import { SESSION_MS, type Who } from '../store/index.js';
import { jsonOf, refuse, refusalOf } from './answers.js';
import type { HttpEnv, Orgs } from './auth.js';
import type { SignIn, Vouched } from './oidc.js';
import type { RateLimit } from './rate.js';

/**
 * A person: `session` names what they came with (a session's id, or a provider token's hash);
 * `cookie`, the session's whole secret (both halves); `org` a signed-in person's.
 */
export interface Person { who: Who; session: string; cookie: string; org?: string }

const marks = new WeakMap<Keeper, string>();
/**
 * This binder's mark in its cookies' names: a browser keeps one cookie of a name per host, whatever
 * the port, so two binders on one host (each its store) named theirs alike and signed each other
 * out. Keepers of one store share its sessions, and the mark.
 */
export function binderMark(keeper: Keeper): string {
  let mark = marks.get(keeper);
  if (mark === undefined) {
    mark = createHash('sha256').update(keeper.store.path).digest('hex').slice(0, 12);
    marks.set(keeper, mark);
  }
  return mark;
}

/** The session cookie's name, this binder's own: under TLS, `__Host-` binds it to this origin and to Secure. */
export const cookieName = (secure: boolean, keeper: Keeper): string => `${secure ? '__Host-' : ''}binder_session_${binderMark(keeper)}`;

/**
 * A session's secret goes in two halves: one in the cookie, one kept by the page in its origin's
 * storage and sent in this header with every request. A browser sends a host's cookies to every
 * port of it — to a server an agent runs on the same machine too, which could replay them with
 * any Origin it likes — but keeps an origin's storage to that origin, port included: a cookie
 * alone opens nothing.
 */
export const PAGE_KEY = 'binder-page-key';
const COOKIE_CHARS = 22;
/** A session's secret as the cookie's half and the page's. */
export const halves = (secret: string): { cookie: string; key: string } => ({ cookie: secret.slice(0, COOKIE_CHARS), key: secret.slice(COOKIE_CHARS) });
const HALF = /^[A-Za-z0-9_-]{1,64}$/;

export const SIGN_IN = 'Not signed in: this page is a person\'s. Open a login link from binder admin login-link '
  + '(the screen and binder serve --http show one at start): it signs this browser in.';

/** How to sign in: with the provider where there is one, else with a login link. */
export const signInText = (signIn: SignIn | undefined): string => (signIn
  ? `Not signed in: this page is a person's. Open it and choose "Sign in with ${signIn.provider}".`
  : SIGN_IN);

/** A provider's access token in `Authorization: Bearer` (not an agent's `binder_…`), or undefined. */
export function providerToken(c: Context, signIn: SignIn | undefined): string | undefined {
  if (!signIn) return undefined;
  const given = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(c.req.header('authorization') ?? '')?.[1];
  return given && !given.startsWith('binder_') ? given : undefined;
}

/** Says why a provider's token was refused, as RFC 6750 asks. */
export const invalidToken = (text: string): Record<string, string> => ({
  'WWW-Authenticate': `Bearer realm="binder", error="invalid_token", error_description="${text.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, '?')}"`,
});

/** How a request's own address is known: the server's TLS, a proxy's headers, or the public address given. */
export interface OriginOptions { tls: boolean; behindProxy: boolean; publicUrl?: string }

/** Does this request reach the browser over TLS (the server's own, a public https address, or a proxy's said by it)? */
export function overTls(c: Context, options: OriginOptions): boolean {
  if (options.tls || options.publicUrl?.startsWith('https:')) return true;
  return options.behindProxy && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/** This server's own origin as the browser sees it: the public address given, else as the request says (the guard checked its host already). */
export function originOf(c: Context, options: OriginOptions): string {
  if (options.publicUrl) return options.publicUrl;
  const host = options.behindProxy ? c.req.header('x-forwarded-host')?.split(',')[0]?.trim() ?? c.req.header('host') : c.req.header('host');
  return `${overTls(c, options) ? 'https' : 'http'}://${host ?? new URL(c.req.url).host}`;
}

/**
 * The person a request is, by its session's two halves: the cookie's and the page's (PAGE_KEY's
 * header; in the address only where a browser can send no header, the page's stream of changes);
 * null for anyone else. The one resolver.
 */
export async function personOf(keeper: Keeper, c: Context, secure: boolean, keyInAddress = false): Promise<Person | null> {
  const cookie = getCookie(c, cookieName(secure, keeper));
  const key = c.req.header(PAGE_KEY) ?? (keyInAddress ? c.req.query('key') : undefined);
  if (!cookie || !key || !HALF.test(cookie) || !HALF.test(key)) return null;
  const secret = cookie + key;
  const check = await keeper.store.checkSession(secret);
  return check.ok ? { who: check.who, session: check.id, cookie: secret, ...(check.org ? { org: check.org } : {}) } : null;
}

/** Whether the request carries a session cookie at all (the page's shell: it holds no data). */
export const hasSessionCookie = (c: Context, secure: boolean, keeper: Keeper): boolean => getCookie(c, cookieName(secure, keeper)) !== undefined;

/** A page request with an agent's token is not a person's, whatever else it carries (a provider's token may be). */
const noToken = (signIn: SignIn | undefined): MiddlewareHandler => async (c, next) => {
  if (c.req.header('authorization') !== undefined && !providerToken(c, signIn)) {
    return refuse(c, 403, 'The page is a person\'s: an agent\'s token does not open it. Agents use /api and /mcp.');
  }
  return next();
};

/**
 * A change needs a browser's `Origin`, the server's own (the guard refused any other already):
 * a request without one is no page of this server's.
 */
const ownOrigin = (signIn: SignIn | undefined): MiddlewareHandler => async (c, next) => {
  // A provider's token is sent by its holder, never added by a browser: no other site can send it.
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.header('origin') === undefined && !providerToken(c, signIn)) {
    return refuse(c, 403, 'A change from the page needs the browser\'s Origin header: this request has none.');
  }
  return next();
};

export interface PersonOptions extends OriginOptions {
  rate: RateLimit; signIn?: SignIn; orgs?: Orgs;
  /** A session just ended here (signed out): what this process holds open for it is ended at once. */
  signedOut?: (session: string) => void;
}

/** The guards of every page route: no agent's token, an own Origin for a change. */
export const pageGuards = (signIn?: SignIn): MiddlewareHandler[] => [noToken(signIn), ownOrigin(signIn)];

/**
 * A provider's token refused: 401 saying why, as RFC 6750 asks; or, when the provider's keys could
 * not be had, 503 to ask again — a token is not wrong because its provider is down.
 */
export function refusedVouch(c: Context, vouched: Vouched & { ok: false }): Response {
  if (vouched.unreachable) return refuse(c, 503, vouched.text, { 'Retry-After': '5' });
  return refuse(c, 401, vouched.text, invalidToken(vouched.text));
}

/** The person of a provider's access token; a Response (401, or 503) when it is refused. */
export async function tokenPerson(c: Context, token: string, signIn: SignIn): Promise<Person | Response> {
  const vouched = await signIn.verifyAccess(token);
  if (!vouched.ok) return refusedVouch(c, vouched);
  return { who: vouched.who, session: `token:${vouched.who.id}`, cookie: '', org: vouched.org };
}

/** Said to a removed person, whose session has just ended. */
export const REMOVED = 'You were removed from this binder by one of its admins, and are signed out: ask an admin to let you back in.';

/**
 * Whether a session's person was removed from their organisation's binder. Their sessions were
 * ended by the removal itself (in the store); a provider's access token has none, and is refused here.
 */
export async function removedFrom(person: Person, orgs: Orgs | undefined): Promise<boolean> {
  if (!person.org || !orgs) return false;
  const binder = await orgs.of(person.org);
  return (await binder.store.removedPeople(person.who.id)).length > 0;
}

/** Sets the person, or answers 401 with the sign-in explanation; then takes one of the session's rate. */
export function sessionRequired(keeper: Keeper, options: PersonOptions, keyInAddress = false): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const token = providerToken(c, options.signIn);
    const found = token && options.signIn ? await tokenPerson(c, token, options.signIn) : await personOf(keeper, c, overTls(c, options), keyInAddress);
    if (found instanceof Response) return found;
    if (token && found && found.org && options.orgs) await options.orgs.record(found.who, found.org);
    const person = found;
    if (!person) return refuse(c, 401, signInText(options.signIn));
    if (await removedFrom(person, options.orgs)) return refuse(c, 401, REMOVED);
    const wait = options.rate.take(`session:${person.session}`);
    if (wait > 0) return refuse(c, 429, `Too many requests: ask again in ${Math.ceil(wait / 1000)} s.`, { 'Retry-After': String(Math.ceil(wait / 1000)) });
    c.set('person', person);
    // A signed-in person acts in their organisation's binder; a login link's, in the one binder.
    c.set('keeper', person.org && options.orgs ? await options.orgs.of(person.org) : keeper);
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
    const { cookie, key: pageKey } = halves(made.cookie);
    setCookie(c, cookieName(secure, keeper), cookie, {
      httpOnly: true, sameSite: 'Strict', path: '/', secure, maxAge: Math.floor(SESSION_MS / 1000),
    });
    return jsonOf(c, { ok: true, text: `Signed in as ${made.person}.`, data: { person: { id: `person:${made.person}`, name: made.person }, session: made.id, key: pageKey } });
  });
  route.get('/page/session', async (c) => {
    const person = await personOf(keeper, c, overTls(c, options));
    const signIn = options.signIn ? { provider: options.signIn.provider, start: '/page/oidc/start' } : null;
    if (!person) return jsonOf(c, { ok: false, text: signInText(options.signIn), data: { signIn } }, 401);
    if (await removedFrom(person, options.orgs)) return jsonOf(c, { ok: false, text: REMOVED, data: { signIn } }, 401);
    const { who } = person;
    return jsonOf(c, {
      ok: true, text: `Signed in as ${who.name}${who.email ? ` <${who.email}>` : ''}.`,
      data: { person: { id: who.id, name: who.name, ...(who.email ? { email: who.email } : {}) }, session: person.session, ...(person.org ? { org: person.org } : {}), signIn },
    });
  });
  route.post('/page/logout', async (c) => {
    const secure = overTls(c, options);
    const person = await personOf(keeper, c, secure);
    if (person) {
      await keeper.store.endSession(person.cookie);
      options.signedOut?.(person.session);
    }
    setCookie(c, cookieName(secure, keeper), '', { httpOnly: true, sameSite: 'Strict', path: '/', secure, maxAge: 0 });
    const provider = options.signIn?.endSession(`${originOf(c, options)}/`) ?? null;
    const text = provider ? `Signed out of this binder. To sign out of ${options.signIn!.provider} too: ${provider}` : 'Signed out.';
    return jsonOf(c, { ok: true, text, data: { providerSignOut: provider } });
  });
}
