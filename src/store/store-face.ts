/**
 * The store's operations as a Store, over how they are run: `write` and `read` (each in a
 * transaction of its own, or in a savepoint of the one a caller holds), `single` (a read of one
 * statement, which outside a transaction takes none of its own). Which rule each member runs is
 * written here and nowhere else; how it runs is store-run.ts's, who may ask it who-may.ts's.
 */
import { deleteList, deleteRecord } from './erase.js';
import { archiveList, createList, editList, grant, templates } from './list-admin.js';
import { lists, show } from './lists.js';
import { findList } from './access.js';
import { attach, detach, editNote, get, note } from './record-parts.js';
import { add, approve, archive, edit, move } from './records.js';
import { search } from './search.js';
import { addSide, bindSide, removeSide } from './sides.js';
import { brief, dueAndTell, markSeen } from './brief.js';
import { release, take, takeNext } from './claims.js';
import { lapse } from './leases.js';
import { ready } from './ready.js';
import { blocked, needs } from './needs.js';
import { exportBinder } from './exchange-out.js';
import { importBinder } from './exchange-in.js';
import { addLoginLink, checkSession, endSession, endSessionsOf, listSessions, noteSessionUse, openSession, revokeSessions, useLoginLink } from './sessions.js';
import { finishedSignIn, keptSignInKey, markSignIn, signInFinished, signInIssuer, signInKey } from './signin.js';
import { addToken, checkTokenPrefix, leakedToken, listTokens, noteTokenUse, revokeTokens, type TokenLooked } from './tokens.js';
import { listPeople, removedPeople, removePerson, setRole, signIn } from './people.js';
import { indexToken, listOrgs, orgSlug } from './orgs.js';
import { addHook, listHooks, removeHook, testHook } from './hooks.js';
import { deliveriesDue, deliveryTried, hookWork, nextDeliveryAt, queueHookEvents } from './hook-queue.js';
import type { Op } from './who-may.js';
import type { Engine } from './sql/port.js';
import type { Store } from './store.js';
import type { Change, Who } from './types.js';
import type { Side } from './store-inputs.js';
import type { BriefOptions } from './together-types.js';

/** How an operation is made a member of the Store. */
export type Runner = <A extends unknown[], R>(op: Op<A, R>) => (...args: A) => Promise<R>;

export interface Runs {
  write: Runner;
  read: Runner;
  single: Runner;
  /** A token looked up: outside a transaction, through what was read while nothing changed. */
  lookToken: (token: string) => Promise<TokenLooked>;
  /** The registered folders: outside a transaction, as read while none changed. */
  lookSides: () => Promise<Side[]>;
  listeners: Set<(change: Change) => void>;
  engine: Engine;
}

type Rest = Pick<Store, 'transaction' | 'ledger' | 'tokenOrg' | 'presumeToken'>;
type Made = Exclude<keyof Store, keyof Rest>;

/**
 * Each member of the Store, made from how operations run. A table rather than one object, so
 * that a transaction's store makes only the members it uses (a keeper's ask uses two or three
 * of seventy; making them all at every transaction was most of a `get`'s time in the keeper).
 */
type Members = { readonly [K in Made]: (runs: Runs) => Store[K] };

/** The binder's rules: lists, records, claims, needs and briefs. */
const RULES = {
  lists: ({ read }) => read(lists),
  list: ({ read }) => read(async (c, ref: string, who: Who) => (await findList(c, ref, who, 'read')).list),
  show: ({ read }) => read(show),
  // Where the record's page is one statement (Dialect.rowsAsJson), it needs no transaction around it:
  // what it may read after (a person's list access, a long history's count) is read as it is then.
  get: ({ read, single, engine }) => (engine.pieces.rowsAsJson ? single : read)(get),
  search: ({ read }) => read(search),
  add: ({ write }) => write(add),
  edit: ({ write }) => write(edit),
  move: ({ write }) => write(move),
  note: ({ write }) => write(note),
  attach: ({ write }) => write(attach),
  detach: ({ write }) => write(detach),
  archive: ({ write }) => write(archive),
  approve: ({ write }) => write(approve),
  delete: ({ write }) => write(deleteRecord),
  editNote: ({ write }) => write(editNote),
  templates: () => (lang: Parameters<typeof templates>[0]) => templates(lang),
  createList: ({ write }) => write(createList),
  editList: ({ write }) => write(editList),
  grant: ({ write }) => write(grant),
  archiveList: ({ write }) => write(archiveList),
  deleteList: ({ write }) => write(deleteList),
  due: ({ write }) => write(dueAndTell),
  take: ({ write }) => write(take),
  takeNext: ({ write }) => write(takeNext),
  release: ({ write }) => write(release),
  // These lapse old claims first, so they write (a little) and take the write lock.
  ready: ({ write }) => write(async (c, list: string | undefined, who: Who, o?: { limit?: number; query?: string }) => {
    await lapse(c);
    return ready(c, list, who, o);
  }),
  lapse: ({ write }) => write(lapse),
  needs: ({ write }) => write(needs),
  blocked: ({ read }) => read(blocked),
  // A peek only reads (waits peek on every change); a brief moves the asker's place.
  brief: ({ read, write }) => (who: Who, o?: BriefOptions) => (o?.peek
    ? read(brief)(who, o)
    : write(async (c, asker: Who, given?: BriefOptions) => {
      await lapse(c);
      return brief(c, asker, given);
    })(who, o)),
  markSeen: ({ write }) => write(markSeen),
} satisfies Partial<Members>;

