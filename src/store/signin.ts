/**
 * A signed-in service's part of the store (its service store): which identity provider it signs
 * people in with (login links are refused then), and the sign-ins under way — each kept under the
 * hash of its state, for ten minutes and one use, its nonce and PKCE verifier sealed with a key
 * drawn from the state, so that a copy of the database opens none of them. Any keeper on the same
 * store can finish a sign-in another began. It never keeps a state, a code or a token in clear.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from './context.js';
import { Refused } from './store.js';

/** How long a sign-in may take at the identity provider. */
export const PENDING_MS = 10 * 60_000;

/** What a sign-in under way must remember until the provider sends the browser back. */
export interface PendingSignIn {
  nonce: string;
  verifier: string;
  /** Where the page returns to once signed in (a path of this server's). */
  back: string;
}

const hashOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');
const keyOf = (state: string): Buffer => createHash('sha256').update(`binder sign-in seal\n${state}`, 'utf8').digest();

function seal(state: string, pending: PendingSignIn): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(state), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(pending), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function unseal(state: string, sealed: string): PendingSignIn | null {
  try {
    const all = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(state), all.subarray(0, 12));
    decipher.setAuthTag(all.subarray(12, 28));
    const text = Buffer.concat([decipher.update(all.subarray(28)), decipher.final()]).toString('utf8');
    const p = JSON.parse(text) as Partial<PendingSignIn>;
    return typeof p.nonce === 'string' && typeof p.verifier === 'string' && typeof p.back === 'string' ? { nonce: p.nonce, verifier: p.verifier, back: p.back } : null;
  } catch {
    return null;
  }
}

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
  if (issuer === null) return;
  const host = hostOf(issuer);
  throw new Refused(
    `This binder signs people in through ${host}: there are no login links. Open the page and choose "Sign in with ${host}".`,
    `Ce binder connecte les personnes par ${host} : il n'y a pas de lien de connexion. Ouvrez la page et choisissez « Se connecter avec ${host} ».`,
    'access',
  );
}

export const hostOf = (issuer: string): string => {
  try {
    return new URL(issuer).host;
  } catch {
    return issuer.slice(0, 80);
  }
};

/** Keeps a sign-in under way, for the browser whose sign-in cookie is `browser`. */
export async function beginSignIn(ctx: Context, state: string, browser: string, pending: PendingSignIn): Promise<void> {
  const now = ctx.now();
  await ctx.q.run('DELETE FROM signin_pending WHERE expires <= ?', [now]);
  await ctx.q.run('INSERT INTO signin_pending (hash, browser, sealed, expires) VALUES (?, ?, ?, ?)', [hashOf(state), hashOf(browser), seal(state, pending), now + PENDING_MS]);
}

/**
 * Takes a sign-in under way, once (by its delete: two keepers sent the same callback finish it
 * once between them): null when it was taken, has expired, is not one, or another browser began it.
 * Taken only with the browser's own cookie: another browser sent the callback (its state seen)
 * leaves it for the browser that began it.
 */
export async function finishSignIn(ctx: Context, state: string, browser: string): Promise<PendingSignIn | null> {
  if (state.length < 16 || state.length > 200) return null;
  const row = await ctx.q.get<{ browser: string; sealed: string; expires: number }>(
    'DELETE FROM signin_pending WHERE hash = ? AND browser = ? RETURNING browser, sealed, expires', [hashOf(state), hashOf(browser)]);
  if (!row || row.expires <= ctx.now()) return null;
  if (!timingSafeEqual(Buffer.from(row.browser, 'hex'), Buffer.from(hashOf(browser), 'hex'))) return null;
  return unseal(state, row.sealed);
}
