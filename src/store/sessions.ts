/**
 * A person's sign-in to the web page: a one-time login link (made by a person, ten minutes, one
 * use) opens a session, whose cookie is the person on every later request. Only sha-256 hashes
 * of a link's key and of a session's cookie are kept; the key and the cookie are returned once,
 * when made, and must never be written anywhere by the store. A session is always a person's:
 * nothing here makes one for an agent.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { iso, type Context } from './context.js';
import { noLinksWhenSignedIn } from './signin.js';
import type { Who } from './types.js';
import { cleanName } from './values.js';
import { refusal } from './words/index.js';

/** How long a login link may wait for its one use. */
export const LINK_MS = 10 * 60_000;
/** How long a session lasts from its sign-in. */
export const SESSION_MS = 30 * 24 * 3_600_000;
/** A session's last use is written at most this often. */
const USE_STEP_MS = 60_000;
/** What is kept of a browser's User-Agent, for the list of sessions. */
const BROWSER_MAX = 120;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

export interface LoginLinkMade {
  /** The link's key, in this answer alone: the page's address ends with `#login=<key>`. */
  key: string;
  person: string;
  expires: string;
}

export interface SessionInfo {
  id: string;
  person: string;
  /** A signed-in person's e-mail and organisation (none for a login link's session). */
  email?: string;
  org?: string;
  created: string;
  used: string;
  expires: string;
  revoked: string | null;
  browser: string;
}

/** A session just opened: the only time its cookie value is known. */
export interface SessionMade extends SessionInfo {
  cookie: string;
}

/** A session's person; `org` is a signed-in person's organisation (none for a login link's). */
export type SessionCheck = { ok: true; who: Who; id: string; org?: string } | { ok: false };

interface Row {
  hash: string; id: string; person: string; created: number; used: number; expires: number; revoked: number | null; browser: string;
  who?: string | null; org?: string | null;
}

/** The Who a session was opened for: a signed-in person's as their provider said it, else the local person of a link. */
function whoOf(row: Row): Who {
  if (row.who) {
    const w = JSON.parse(row.who) as Who;
    return { id: String(w.id), kind: 'person', name: String(w.name), ...(typeof w.email === 'string' ? { email: w.email } : {}) };
  }
  return { id: `person:${row.person}`, kind: 'person', name: row.person };
}

const hashOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');
const secret = (): string => randomBytes(32).toString('base64url');

const infoOf = (row: Row): SessionInfo => ({
  id: row.id, person: row.person,
  ...(row.who ? { email: whoOf(row).email ?? '' } : {}), ...(row.org ? { org: row.org } : {}),
  created: iso(row.created), used: iso(row.used), expires: iso(row.expires),
  revoked: row.revoked === null ? null : iso(row.revoked), browser: row.browser,
});

/** Links past their time, and sessions ended a day ago or more, are forgotten. */
async function sweep(ctx: Context, now: number): Promise<void> {
  await ctx.q.run('DELETE FROM login_links WHERE expires <= ?', [now]);
  await ctx.q.run('DELETE FROM sessions WHERE expires <= ? OR revoked <= ?', [now - 86_400_000, now - 86_400_000]);
}

/** A one-time link for the person of that name; the person who makes it must be one. */
export async function addLoginLink(ctx: Context, name: string, who: Who): Promise<LoginLinkMade> {
  await noLinksWhenSignedIn(ctx);
  const person = cleanName(name, 'nameOfAPerson');
  const now = ctx.now();
  await sweep(ctx, now);
  const key = secret();
  await ctx.q.run('INSERT INTO login_links (hash, person, created, expires) VALUES (?, ?, ?, ?)', [hashOf(key), person, now, now + LINK_MS]);
  return { key, person, expires: iso(now + LINK_MS) };
}

/** Uses a link once: it is gone, and a session for its person is opened. */
export async function useLoginLink(ctx: Context, key: string, browser: string): Promise<SessionMade> {
  await noLinksWhenSignedIn(ctx);
  const now = ctx.now();
  // Taken by its delete: two keepers given the same link at once open one session between them.
  const row = SECRET.test(key)
    ? await ctx.q.get<{ person: string; expires: number }>('DELETE FROM login_links WHERE hash = ? RETURNING person, expires', [hashOf(key)])
    : undefined;
  if (!row || row.expires <= now) {
    throw refusal('linkUsed', [], 'access');
  }
  return newSession(ctx, row.person, null, null, browser);
}

