/**
 * The HTTP face signing people in through a real provider (oauth2-mock-server on loopback): the
 * app made with the provider discovered, and a browser's sign-in walked through as a browser
 * does it — to the start, to the provider, back to the callback with the cookies it was given.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { discoverSignIn, type SignIn, type SignInOptions } from '../../src/http/oidc.js';
import { provider, type Provider } from '../helpers/oidc-provider.js';
import type { HttpAppOptions } from '../../src/http/app.js';
import { HOST, served, type Served } from './kit.js';

export interface SignedIn extends Served { idp: Provider; signIn: SignIn }

export async function signedInService(t: TestContext, options: Partial<SignInOptions> = {}, app: Partial<HttpAppOptions> = {}): Promise<SignedIn> {
  const idp = await provider(t);
  const signIn = await discoverSignIn({ issuer: idp.issuer, clientId: idp.clientId, ...options });
  const s = await served(t, { app: { signIn, ...app } });
  await s.store.markSignIn(signIn.issuer);
  // As a service starting does (listen.ts): the key that seals sign-ins under way is made before any.
  await s.store.signInKey();
  return { ...s, idp, signIn };
}

/** The cookies a response sets, as `name=value` by name. */
export function cookiesOf(headers: Headers): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    out.set(pair!.slice(0, at), pair!.slice(at + 1));
  }
  return out;
}

export interface Walk {
  status: number; text: string; cookies: Map<string, string>; callback: string; pending: string;
  /** The page's half of the session, given to the page in the address's fragment; with the cookie, what a signed-in page sends. */
  key: string | undefined;
  page: Record<string, string>;
}

/** The sign-in cookie a response set, as `name=value`: its name is the binder's own (`binder_signin_<mark>`). */
export function pendingPair(headers: Headers): string {
  for (const [name, value] of cookiesOf(headers)) if (/^binder_signin_[0-9a-f]{12}$/.test(name) && value) return `${name}=${value}`;
  return '';
}

/** The session's cookie a response set, as `name=value`: its name is the binder's own (`binder_session_<mark>`). */
export function sessionPair(cookies: Map<string, string>): string | undefined {
  for (const [name, value] of cookies) if (/^(__Host-)?binder_session_[0-9a-f]{12}$/.test(name) && value) return `${name}=${value}`;
  return undefined;
}

/** What a signed-in page sends: the session's cookie (`name=value`) and its page's half. */
export const asPage = (cookie: string | undefined, key: string | undefined): Record<string, string> => ({
  ...(cookie !== undefined ? { cookie } : {}), ...(key !== undefined ? { 'binder-page-key': key } : {}),
});

/** A browser's sign-in: the start, the provider, the callback (with what it was given, unless told otherwise). */
export async function walkSignIn(s: SignedIn, change: { cookie?: string | null } = {}): Promise<Walk> {
  const start = await s.http.app.request('/page/oidc/start', { headers: { host: HOST } });
  assert.equal(start.status, 302);
  const pending = pendingPair(start.headers);
  const atProvider = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  assert.equal(atProvider.status, 302, 'the provider sends the browser back');
  const back = new URL(atProvider.headers.get('location')!);
  const callback = `${back.pathname}${back.search}`;
  const cookie = change.cookie === undefined ? pending : change.cookie;
  const res = await s.http.app.request(callback, { headers: { host: HOST, ...(cookie ? { cookie } : {}) } });
  const text = await res.text();
  const cookies = cookiesOf(res.headers);
  const key = /#key=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  return { status: res.status, text, cookies, callback, pending, key, page: asPage(sessionPair(cookies), key) };
}
