/**
 * Who asks over HTTP: the agent of the token in `Authorization: Bearer …` (or, where people sign
 * in through a provider, the person of the provider's access token) — nothing a request says of
 * itself is believed. A token in a URL is refused and, being where proxies and logs keep
 * it, revoked at once. Each token has its rate. A token is never logged nor said back: its
 * prefix is.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { utc } from '../keeper/catalog-together.js';
import type { Keeper } from '../keeper/keeper-types.js';
import type { Vouch } from '../keeper/held-waits.js';
import type { Presumed, TokenCheck, Who } from '../store/index.js';
import { operation } from '../keeper/operations.js';
import { refuse } from './answers.js';
import type { SignIn } from './oidc.js';
import { refusedVouch, type Person } from './person.js';
import type { RateLimit } from './rate.js';

/** Who asks, the token's prefix for the log (never the token), and a signed-in person's organisation. */
export interface Caller {
  who: Who; prefix: string; org?: string;
  /** The key its rate is taken under (its token's). */
  rateKey: string;
  /**
   * The token looked at again, for what is held open past the request's start (a stream, a wait):
   * why it is no longer accepted (revoked, expired), or null while it is.
   */
  recheck?: () => Promise<string | null>;
  /** What the keeper looks at again before it answers a wait held for this caller. */
  vouch?: Vouch;
  /**
   * Where the token's check was presumed (a server store: the look went with the request's first
   * statement): why the look found it no longer accepted, or null when it is. Asked before answering.
   */
  settle?: () => Promise<string | null>;
}
/**
 * What a route knows of its asker: the agent of a token (`/api`, `/mcp`), or the person of a
 * session (the page); and the keeper of the binder it acts on (its organisation's, where people
 * sign in through a provider).
 */
export type HttpEnv = { Variables: { caller: Caller; person: Person; keeper: Keeper } };

/** Where people sign in: each organisation's binder (its keeper), and the organisation of an agent's token. */
export interface Orgs {
  of(org: string): Promise<Keeper>;
  tokenOrg(token: string): Promise<string | null>;
  /**
   * Records a person the provider vouched for in their organisation's binder (their role there);
   * a removed person is refused. Done at each sign-in, and for a provider's token too: a person
   * who never opened the page is no stranger to the rules.
   */
  record(who: Who, org: string): Promise<void>;
}

const ASK_FOR_ONE = 'a person makes one with binder admin token add NAME';
export const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="binder"' };
/** Query parameters that can only mean a token. */
const TOKEN_NAMES = new Set(['token', 'access_token', 'bearer', 'auth', 'authorization', 'key', 'api_key']);
const TOKEN_IN_TEXT = /binder_[A-Za-z0-9_-]{43}/g;

/** The URL's text as a proxy's log could show it: as sent, and decoded (a token escaped is still one). */
function urlTexts(url: string): string[] {
  const texts = [url];
  try {
    texts.push(decodeURIComponent(url.replace(/\+/g, ' ')));
  } catch {
    // Not decodable: as sent is all there is.
  }
  return texts;
}

/**
 * Refuses a request whose URL holds a token — anywhere: its path or its query, escaped or not, on
 * any route; and, where agents ask (`/api`, `/mcp`), a query parameter that can only name one. A
 * known token found there is revoked: proxies and logs keep URLs.
 */
export function noTokenInUrl(keeper: Keeper, log: (line: string) => void, orgs?: Orgs): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const found = new Set<string>();
    for (const text of urlTexts(url)) for (const token of text.match(TOKEN_IN_TEXT) ?? []) found.add(token);
    const query = url.indexOf('?');
    const asking = c.req.path === '/mcp' || c.req.path === '/api' || c.req.path.startsWith('/api/');
    let named = false;
    if (asking && query >= 0) for (const [name] of new URLSearchParams(url.slice(query + 1))) if (TOKEN_NAMES.has(name.toLowerCase())) named = true;
    if (!named && found.size === 0) return next();
    const revoked: string[] = [];
    for (const token of found) {
      const org = orgs ? await orgs.tokenOrg(token) : null;
      if (orgs && org === null) continue;
      const leaked = await (org !== null && orgs ? await orgs.of(org) : keeper).store.leakedToken(token);
      if (leaked) revoked.push(leaked.prefix);
    }
    if (revoked.length) {
      log(`a token was sent in a URL and is revoked: ${revoked.join(', ')}`);
      return refuse(c, 400, `A token was sent in the URL, where proxies and logs keep it: it counts as leaked and is revoked now (${revoked.join(', ')}). `
        + `Send a token only in the header Authorization: Bearer <token>; ${ASK_FOR_ONE}.`);
    }
    return refuse(c, 400, 'A token never goes in a URL, where proxies and logs keep it: send it in the header Authorization: Bearer <token>.');
  };
}

/** Why a token is not accepted, in a sentence (its prefix, never the token). */
export function tokenRefused(check: TokenCheck & { ok: false }): string {
  return check.why === 'unknown'
    ? `This token is not one this binder knows: ${ASK_FOR_ONE}.`
    : `This token (${check.prefix}) ${check.why === 'revoked' ? 'was revoked' : 'expired'} on ${utc(check.at)}: ${ASK_FOR_ONE}.`;
}

