/**
 * The people of a binder and their roles: who signed in (through an identity provider), as what
 * (`admin` or `member`), and who was removed. The first person to sign in is the binder's admin,
 * decided in the sign-in's own transaction; the last admin is never demoted nor removed. A person
 * not in `people` is the local person or the machine's operator (`binder admin`): an admin. The
 * role is decided here, for every person's operation (store-core.ts asks `actingRole`), never by
 * a face. A removed person's row stays: the history still names them.
 */
import { iso, type Context } from './context.js';
import { Refused } from './store.js';
import type { Who } from './types.js';
import { refusal, refusalSaid } from './words/index.js';

export type Role = 'admin' | 'member';
export const ROLES: readonly Role[] = ['admin', 'member'];

export interface Person {
  id: string;
  name: string;
  email: string | null;
  role: Role;
  /** ISO times of the first and the latest sign-in. */
  firstSignIn: string;
  lastSignIn: string;
  /** ISO time an admin removed them, or null. */
  removed: string | null;
}

/** A sign-in recorded: the person as the binder knows them now, and their role. */
export interface SignedIn {
  who: Who;
  role: Role;
  /** This sign-in made them the binder's first person, its admin. */
  first: boolean;
}

/** Where the binder stands on people it has never seen sign in. */
export interface PeopleRules {
  /**
   * The binder is an organisation's, where people sign in: a signed-in person's id
   * (`person:<issuer host>/<subject>`, with a slash) acts only once `signIn` recorded it. Ids
   * without one are the machine's operator (`binder admin`). Off: every unknown person is the
   * local person, an admin.
   */
  signedIn?: boolean;
}

interface Row { id: string; name: string; email: string | null; role: Role; first_in: number; last_in: number; removed: number | null }

const personOf = (row: Row): Person => ({
  id: row.id, name: row.name, email: row.email, role: row.role,
  firstSignIn: iso(row.first_in), lastSignIn: iso(row.last_in), removed: row.removed === null ? null : iso(row.removed),
});

/** What the provider gave, as it may be kept and shown: one line, no control bytes, bidi controls nor invisible characters, not too long. */
function said(text: string | undefined, most: number): string {
  // eslint-disable-next-line no-control-regex
  return Array.from(String(text ?? '').replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g, ' ').replace(/\s+/g, ' ').trim()).slice(0, most).join('');
}

const removedRefusal = (): Refused => refusal('removedPerson', [], 'access');

const notSignedIn = (): Refused => refusal('notSignedIn', [], 'access');

/**
 * Records a sign-in: the person's name and e-mail as the provider gave them now. The first
 * person of the binder becomes its admin in this same transaction: two first sign-ins at once
 * both try to insert the one row marked `first_admin`, and the second is run again (PostgreSQL)
 * or waits (SQLite), finding the first. A removed person is refused and nothing is changed.
 */
