/**
 * Agents' tokens, for asking over HTTP: made, listed and revoked by a person alone, and checked
 * on every request. A token is the agent `agent:<slug of its name>` — the same agent as a folder
 * registered under that name. Only a sha-256 of each token is kept; the token itself is returned
 * once, when it is made, and must never be written anywhere by the store (nor its history).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { personOnly } from './access.js';
import { iso, type Context } from './context.js';
import { slug } from './slug.js';
import { Refused } from './store.js';
import type { Who } from './types.js';
import { cleanName } from './values.js';

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

export function listTokens(ctx: Context, who: Who): TokenInfo[] {
  personOnly(who, 'see the agents\' tokens', 'token list', 'voir les jetons des agents');
  return (ctx.db.prepare('SELECT * FROM tokens ORDER BY created, prefix').all() as Row[]).map(infoOf);
}

export function addToken(ctx: Context, name: string, options: { expiresMs?: number }, who: Who): TokenMade {
  personOnly(who, 'make a token for an agent', 'token add', 'créer un jeton pour un agent');
  const clean = cleanName(name, 'An agent', 'd\'un agent');
  const agent = `agent:${slug(clean)}`;
  const now = ctx.now();
  const expires = options.expiresMs !== undefined ? now + options.expiresMs : null;
  const insert = ctx.db.prepare('INSERT OR IGNORE INTO tokens (hash, prefix, name, agent, created, expires) VALUES (?, ?, ?, ?, ?, ?)');
  for (;;) {
    const token = `${TOKEN_START}${randomBytes(32).toString('base64url')}`;
    const prefix = token.slice(0, TOKEN_START.length + SHOWN);
    // Two tokens with one prefix could not be told apart when listed or revoked: draw again.
    if (insert.run(hashToken(token), prefix, clean, agent, iso(now), expires).changes === 0) continue;
    ctx.log(who, 'token-add', null, null, { name: clean, agent, prefix, expires: expires === null ? null : iso(expires) });
    return { token, name: clean, agent, prefix, created: iso(now), used: null, expires: expires === null ? null : iso(expires), revoked: null };
  }
}

/** Revokes the token of that prefix, or every live token of the agent of that name. */
export function revokeTokens(ctx: Context, ref: string, who: Who): TokenInfo[] {
  personOnly(who, 'revoke an agent\'s token', 'token revoke', 'révoquer le jeton d\'un agent');
  const given = String(ref).trim();
  const prefix = given.startsWith(TOKEN_START) ? given.slice(0, TOKEN_START.length + SHOWN) : `${TOKEN_START}${given}`;
  const live = ctx.db.prepare('SELECT * FROM tokens WHERE revoked IS NULL').all() as Row[];
  const agent = given.startsWith('agent:') ? given : `agent:${slug(given)}`;
  const byPrefix = live.filter((row) => row.prefix === prefix);
  const chosen = byPrefix.length ? byPrefix : live.filter((row) => row.agent === agent);
  if (chosen.length === 0 || !given) {
    const shown = given.slice(0, 60);
    throw new Refused(
      `No live token is named "${shown}" or starts so: binder admin token list shows them.`,
      `Aucun jeton valide ne s'appelle « ${shown} » ni ne commence ainsi : binder admin token list les montre.`,
    );
  }
  const at = iso(ctx.now());
  const revoke = ctx.db.prepare('UPDATE tokens SET revoked = ? WHERE hash = ?');
  for (const row of chosen) {
    revoke.run(at, row.hash);
    ctx.log(who, 'token-revoke', null, null, { name: row.name, agent: row.agent, prefix: row.prefix });
  }
  return chosen.map((row) => infoOf({ ...row, revoked: at }));
}

/** The row of a token, compared in constant time once found by its hash. */
function rowOf(ctx: Context, token: string): Row | undefined {
  if (!tokenShaped(token)) return undefined;
  const hash = hashToken(token);
  const row = ctx.db.prepare('SELECT * FROM tokens WHERE hash = ?').get(hash) as Row | undefined;
  if (!row || !timingSafeEqual(Buffer.from(row.hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
  return row;
}

/**
 * Who `token` is, if a person made it and it is neither revoked nor expired. Notes its use, in a
 * transaction of its own, at most once a minute: the look itself takes no lock.
 */
export function checkToken(ctx: Context, token: string): TokenCheck {
  const row = rowOf(ctx, token);
  if (!row) return { ok: false, why: 'unknown' };
  if (row.revoked !== null) return { ok: false, why: 'revoked', prefix: row.prefix, at: row.revoked };
  const now = ctx.now();
  if (row.expires !== null && row.expires <= now) return { ok: false, why: 'expired', prefix: row.prefix, at: iso(row.expires) };
  if (row.used === null || now - row.used >= USE_STEP_MS) {
    ctx.transaction(() => ctx.db.prepare('UPDATE tokens SET used = ? WHERE hash = ?').run(now - (now % USE_STEP_MS), row.hash));
  }
  // Its folder's name, where a person registered one for the same agent: one agent, one name.
  const side = ctx.db.prepare('SELECT name FROM sides WHERE agent = ?').pluck().get(row.agent) as string | undefined;
  return { ok: true, who: { id: row.agent, kind: 'agent', name: side ?? row.name }, prefix: row.prefix };
}

/**
 * A token that was sent where it may be kept (a URL's query, which logs and proxies keep): it is
 * revoked at once, by its own agent, and what it was is returned (null when it is no token).
 */
export function leakedToken(ctx: Context, token: string): TokenInfo | null {
  const row = rowOf(ctx, token);
  if (!row) return null;
  if (row.revoked !== null) return infoOf(row);
  const at = iso(ctx.now());
  ctx.db.prepare('UPDATE tokens SET revoked = ? WHERE hash = ?').run(at, row.hash);
  ctx.log({ id: row.agent, kind: 'agent', name: row.name }, 'token-revoke', null, null,
    { name: row.name, agent: row.agent, prefix: row.prefix, why: 'sent in a URL' });
  return infoOf({ ...row, revoked: at });
}