/** Access and people: folders, tokens, sessions, sign-in, roles, organisations. */
const ACCESS = {
  // Read by the keeper at every pass over the folders (store-core.ts keeps them while none changed).
  sides: ({ lookSides }) => lookSides,
  addSide: ({ write }) => write(addSide),
  removeSide: ({ write }) => write(removeSide),
  bindSide: ({ write }) => write(bindSide),
  tokens: ({ read }) => read(listTokens),
  addToken: ({ write }) => write(addToken),
  revokeTokens: ({ write }) => write(revokeTokens),
  // The look takes no write lock; a use is noted in a transaction of its own, now and then.
  checkToken: ({ write, lookToken }) => async (token: string) => {
    const { check, used } = await lookToken(token);
    if (used) await write(noteTokenUse)(used.hash, used.at);
    return check;
  },
  checkTokenPrefix: ({ read }) => read(checkTokenPrefix),
  leakedToken: ({ write }) => write(leakedToken),
  addLoginLink: ({ write }) => write(addLoginLink),
  useLoginLink: ({ write }) => write(useLoginLink),
  // As a token's: the look takes no write lock, a use is noted now and then.
  checkSession: ({ write, single }) => async (cookie: string) => {
    const { check, used } = await single(checkSession)(cookie);
    if (used) await write(noteSessionUse)(used.hash, used.at);
    return check;
  },
  endSession: ({ write }) => write(endSession),
  endSessionsOf: ({ write }) => write(endSessionsOf),
  sessions: ({ read }) => read(listSessions),
  revokeSessions: ({ write }) => write(revokeSessions),
  signInIssuer: ({ read }) => read(signInIssuer),
  markSignIn: ({ write }) => write(markSignIn),
  // Read without a write lock once made: a sign-in's start writes nothing.
  signInKey: ({ read, write }) => async () => (await read(keptSignInKey)()) ?? write(signInKey)(),
  signInFinished: ({ read }) => read(signInFinished),
  finishedSignIn: ({ write }) => write(finishedSignIn),
  openSession: ({ write }) => write(openSession),
  signIn: ({ write }) => write(signIn),
  people: ({ read }) => read(listPeople),
  setRole: ({ write }) => write(setRole),
  removePerson: ({ write }) => write(removePerson),
  removedPeople: ({ read }) => read(removedPeople),
  orgSlug: ({ write }) => write(orgSlug),
  orgs: ({ read }) => read(listOrgs),
  indexToken: ({ write }) => write(indexToken),
} satisfies Partial<Members>;

/** The keeper's webhooks and exchange, and the engine's own members. */
const KEEPER = {
  path: ({ engine }) => engine.path,
  dialect: ({ engine }) => engine.dialect,
  severalKeepers: ({ engine }) => engine.severalKeepers,
  inAFile: ({ engine }) => engine.inAFile,
  hooks: ({ read }) => read(listHooks),
  addHook: ({ write }) => write(addHook),
  removeHook: ({ write }) => write(removeHook),
  testHook: ({ write }) => write(testHook),
  // Asked only where the keeper's look (hookWork, one statement in no transaction) found a hook behind.
  queueHookEvents: ({ write }) => write(queueHookEvents),
  deliveriesDue: ({ write }) => write(deliveriesDue),
  deliveryTried: ({ write }) => write(deliveryTried),
  nextDeliveryAt: ({ single }) => single(nextDeliveryAt),
  hookWork: ({ single }) => single(hookWork),
  exportBinder: ({ read }) => read(exportBinder),
  importBinder: ({ write }) => write(importBinder),
  onChange: ({ listeners }) => (listener: (change: Change) => void) => {
    listeners.add(listener);
    return () => { listeners.delete(listener); };
  },
  onOtherChange: ({ engine }) => (listener: Parameters<Engine['onOtherChange']>[0]) => engine.onOtherChange(listener),
  holdFolder: ({ engine }) => async (key: string) => (engine.holdFolder ? engine.holdFolder(key) : true),
  checkpoint: ({ engine }) => async () => {
    await engine.afterDelete();
    await engine.rewritten?.();
  },
  close: ({ engine }) => () => engine.close(),
} satisfies Partial<Members>;

const MEMBERS: Members = { ...RULES, ...ACCESS, ...KEEPER };
const MADE = Object.keys(MEMBERS) as Made[];

/** Every operation as a member of the Store, each made now: the store a keeper holds. */
export function storeFace(runs: Runs, rest: Rest): Store {
  const face = { ...rest } as Record<string, unknown>;
  for (const key of MADE) face[key] = MEMBERS[key](runs);
  return face as unknown as Store;
}

const RUNS = Symbol('runs');

/** A member made at its first use, then kept on the store that used it. */
const LAZY = Object.create(null, Object.fromEntries(MADE.map((key) => [key, {
  get(this: { [RUNS]: Runs }) {
    const member = MEMBERS[key](this[RUNS]);
    Object.defineProperty(this, key, { value: member, enumerable: true });
    return member;
  },
  enumerable: true,
}]))) as object;

/** Every operation as a member of the Store, each made at its first use: a transaction's store. */
export function lazyFace(runs: Runs, rest: Rest): Store {
  return Object.assign(Object.create(LAZY) as object, { [RUNS]: runs }, rest) as unknown as Store;
}
