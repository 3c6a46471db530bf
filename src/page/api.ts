/// <reference lib="dom" />
/**
 * The page's one way to the binder: the person's API (`/page/api/<op>`), as the signed-in person,
 * with the data of each answer. A read is a GET, a change a POST (the browser adds the Origin the
 * server checks). It never sends who the person is: the session says it, and only it.
 */
import { operation } from '../keeper/operations.js';
import type { Lang } from '../person/words.js';
import type { HookDelivery, HookInfo } from '../store/index.js';

export interface Answer<T = unknown> {
  ok: boolean;
  status: number;
  text: string;
  data: T | null;
}

/** Called when the server says the session is gone (401): the page shows how to sign in. */
let signedOut: () => void = () => {};
export const onSignedOut = (fn: () => void): void => {
  signedOut = fn;
};

/**
 * The page's half of its session (the cookie holds the other): kept in this origin's storage,
 * which a browser keeps to this scheme, host and port — unlike a cookie, which it sends to every
 * port of the host. Sent with every request; a cookie alone opens nothing.
 */
const KEY_STORE = 'binder-page-key';
let pageKey: string | null = (() => {
  try {
    return localStorage.getItem(KEY_STORE);
  } catch {
    return null;
  }
})();
export function keepPageKey(key: string | null): void {
  pageKey = key;
  try {
    if (key) localStorage.setItem(KEY_STORE, key);
    else localStorage.removeItem(KEY_STORE);
  } catch {
    // Kept for this page only.
  }
}
export const pageKeyOf = (): string | null => pageKey;

let lang: Lang = 'en';
export const setLang = (given: Lang): void => {
  lang = given;
};

function query(args: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null || value === false) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, String(one));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function send<T>(url: string, init: RequestInit): Promise<Answer<T>> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'same-origin', ...init, headers: { 'Binder-Lang': lang, ...(pageKey ? { 'Binder-Page-Key': pageKey } : {}), ...init.headers } });
  } catch {
    return { ok: false, status: 0, text: lang === 'fr' ? 'Le serveur ne répond pas.' : 'The server does not answer.', data: null };
  }
  let body: { ok?: boolean; text?: string; data?: unknown } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // An answer that is no JSON: said by its status below.
  }
  if (res.status === 401) signedOut();
  return { ok: body.ok === true, status: res.status, text: String(body.text ?? res.statusText), data: (body.data ?? null) as T | null };
}

/** One operation of the catalog, as the person. */
export function call<T = unknown>(op: string, args: Record<string, unknown> = {}): Promise<Answer<T>> {
  const spec = operation(op);
  const url = `/page/api/${encodeURIComponent(op)}`;
  if (spec?.readOnly) return send<T>(`${url}${query(args)}`, { method: 'GET' });
  return send<T>(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(args) });
}

/** The webhooks with each one's latest deliveries: an admin's to read (anyone else is told why). */
export const webhooks = (): Promise<Answer<(HookInfo & { recent?: HookDelivery[] })[]>> => send('/page/webhooks', { method: 'GET' });

/** Where people sign in through an identity provider: its name, and where the page sends the browser to. */
export interface ProviderSignIn { provider: string; start: string }

export const session = (): Promise<Answer<{ person?: { id: string; name: string; email?: string }; signIn: ProviderSignIn | null }>> =>
  send('/page/session', { method: 'GET' });

export async function signIn(key: string): Promise<Answer<{ person: { id: string; name: string }; key?: string }>> {
  const answer = await send<{ person: { id: string; name: string }; key?: string }>('/page/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key }) });
  if (answer.ok && answer.data?.key) keepPageKey(answer.data.key);
  return answer;
}

export async function signOut(): Promise<Answer<{ providerSignOut: string | null } | null>> {
  const answer = await send<{ providerSignOut: string | null } | null>('/page/logout', { method: 'POST' });
  keepPageKey(null);
  return answer;
}
