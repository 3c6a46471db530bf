/**
 * Agents' tokens, for asking over HTTP: made, listed and revoked by a person alone, and checked
 * on every request. A token is the agent `agent:<slug of its name>` — the same agent as a folder
 * registered under that name. Only a sha-256 of each token is kept; the token itself is returned
 * once, when it is made, and must never be written anywhere by the store (nor its history).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { iso, type Context } from './context.js';
import { slug } from './slug.js';
import type { Who } from './types.js';
import { cleanName } from './values.js';
import { refusal } from './words/index.js';

/** Every token starts so: a scanner of leaked secrets, or a person, knows one when they see it. */
export const TOKEN_START = 'binder_';
/** What is shown of a token (and logged): its start and this many characters more. */
const SHOWN = 8;
const SHAPE = /^binder_[A-Za-z0-9_-]{43}$/;
/** A token's last use is written at most this often (a write per request would cost a sync). */
const USE_STEP_MS = 60_000;

export interface TokenInfo {
  name: string;
  /** `agent:<slug of name>`. */
  agent: string;
  /** The token's first characters, `binder_` and 8 more: enough to tell it and to revoke it. */
  prefix: string;
  created: string;
  /** ISO time of its last use (to the minute), or null. */
  used: string | null;
  /** ISO time it stops being accepted, or null for never. */
  expires: string | null;
  /** ISO time a person revoked it, or null. */
  revoked: string | null;
}

/** A token just made: the only time the token itself is known. */
export interface TokenMade extends TokenInfo {
  token: string;
}

/** Who a token is, or why it is not accepted. */
export type TokenCheck =
  | { ok: true; who: Who; prefix: string }
  | { ok: false; why: 'unknown' }
  | { ok: false; why: 'revoked' | 'expired'; prefix: string; at: string };

interface Row { hash: string; prefix: string; name: string; agent: string; created: string; used: number | null; expires: number | null; revoked: string | null }

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Could this be a token at all? Anything else is refused without a look in the store. */
export const tokenShaped = (token: string): boolean => SHAPE.test(token);

const infoOf = (row: Row): TokenInfo => ({
  name: row.name, agent: row.agent, prefix: row.prefix, created: row.created,
  used: row.used === null ? null : iso(row.used), expires: row.expires === null ? null : iso(row.expires), revoked: row.revoked,
});

export async function listTokens(ctx: Context, who: Who): Promise<TokenInfo[]> {
  return ((await ctx.q.all('SELECT * FROM tokens ORDER BY created, prefix')) as Row[]).map(infoOf);
}