/**
 * Why the token this request came with is no longer accepted (an agent's revoked or expired, a
 * provider's expired since it was checked), or null while it is: for what is held open past the
 * request's start, a stream or a wait.
 */
export async function tokenGone(c: Context<HttpEnv>): Promise<string | null> {
  return (await c.get('caller').recheck?.()) ?? null;
}

/** 429, and when to ask again. */
const tooMany = (c: Context, wait: number): Response =>
  refuse(c, 429, `Too many requests with this token: ask again in ${Math.ceil(wait / 1000)} s.`, { 'Retry-After': String(Math.ceil(wait / 1000)) });

/** An agent's token looked at again in `keeper`'s binder: why it is refused, or null while it is accepted. */
const recheckOf = (keeper: Keeper, given: string) => async (): Promise<string | null> => {
  const again = await keeper.store.checkToken(given);
  return again.ok ? null : tokenRefused(again);
};

/**
 * A request answered by the store at once: a REST ask of an operation that holds nothing (no wait,
 * no stream). Its token's look may go with its first statement (Store.presumeToken).
 */
function askedAtOnce(c: Context<HttpEnv>): boolean {
  const name = /^\/api\/([a-z-]+)$/.exec(c.req.path)?.[1];
  const spec = name === undefined ? undefined : operation(name);
  return spec !== undefined && spec.holds === undefined;
}

/**
 * The caller of a token whose check is presumed: the request is served as its agent, and answered
 * 401 instead of what was served when the look made with it found the token no longer accepted
 * (its transaction committed nothing: store/token-ahead.ts). The route asks `settle` before it answers.
 */
async function presumedCaller(c: Context<HttpEnv>, next: () => Promise<void>,
  { keeper, rate, given, presumed }: { keeper: Keeper; rate: RateLimit; given: string; presumed: Presumed }): Promise<Response | void> {
  const { who, prefix } = presumed.check;
  const settle = async (): Promise<string | null> => {
    const check = await presumed.settle();
    return check.ok ? null : tokenRefused(check);
  };
  const wait = rate.take(prefix);
  if (wait > 0) {
    // A token no longer accepted is told so first, as when its look comes before its rate.
    const refused = await settle();
    if (refused !== null) return refuse(c, 401, refused, CHALLENGE);
    return tooMany(c, wait);
  }
  const recheck = recheckOf(keeper, given);
  c.set('caller', { who, prefix, rateKey: prefix, recheck, settle, vouch: { token: prefix } });
  c.set('keeper', keeper);
  await next();
  // Whatever served it, a request is answered as its token's look says (the route asked already).
  const refused = await settle();
  if (refused !== null) c.res = refuse(c, 401, refused, CHALLENGE);
}

/** Sets the caller from its token, or answers 401; then takes one request of the token's rate (429). */
export function bearer(keeper: Keeper, rate: RateLimit, signIn?: SignIn, orgs?: Orgs): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const given = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1];
    if (!given) {
      return refuse(c, 401, `No token: send the header Authorization: Bearer <token>; ${ASK_FOR_ONE}${signIn ? `, or a person sends an access token from ${signIn.provider}` : ''}.`, CHALLENGE);
    }
    if (signIn && !given.startsWith('binder_')) {
      // A person's access token from the provider: checked against its keys, never looked up here.
      const vouched = await signIn.verifyAccess(given);
      if (!vouched.ok) return refusedVouch(c, vouched);
      const prefix = `${signIn.provider}/${vouched.who.id.slice(vouched.who.id.lastIndexOf('/') + 1).slice(0, 12)}`;
      const rateKey = `person:${vouched.who.id}`;
      const wait = rate.take(rateKey);
      if (wait > 0) return tooMany(c, wait);
      if (orgs) await orgs.record(vouched.who, vouched.org);
      // Looked at again, a token whose provider cannot be reached now is not called wrong.
      const recheck = async (): Promise<string | null> => {
        const again = await signIn.verifyAccess(given);
        return again.ok || again.unreachable ? null : again.text;
      };
      c.set('caller', { who: vouched.who, prefix, org: vouched.org, rateKey, recheck, vouch: { until: vouched.expires } });
      c.set('keeper', orgs ? await orgs.of(vouched.org) : keeper);
      return next();
    }
    const presumed = !orgs && askedAtOnce(c) ? keeper.store.presumeToken(given) : undefined;
    if (presumed) return presumedCaller(c, next, { keeper, rate, given, presumed });
    // An agent's token is its organisation's: found in one look, then checked in that binder alone.
    const org = orgs ? await orgs.tokenOrg(given) : null;
    const at = orgs && org !== null ? await orgs.of(org) : keeper;
    const check = orgs && org === null ? { ok: false as const, why: 'unknown' as const } : await at.store.checkToken(given);
    if (!check.ok) return refuse(c, 401, tokenRefused(check), CHALLENGE);
    const wait = rate.take(check.prefix);
    if (wait > 0) return tooMany(c, wait);
    const recheck = recheckOf(at, given);
    c.set('caller', { who: check.who, prefix: check.prefix, rateKey: check.prefix, ...(org !== null ? { org } : {}), recheck, vouch: { token: check.prefix } });
    c.set('keeper', at);
    return next();
  };
}
