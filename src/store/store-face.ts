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
import { addSide, bindSide, removeSide, sides } from './sides.js';
import { brief, dueAndTell, markSeen } from './brief.js';
import { release, take, takeNext } from './claims.js';
import { lapse } from './leases.js';
import { ready } from './ready.js';
import { blocked, needs } from './needs.js';
import { exportBinder } from './exchange-out.js';
import { importBinder } from './exchange-in.js';
import { addLoginLink, checkSession, endSession, endSessionsOf, listSessions, noteSessionUse, openSession, revokeSessions, useLoginLink } from './sessions.js';
import { finishedSignIn, keptSignInKey, markSignIn, signInFinished, signInIssuer, signInKey } from './signin.js';
import { addToken, checkTokenPrefix, leakedToken, listTokens, noteTokenUse, revokeTokens, type tokenCheck } from './tokens.js';
import { listPeople, removedPeople, removePerson, setRole, signIn } from './people.js';
import { indexToken, listOrgs, orgSlug } from './orgs.js';
import { addHook, listHooks, removeHook, testHook } from './hooks.js';
import { deliveriesDue, deliveryTried, hooksBehind, nextDeliveryAt, queueHookEvents } from './hook-queue.js';
import type { Op } from './who-may.js';
import type { Engine } from './sql/port.js';
import type { Store } from './store.js';
import type { Change, Who } from './types.js';
import type { BriefOptions } from './together-types.js';

/** How an operation is made a member of the Store. */
export type Runner = <A extends unknown[], R>(op: Op<A, R>) => (...args: A) => Promise<R>;

export interface Runs {
  write: Runner;
  read: Runner;
  single: Runner;
  /** A token looked up: outside a transaction, through what was read while nothing changed. */
  lookToken: (token: string) => Promise<ReturnType<typeof tokenCheck>>;
  listeners: Set<(change: Change) => void>;
}

type Rest = Pick<Store, 'transaction' | 'ledger' | 'tokenOrg'>;

/** The binder's rules: lists, records, claims, needs and briefs. */
function rulesFace({ write: w, read: r }: Runs) {
  return {
    lists: r(lists),
    list: r(async (c, ref: string, who: Who) => (await findList(c, ref, who, 'read')).list),
    show: r(show),
    get: r(get),
    search: r(search),
    add: w(add),
    edit: w(edit),
    move: w(move),
    note: w(note),
    attach: w(attach),
    detach: w(detach),
    archive: w(archive),
    approve: w(approve),
    delete: w(deleteRecord),
    editNote: w(editNote),
    templates: (lang: Parameters<typeof templates>[0]) => templates(lang),
    createList: w(createList),
    editList: w(editList),
    grant: w(grant),
    archiveList: w(archiveList),
    deleteList: w(deleteList),
    due: w(dueAndTell),
    take: w(take),
    takeNext: w(takeNext),
    release: w(release),
    // These lapse old claims first, so they write (a little) and take the write lock.
    ready: w(async (c, list: string | undefined, who: Who, o?: { limit?: number }) => {
      await lapse(c);
      return ready(c, list, who, o);
    }),
    lapse: w(lapse),
    needs: w(needs),
    blocked: r(blocked),
    // A peek only reads (waits peek on every change); a brief moves the asker's place.
    brief: (who: Who, o?: BriefOptions) => (o?.peek
      ? r(brief)(who, o)
      : w(async (c, asker: Who, given?: BriefOptions) => {
        await lapse(c);
        return brief(c, asker, given);
      })(who, o)),
    markSeen: w(markSeen),
  } satisfies Partial<Store>;
}

/** Access and people: folders, tokens, sessions, sign-in, roles, organisations. */
function accessFace({ write: w, read: r, single, lookToken }: Runs) {
  return {
    // Read by the keeper at every pass over the folders: one statement, in no transaction of its own.
    sides: single(sides),
    addSide: w(addSide),
    removeSide: w(removeSide),
    bindSide: w(bindSide),
    tokens: r(listTokens),
    addToken: w(addToken),
    revokeTokens: w(revokeTokens),
    // The look takes no write lock; a use is noted in a transaction of its own, now and then.
    async checkToken(token: string) {
      const { check, used } = await lookToken(token);
      if (used) await w(noteTokenUse)(used.hash, used.at);
      return check;
    },
    checkTokenPrefix: r(checkTokenPrefix),
    leakedToken: w(leakedToken),
    addLoginLink: w(addLoginLink),
    useLoginLink: w(useLoginLink),
    // As a token's: the look takes no write lock, a use is noted now and then.
    async checkSession(cookie: string) {
      const { check, used } = await single(checkSession)(cookie);
      if (used) await w(noteSessionUse)(used.hash, used.at);
      return check;
    },
    endSession: w(endSession),
    endSessionsOf: w(endSessionsOf),
    sessions: r(listSessions),
    revokeSessions: w(revokeSessions),
    signInIssuer: r(signInIssuer),
    markSignIn: w(markSignIn),
    // Read without a write lock once made: a sign-in's start writes nothing.
    async signInKey() {
      return (await r(keptSignInKey)()) ?? w(signInKey)();
    },
    signInFinished: r(signInFinished),
    finishedSignIn: w(finishedSignIn),
    openSession: w(openSession),
    signIn: w(signIn),
    people: r(listPeople),
    setRole: w(setRole),
    removePerson: w(removePerson),
    removedPeople: r(removedPeople),
    orgSlug: w(orgSlug),
    orgs: r(listOrgs),
    indexToken: w(indexToken),
  } satisfies Partial<Store>;
}

/** The keeper's webhooks and exchange, and the engine's own members. */
function keeperFace(engine: Engine, { write: w, read: r, listeners }: Runs) {
  return {
    path: engine.path,
    dialect: engine.dialect,
    severalKeepers: engine.severalKeepers,
    inAFile: engine.inAFile,
    hooks: r(listHooks),
    addHook: w(addHook),
    removeHook: w(removeHook),
    testHook: w(testHook),
    // A look first, without the write lock: most passes find every hook told already.
    queueHookEvents: async () => ((await r(hooksBehind)()) ? w(queueHookEvents)() : { queued: 0, more: false }),
    deliveriesDue: w(deliveriesDue),
    deliveryTried: w(deliveryTried),
    nextDeliveryAt: r(nextDeliveryAt),
    exportBinder: r(exportBinder),
    importBinder: w(importBinder),
    onChange(listener: (change: Change) => void) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
    onOtherChange: (listener: Parameters<Engine['onOtherChange']>[0]) => engine.onOtherChange(listener),
    holdFolder: async (key: string) => (engine.holdFolder ? engine.holdFolder(key) : true),
    checkpoint: async () => {
      await engine.afterDelete();
      await engine.rewritten?.();
    },
    close: () => engine.close(),
  } satisfies Partial<Store>;
}

/** Every operation as a member of the Store. */
export const storeFace = (engine: Engine, runs: Runs, rest: Rest): Store =>
  ({ ...rulesFace(runs), ...accessFace(runs), ...keeperFace(engine, runs), ...rest });
