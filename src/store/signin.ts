/**
 * A signed-in service's part of the store (its service store): which identity provider it signs
 * people in with (login links are refused then), the key that seals the sign-ins under way — each
 * kept in the browser that began it, in a cookie, never in the store, so that a sign-in costs no
 * write before the provider has answered — and the sign-ins finished, each by its state's hash,
 * so that one is finished once. It never keeps a state, a code or a token in clear.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from './context.js';
import { Refused } from './store.js';
import { refusal } from './words/index.js';

/** How long a sign-in may take at the identity provider. */
export const PENDING_MS = 10 * 60_000;

/** What a sign-in under way must remember until the provider sends the browser back (sealed in its cookie). */
export interface PendingSignIn {
  nonce: string;
  verifier: string;
  /** Where the page returns to once signed in (a path of this server's). */
  back: string;
}

const hashOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** The identity provider this store's service signs people in with, or null (a local binder). */
export async function signInIssuer(ctx: Context): Promise<string | null> {
  const row = await ctx.q.get<{ issuer: string }>('SELECT issuer FROM signin_issuer ORDER BY since DESC LIMIT 1', []);
  return row?.issuer ?? null;
}

/** Says that this store is a signed-in service's, with that provider (the one before, if any, is forgotten). */
export async function markSignIn(ctx: Context, issuer: string): Promise<void> {
  await ctx.q.run('DELETE FROM signin_issuer WHERE issuer <> ?', [issuer]);
  await ctx.q.run('INSERT INTO signin_issuer (issuer, since) VALUES (?, ?) ON CONFLICT DO NOTHING', [issuer, ctx.now()]);
}

/** Login links are a local binder's: refused where people sign in through a provider. */
export async function noLinksWhenSignedIn(ctx: Context): Promise<void> {
  const issuer = await signInIssuer(ctx);
  if (issuer !== null) throw noLinksRefusal(issuer);
}

/** What a person asking for a login link is told where people sign in through `issuer` (the page says it too). */
export function noLinksRefusal(issuer: string): Refused {
  const host = hostOf(issuer);
  return refusal('noLoginLinks', [host], 'access');
}

export const hostOf = (issuer: string): string => {
  try {
    return new URL(issuer).host;
  } catch {
    return issuer.slice(0, 80);
  }
};

/** The sealing key, once made; null before. */
export async function keptSignInKey(ctx: Context): Promise<string | null> {
  return ((await ctx.q.value('SELECT key FROM signin_seal WHERE id = 1')) as string | undefined) ?? null;
}

/**
 * The key that seals the cookies of sign-ins under way: one per store, so that any keeper of it
 * finishes a sign-in another began. Made once, the first time a service asks for it.
 */
export async function signInKey(ctx: Context): Promise<string> {
  const kept = await keptSignInKey(ctx);
  if (kept) return kept;
  await ctx.q.run('INSERT INTO signin_seal (id, key) VALUES (1, ?) ON CONFLICT DO NOTHING', [randomBytes(32).toString('base64url')]);
  return (await ctx.q.value('SELECT key FROM signin_seal WHERE id = 1')) as string;
}

/** Was the sign-in of `state` finished already? A look, no write: a replayed callback is refused before the provider is asked. */
export async function signInFinished(ctx: Context, state: string): Promise<boolean> {
  return (await ctx.q.value('SELECT 1 FROM signin_used WHERE hash = ? AND expires > ?', [hashOf(state), ctx.now()])) !== undefined;
}

/**
 * Marks the sign-in of `state` finished, once the provider answered for it: false when it was
 * finished already (a callback replayed, or two keepers sent the same one: one of them finishes
 * it). Kept until the sign-in would have expired, then forgotten.
 */
export async function finishedSignIn(ctx: Context, state: string, expires: number): Promise<boolean> {
  const now = ctx.now();
  await ctx.q.run('DELETE FROM signin_used WHERE expires <= ?', [now]);
  const made = await ctx.q.run('INSERT INTO signin_used (hash, expires) VALUES (?, ?) ON CONFLICT DO NOTHING', [hashOf(state), Math.max(expires, now + 1)]);
  return made.changes > 0;
}
