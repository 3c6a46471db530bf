/**
 * What a service store keeps above organisations: each organisation's name and the slug its
 * binder is kept under (a folder, or a PostgreSQL schema `org_<slug>`), and which organisation
 * each agent token was made in. An organisation's name is never a path nor an SQL identifier: its
 * slug is made here, of [a-z0-9-] alone, unique (a second name with the same slug gets `-2`), and
 * kept, so one name always finds one binder and two names never share one.
 */
import type { Context } from './context.js';
import { slug as slugOf, uniqueSlug } from './slug.js';
import { hashToken, tokenShaped } from './tokens.js';
import { refusal } from './words/index.js';

/** The longest organisation name taken, and the longest slug made of one. */
const NAME_MAX = 200;
const SLUG_MAX = 40;

export interface Organisation {
  name: string;
  slug: string;
  created: string;
}

/**
 * An organisation's name as it is kept: NFC, trimmed, lowercased (a domain, or a claim's value,
 * in any case is one organisation). Empty, too long or with control bytes: refused.
 */
export function cleanOrg(given: unknown): string {
  const name = String(given ?? '').normalize('NFC').trim().toLowerCase();
  // eslint-disable-next-line no-control-regex
  if (!name || Array.from(name).length > NAME_MAX || /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) {
    throw refusal('orgName', [NAME_MAX], 'not-understood');
  }
  return name;
}

/** The slug of an organisation's binder: the one kept, else a new one, unique, kept now. */
export async function orgSlug(ctx: Context, given: string): Promise<string> {
  const name = cleanOrg(given);
  const known = await ctx.q.value<string>('SELECT slug FROM orgs WHERE name = ?', [name]);
  if (known !== undefined) return known;
  const base = slugOf(name).slice(0, SLUG_MAX).replace(/-+$/, '') || 'org';
  const taken = new Set(await ctx.q.column<string>('SELECT slug FROM orgs WHERE slug = ? OR slug LIKE ?', [base, `${base}-%`]));
  const slug = uniqueSlug(base, (s) => taken.has(s));
  // Two keepers registering one name (or two names of one slug) at once: the second is run again.
  await ctx.q.run('INSERT INTO orgs (name, slug, created) VALUES (?, ?, ?)', [name, slug, new Date(ctx.now()).toISOString()]);
  return slug;
}

export async function listOrgs(ctx: Context): Promise<Organisation[]> {
  return ctx.q.all<Organisation>('SELECT name, slug, created FROM orgs ORDER BY name');
}

/** A token made in an organisation's binder, by its hash. */
export async function indexToken(ctx: Context, hash: string, org: string): Promise<void> {
  const name = cleanOrg(org);
  await ctx.q.run('INSERT INTO token_orgs (hash, org) VALUES (?, ?) ON CONFLICT (hash) DO UPDATE SET org = excluded.org', [hash, name]);
}

/** The organisation a token was made in, or null (no token, or one this service never made). */
export async function tokenOrg(ctx: Context, token: string): Promise<string | null> {
  if (!tokenShaped(token)) return null;
  return (await ctx.q.value<string>('SELECT org FROM token_orgs WHERE hash = ?', [hashToken(token)])) ?? null;
}