export async function signIn(ctx: Context, who: Who): Promise<SignedIn> {
  if (who.kind !== 'person' || !who.id.startsWith('person:')) throw new Error(`signIn takes a person, not ${String(who.id)}`);
  const email = said(who.email, 254) || null;
  const name = said(who.name, 100) || email || who.id.slice('person:'.length);
  const now = ctx.now();
  const row = await ctx.q.get<Row>('SELECT * FROM people WHERE id = ?', [who.id]);
  const signed: Who = { id: who.id, kind: 'person', name, ...(email ? { email } : {}) };
  if (row) {
    if (row.removed !== null) throw removedRefusal();
    await ctx.q.run('UPDATE people SET name = ?, email = ?, last_in = ? WHERE id = ?', [name, email, now, who.id]);
    return { who: signed, role: row.role, first: false };
  }
  const anyone = await ctx.q.value<number>('SELECT 1 FROM people LIMIT 1');
  const first = anyone === undefined;
  await ctx.q.run('INSERT INTO people (id, name, email, role, first_admin, first_in, last_in) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [who.id, name, email, first ? 'admin' : 'member', first ? 1 : null, now, now]);
  return { who: signed, role: first ? 'admin' : 'member', first };
}

/**
 * The role `who` acts with: null for an agent (its grants decide), a person's role, or admin for
 * a person the binder never saw sign in (the local person, the machine's operator) — unless the
 * binder is an organisation's and the id is a signed-in one. A removed person is refused.
 */
export async function actingRole(ctx: Context, who: Who, rules: PeopleRules): Promise<Role | null> {
  if (who.kind !== 'person') return null;
  const row = await ctx.q.get<{ role: Role; removed: number | null }>('SELECT role, removed FROM people WHERE id = ?', [who.id]);
  if (!row) {
    if (rules.signedIn && who.id.includes('/')) throw notSignedIn();
    return 'admin';
  }
  if (row.removed !== null) throw removedRefusal();
  return row.role;
}

/**
 * What only the machine's operator may do in an organisation's binder (`binder admin --org`),
 * never a signed-in person, admin or not: naming a directory of the server. Its folders are the
 * whole server's — another organisation's agent's, the binders' own — and a signed-in person is
 * of one organisation alone; whoever runs the server knows which folder is whose.
 */
export function operatorOnly(who: Who, rules: PeopleRules, doing: AdminDoing): void {
  if (!rules.signedIn || who.kind !== 'person' || !who.id.includes('/')) return;
  throw refusalSaid((w, language) => w.serverOnly(doing[language]), 'access');
}

/**
 * The ids of the people removed from this binder (of `id` alone, when given): the HTTP face ends
 * their sessions, kept in another store. Ids only, for the face's own use, never shown.
 */
export async function removedPeople(ctx: Context, id?: string): Promise<string[]> {
  return id === undefined
    ? ctx.q.column<string>('SELECT id FROM people WHERE removed IS NOT NULL ORDER BY id')
    : ctx.q.column<string>('SELECT id FROM people WHERE removed IS NOT NULL AND id = ?', [id]);
}

/** What only an admin may do, in words that complete "Only an admin of this binder can …". */
export interface AdminDoing { en: string; fr: string }

export function adminOnly(doing: AdminDoing): Refused {
  return refusalSaid((w, language) => w.adminOnly(doing[language]), 'access');
}

/** Everyone who signed in, admins first, the removed last. */
export async function listPeople(ctx: Context, who: Who): Promise<Person[]> {
  const rows = await ctx.q.all<Row>(`SELECT * FROM people ORDER BY CASE WHEN removed IS NULL THEN 0 ELSE 1 END,
    CASE role WHEN 'admin' THEN 0 ELSE 1 END, lower(name), id`);
  return rows.map(personOf);
}

/** A person by id, e-mail or name (any case); two of one name are told apart by e-mail. */
async function findPerson(ctx: Context, ref: string): Promise<Row> {
  const given = said(ref, 300);
  const lower = given.toLowerCase();
  const rows = await ctx.q.all<Row>('SELECT * FROM people ORDER BY id');
  const byId = rows.filter((r) => r.id === given || r.id === `person:${given}`);
  const anyCase = rows.filter((r) => r.email !== null && r.email.toLowerCase() === lower);
  // Two e-mails of one letters, in another case (two accounts at the provider): the one as written names one.
  const exact = anyCase.filter((r) => r.email === given);
  const byEmail = anyCase.length > 1 && exact.length === 1 ? exact : anyCase;
  const byName = rows.filter((r) => r.name.toLowerCase() === lower);
  const found = byId.length ? byId : byEmail.length ? byEmail : byName;
  if (found.length === 1) return found[0]!;
  const shown = given.slice(0, 80);
  if (found.length === 0) {
    throw refusal('noPerson', [shown]);
  }
  // By e-mail where that tells them apart, else by id (e-mails the same but for case, or none).
  const emails = found.map((r) => r.email?.toLowerCase());
  const apart = emails.every((e, i) => e !== undefined && emails.indexOf(e) === i);
  const which = found.map((r) => (apart ? r.email! : r.id)).join(', ');
  throw refusal('peopleSameName', [found.length, shown, apart, which]);
}

/** Whether taking `row`'s admin role away leaves the binder with none. Locks the admins' rows (PostgreSQL). */
async function lastAdmin(ctx: Context, row: Row): Promise<boolean> {
  if (row.role !== 'admin' || row.removed !== null) return false;
  // Two admins demoting each other at once: each locks every admin's row, so the second is run
  // again and counts one admin left (where changes run one at a time, none is needed).
  const admins = await ctx.q.column<string>(`SELECT id FROM people WHERE role = 'admin' AND removed IS NULL ORDER BY id${ctx.q.dialect.forUpdate}`);
  return admins.length <= 1;
}

const lastAdminRefusal = (row: Row, change: 'member' | 'removed'): Refused => refusal('lastAdmin', [row.name, change]);

/** Gives a person a role; a removed person given one is back in. */
export async function setRole(ctx: Context, ref: string, role: Role, who: Who): Promise<Person> {
  if (!ROLES.includes(role)) {
    throw refusal('notARole', [said(String(role), 40)], 'not-understood');
  }
  const row = await findPerson(ctx, ref);
  if (row.role === role && row.removed === null) return personOf(row);
  if (role === 'member' && await lastAdmin(ctx, row)) throw lastAdminRefusal(row, 'member');
  await ctx.q.run('UPDATE people SET role = ?, removed = NULL WHERE id = ?', [role, row.id]);
  await ctx.log(who, 'set-role', null, null, { person: row.id, name: row.name, email: row.email, role, from: row.role, back: row.removed !== null });
  return personOf({ ...row, role, removed: null });
}

/** Removes a person: refused from now on, their sessions ended, their history kept. */
export async function removePerson(ctx: Context, ref: string, who: Who): Promise<Person> {
  const row = await findPerson(ctx, ref);
  if (row.removed !== null) {
    throw refusal('removedAlready', [row.name]);
  }
  if (await lastAdmin(ctx, row)) throw lastAdminRefusal(row, 'removed');
  const at = ctx.now();
  await ctx.q.run('UPDATE people SET removed = ? WHERE id = ?', [at, row.id]);
  // Their sessions are kept beside this binder's (an organisation's, in its service store):
  // ended before this commits, so no page of theirs outlives the removal by a moment.
  if (ctx.personRemoved) await ctx.personRemoved(row.id);
  await ctx.log(who, 'remove-person', null, null, { person: row.id, name: row.name, email: row.email });
  return personOf({ ...row, removed: at });
}