export async function addToken(ctx: Context, name: string, options: { expiresMs?: number }, who: Who): Promise<TokenMade> {
  const clean = cleanName(name, 'nameOfAnAgent');
  const agent = `agent:${slug(clean)}`;
  const now = ctx.now();
  const expires = options.expiresMs !== undefined ? now + options.expiresMs : null;
  for (;;) {
    const token = `${TOKEN_START}${randomBytes(32).toString('base64url')}`;
    const prefix = token.slice(0, TOKEN_START.length + SHOWN);
    // Two tokens with one prefix could not be told apart when listed or revoked: draw again.
    const made = await ctx.q.run('INSERT INTO tokens (hash, prefix, name, agent, created, expires) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [hashToken(token), prefix, clean, agent, iso(now), expires]);
    if (made.changes === 0) continue;
    if (ctx.tokenMade) await ctx.tokenMade(hashToken(token));
    await ctx.log(who, 'token-add', null, null, { name: clean, agent, prefix, expires: expires === null ? null : iso(expires) });
    return { token, name: clean, agent, prefix, created: iso(now), used: null, expires: expires === null ? null : iso(expires), revoked: null };
  }
}

/** Revokes the token of that prefix, or every live token of the agent of that name. */
export async function revokeTokens(ctx: Context, ref: string, who: Who): Promise<TokenInfo[]> {
  const given = String(ref).trim();
  const prefix = given.startsWith(TOKEN_START) ? given.slice(0, TOKEN_START.length + SHOWN) : `${TOKEN_START}${given}`;
  const live = (await ctx.q.all('SELECT * FROM tokens WHERE revoked IS NULL')) as Row[];
  const agent = given.startsWith('agent:') ? given : `agent:${slug(given)}`;
  const byPrefix = live.filter((row) => row.prefix === prefix);
  const chosen = byPrefix.length ? byPrefix : live.filter((row) => row.agent === agent);
  if (chosen.length === 0 || !given) {
    const shown = given.slice(0, 60);
    throw refusal('noToken', [shown]);
  }
  const at = iso(ctx.now());
  for (const row of chosen) {
    await ctx.q.run('UPDATE tokens SET revoked = ? WHERE hash = ?', [at, row.hash]);
    await ctx.log(who, 'token-revoke', null, null, { name: row.name, agent: row.agent, prefix: row.prefix });
  }
  return chosen.map((row) => infoOf({ ...row, revoked: at }));
}

/** A token's row, with its folder's name where a person registered one for the same agent. */
export type TokenRow = Row & { side: string | null };

/** The hash a token is looked up by; undefined when it cannot be a token at all. */
export const tokenHash = (token: string): string | undefined => (tokenShaped(token) ? hashToken(token) : undefined);

/** A token's row by its hash, with its folder's name where a person registered one for the same agent: one agent, one name. */
export const TOKEN_ROW = 'SELECT t.*, (SELECT s.name FROM sides s WHERE s.agent = t.agent) AS side FROM tokens t WHERE t.hash = ?';

/** The row found for `hash`, compared with it in constant time. */
export const verifiedRow = (row: TokenRow | undefined, hash: string): TokenRow | undefined =>
  (row && timingSafeEqual(Buffer.from(row.hash, 'hex'), Buffer.from(hash, 'hex')) ? row : undefined);

/** The row of the token whose hash is `hash`. */
export async function tokenRow(ctx: Context, hash: string): Promise<TokenRow | undefined> {
  return verifiedRow(await ctx.q.get<TokenRow>(TOKEN_ROW, [hash]), hash);
}

async function rowOf(ctx: Context, token: string): Promise<TokenRow | undefined> {
  const hash = tokenHash(token);
  return hash === undefined ? undefined : tokenRow(ctx, hash);
}

/**
 * Who the token of `row` is at `now`, if a person made it and it is neither revoked nor expired;
 * with its use to note when the last one noted is a minute old (the look itself takes no lock).
 */
/** A token's check as looked at: the verdict, and its use to note where the last one noted is old. */
export interface TokenLooked { check: TokenCheck; used?: { hash: string; at: number } }

export function tokenCheck(row: TokenRow | undefined, now: number): TokenLooked {
  if (!row) return { check: { ok: false, why: 'unknown' } };
  if (row.revoked !== null) return { check: { ok: false, why: 'revoked', prefix: row.prefix, at: row.revoked } };
  if (row.expires !== null && row.expires <= now) return { check: { ok: false, why: 'expired', prefix: row.prefix, at: iso(row.expires) } };
  const check: TokenCheck = { ok: true, who: { id: row.agent, kind: 'agent', name: row.side ?? row.name }, prefix: row.prefix };
  const due = row.used === null || now - row.used >= USE_STEP_MS;
  return due ? { check, used: { hash: row.hash, at: now - (now % USE_STEP_MS) } } : { check };
}

/** Who `token` is (tokenCheck), looked up inside a transaction of the caller's. */
export async function checkToken(ctx: Context, token: string): Promise<{ check: TokenCheck; used?: { hash: string; at: number } }> {
  return tokenCheck(await rowOf(ctx, token), ctx.now());
}

/**
 * Whether the token of `prefix` is still accepted at `now` (neither revoked nor expired): for what
 * was asked with it and is answered later (a held wait), without the token itself.
 */
export async function checkTokenPrefix(ctx: Context, prefix: string): Promise<TokenCheck> {
  const row = await ctx.q.get<TokenRow>('SELECT t.*, (SELECT s.name FROM sides s WHERE s.agent = t.agent) AS side FROM tokens t WHERE t.prefix = ?', [prefix]);
  return tokenCheck(row, ctx.now()).check;
}

/** Notes a token's use (to the minute), in a transaction of the caller's own. */
export async function noteTokenUse(ctx: Context, hash: string, at: number): Promise<void> {
  await ctx.q.run('UPDATE tokens SET used = ? WHERE hash = ?', [at, hash]);
}

/**
 * A token that was sent where it may be kept (a URL's query, which logs and proxies keep): it is
 * revoked at once, by its own agent, and what it was is returned (null when it is no token).
 */
export async function leakedToken(ctx: Context, token: string): Promise<TokenInfo | null> {
  const row = await rowOf(ctx, token);
  if (!row) return null;
  if (row.revoked !== null) return infoOf(row);
  const at = iso(ctx.now());
  (await ctx.q.run('UPDATE tokens SET revoked = ? WHERE hash = ?', [at, row.hash]));
  await ctx.log({ id: row.agent, kind: 'agent', name: row.name }, 'token-revoke', null, null,
    { name: row.name, agent: row.agent, prefix: row.prefix, why: 'sent in a URL' });
  return infoOf({ ...row, revoked: at });
}