async function newSession(ctx: Context, person: string, who: Who | null, org: string | null, browser: string): Promise<SessionMade> {
  const now = ctx.now();
  const cookie = secret();
  const said = Array.from(browser.replace(/[^\x20-\x7e]/g, '?')).slice(0, BROWSER_MAX).join('');
  const whoJson = who ? JSON.stringify({ id: who.id, kind: 'person', name: who.name, ...(who.email ? { email: who.email } : {}) }) : null;
  for (;;) {
    const id = randomBytes(6).toString('base64url');
    const used = now - (now % USE_STEP_MS);
    const made = await ctx.q.run('INSERT INTO sessions (hash, id, person, created, used, expires, browser, who, org) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [hashOf(cookie), id, person, now, used, now + SESSION_MS, said, whoJson, org]);
    if (made.changes === 0) continue;
    return { cookie, ...infoOf({ hash: '', id, person, created: now, used, expires: now + SESSION_MS, revoked: null, browser: said, who: whoJson, org }) };
  }
}

/**
 * A session for a person whom the identity provider vouched for (the HTTP face checked the ID
 * token): their Who and organisation are kept with it, and are the person on every later request.
 */
export async function openSession(ctx: Context, who: Who, org: string, browser: string): Promise<SessionMade> {
  if (who.kind !== 'person' || !who.id.startsWith('person:')) throw new Error('a session is a person\'s');
  return newSession(ctx, who.name, who, org, browser);
}

async function rowOf(ctx: Context, cookie: string): Promise<Row | undefined> {
  if (!SECRET.test(cookie)) return undefined;
  const hash = hashOf(cookie);
  const row = await ctx.q.get<Row>('SELECT * FROM sessions WHERE hash = ?', [hash]);
  if (!row || !timingSafeEqual(Buffer.from(row.hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
  return row;
}

/**
 * The person a session's cookie is, while it is neither revoked nor expired. A read: when its
 * last use is a minute old or more, `used` says what to note (in a write of its own).
 */
export async function checkSession(ctx: Context, cookie: string): Promise<{ check: SessionCheck; used?: { hash: string; at: number } }> {
  const row = await rowOf(ctx, cookie);
  const now = ctx.now();
  if (!row || row.revoked !== null || row.expires <= now) return { check: { ok: false } };
  const check: SessionCheck = { ok: true, who: whoOf(row), id: row.id, ...(row.org ? { org: row.org } : {}) };
  return now - row.used >= USE_STEP_MS ? { check, used: { hash: row.hash, at: now - (now % USE_STEP_MS) } } : { check };
}

export async function noteSessionUse(ctx: Context, hash: string, at: number): Promise<void> {
  await ctx.q.run('UPDATE sessions SET used = ? WHERE hash = ?', [at, hash]);
}

/** Signing out: the session of that cookie ends now. */
export async function endSession(ctx: Context, cookie: string): Promise<boolean> {
  const row = await rowOf(ctx, cookie);
  if (!row || row.revoked !== null) return false;
  await ctx.q.run('UPDATE sessions SET revoked = ? WHERE hash = ?', [ctx.now(), row.hash]);
  return true;
}

/**
 * Ends every open session of these signed-in people in that organisation (they were removed from
 * its binder, which is another store): how many ended.
 */
export async function endSessionsOf(ctx: Context, ids: readonly string[], org: string): Promise<number> {
  if (ids.length === 0) return 0;
  const wanted = new Set(ids);
  const now = ctx.now();
  const rows = await ctx.q.all<Row>('SELECT * FROM sessions WHERE org = ? AND revoked IS NULL AND expires > ?', [org, now]);
  const ended = rows.filter((row) => row.who && wanted.has(whoOf(row).id));
  for (const row of ended) await ctx.q.run('UPDATE sessions SET revoked = ? WHERE hash = ?', [now, row.hash]);
  return ended.length;
}

/** The sessions still open. */
export async function listSessions(ctx: Context, who: Who): Promise<SessionInfo[]> {
  const rows = await ctx.q.all<Row>('SELECT * FROM sessions WHERE revoked IS NULL AND expires > ? ORDER BY created, id', [ctx.now()]);
  return rows.map(infoOf);
}

/** Ends the session of that id, every session of the person of that name, or all of them (`all`). */
export async function revokeSessions(ctx: Context, ref: string, who: Who): Promise<SessionInfo[]> {
  const given = String(ref).trim();
  const now = ctx.now();
  const live = await ctx.q.all<Row>('SELECT * FROM sessions WHERE revoked IS NULL AND expires > ?', [now]);
  const byId = live.filter((row) => row.id === given);
  const chosen = given === 'all' ? live : byId.length ? byId : live.filter((row) => row.person.toLowerCase() === given.toLowerCase());
  if (chosen.length === 0) {
    const shown = given.slice(0, 60);
    throw refusal('noSession', [shown]);
  }
  for (const row of chosen) await ctx.q.run('UPDATE sessions SET revoked = ? WHERE hash = ?', [now, row.hash]);
  return chosen.map((row) => infoOf({ ...row, revoked: now }));
}
