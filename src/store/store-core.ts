/**
 * The store over any engine: every operation of the rules bound to a transaction of the engine's.
 * A change runs in one write transaction; a read in a read transaction (one snapshot, no write
 * lock); changes are announced only after the outermost commit, and dropped when it (or the
 * savepoint that made them) rolls back. The rules are never written here: only how they are run.
 */
import type { Context } from './context.js';
import { iso, writeLog } from './context.js';
import { deleteList, deleteRecord } from './erase.js';
import { archiveList, createList, editList, grant, templates } from './list-admin.js';
import { lists, show } from './lists.js';
import { findList } from './access.js';
import { attach, detach, editNote, get, note } from './record-parts.js';
import { add, approve, archive, edit, move } from './records.js';
import { search } from './search.js';
import { indexMarked, undoneWords, type IndexMark } from './text-index.js';
import { addSide, bindSide, removeSide, sides } from './sides.js';
import { brief, dueAndTell } from './brief.js';
import { release, take, takeNext } from './claims.js';
import { lapse } from './leases.js';
import { ready } from './ready.js';
import { blocked, needs } from './needs.js';
import { exportBinder } from './exchange-out.js';
import { importBinder } from './exchange-in.js';
import { addLoginLink, checkSession, endSession, endSessionsOf, listSessions, noteSessionUse, openSession, revokeSessions, useLoginLink } from './sessions.js';
import { finishedSignIn, keptSignInKey, markSignIn, signInFinished, signInIssuer, signInKey } from './signin.js';
import { addToken, checkToken, checkTokenPrefix, leakedToken, listTokens, noteTokenUse, revokeTokens, tokenCheck, tokenHash, tokenRow, type TokenRow } from './tokens.js';
import { keptWhileUnchanged } from './unchanged.js';
import { ledgerOver, type Ledger } from './ledger.js';
import { actingRole, adminOnly, listPeople, operatorOnly, removedPeople, removePerson, setRole, signIn, type AdminDoing, type PeopleRules } from './people.js';
import { indexToken, listOrgs, orgSlug, tokenOrg } from './orgs.js';
import { addHook, listHooks, removeHook, testHook } from './hooks.js';
import { deliveriesDue, deliveryTried, hooksBehind, nextDeliveryAt, queueHookEvents } from './hook-queue.js';
import type { Engine, Sql, TxOptions } from './sql/port.js';
import type { Store } from './store.js';
import type { Change, Who } from './types.js';
import type { BriefOptions } from './together-types.js';

export interface StoreOptions extends PeopleRules {
  /** The clock, in ms. */
  now?: () => number;
  /**
   * Called with a new agent token's hash, inside the transaction that makes it, before it
   * commits: an organisation's binder tells its service store which binder the token is in.
   */
  tokenMade?: (hash: string) => Promise<void>;
}

/** The operations only an admin may do, with the words that say so; every other is a member's too. */
const ADMIN_ONLY = new Map<Op<never[], unknown>, AdminDoing>([
  [createList, { en: 'make a list', fr: 'créer une liste' }],
  [editList, { en: 'change a list', fr: 'modifier une liste' }],
  [grant, { en: 'give an agent access to a list', fr: 'donner à un agent l\'accès à une liste' }],
  [archiveList, { en: 'archive or restore a list', fr: 'archiver ou restaurer une liste' }],
  [deleteList, { en: 'delete a list', fr: 'supprimer une liste' }],
  [addSide, { en: 'register an agent\'s folder', fr: 'inscrire le dossier d\'un agent' }],
  [removeSide, { en: 'stop the keeper reading an agent\'s folder', fr: 'arrêter la lecture du dossier d\'un agent' }],
  [addToken, { en: 'make an agent\'s token', fr: 'créer le jeton d\'un agent' }],
  [revokeTokens, { en: 'revoke an agent\'s token', fr: 'révoquer le jeton d\'un agent' }],
  [importBinder, { en: 'bring lists into the binder', fr: 'importer des listes dans le binder' }],
  [setRole, { en: 'change a person\'s role', fr: 'changer le rôle d\'une personne' }],
  [removePerson, { en: 'remove a person', fr: 'retirer une personne' }],
  [listHooks, { en: 'see the webhooks', fr: 'voir les crochets web' }],
  [addHook, { en: 'make a webhook', fr: 'créer un crochet web' }],
  [removeHook, { en: 'remove a webhook', fr: 'retirer un crochet web' }],
  [testHook, { en: 'try a webhook', fr: 'essayer un crochet web' }],
] as [Op<never[], unknown>, AdminDoing][]);

/** The person an operation is asked by, if it takes one: every operation takes its asker as a Who. */
const askerOf = (args: readonly unknown[]): Who | undefined =>
  args.find((a): a is Who => typeof a === 'object' && a !== null && (a as Who).kind === 'person' && typeof (a as Who).id === 'string');

/** The ledger's reads that are one statement each: outside a transaction, they need none. */
const ONE_STATEMENT_READS = new Set<keyof Ledger>(['mark', 'recorded', 'open', 'untold', 'untoldSince', 'held']);

/** What one outermost transaction collects: its changes, announced once it commits. */
interface Pending { changes: Change[]; tidy: boolean; unindexed: Map<number, IndexMark> }

type Op<A extends unknown[], R> = (c: Context, ...args: A) => Promise<R>;

export function makeStore(engine: Engine, options: StoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  const listeners = new Set<(change: Change) => void>();

  const announce = (pending: Pending): void => {
    for (const change of pending.changes) {
      for (const listener of [...listeners]) {
        try {
          listener(change);
        } catch {
          // A watcher's failure must not undo nor hide a committed change.
        }
      }
    }
  };

  /** The context of the transaction `q` belongs to. */
  const contextOf = (q: Sql, pending: Pending): Context => {
    const ctx: Context = {
      q,
      now,
      async log(who, op, list, record, change) {
        pending.changes.push(await writeLog(q, iso(now()), who, op, list, record, change));
      },
      checkpointAfterCommit: () => {
        pending.tidy = true;
        engine.oweRewrite?.(q);
      },
      unindexed: pending.unindexed,
      transaction: (fn) => savepoint(q, pending, fn),
      ...(options.tokenMade ? { tokenMade: options.tokenMade } : {}),
    };
    return ctx;
  };

  async function savepoint<T>(q: Sql, pending: Pending, fn: () => Promise<T>): Promise<T> {
    const mark = pending.changes.length;
    const tidy = pending.tidy;
    try {
      return await engine.savepoint(q, fn);
    } catch (error) {
      pending.changes.length = mark;
      pending.tidy = tidy;
      undoneWords(pending.unindexed);
      throw error;
    }
  }

  /** An outermost transaction: its changes announced after commit, its tidying done then. */
  async function outermost<T>(fn: (ctx: Context, pending: Pending) => Promise<T>, txOptions: TxOptions): Promise<T> {
    let pending: Pending = { changes: [], tidy: false, unindexed: new Map() };
    const result = await engine.begin(async (q) => {
      // Run again from the start after a serialization failure: nothing of a try before is kept.
      pending = { changes: [], tidy: false, unindexed: new Map() };
      const ctx = contextOf(q, pending);
      const result = await fn(ctx, pending);
      await indexMarked(ctx);
      if (pending.changes.length && engine.announce) await engine.announce(q, pending.changes.length);
      return result;
    }, txOptions);
    if (pending.tidy) await engine.afterDelete();
    announce(pending);
    return result;
  }

  // Every request over HTTP looks its token up: where the engine says cheaply that nothing was
  // committed since, the row read then answers (a revocation is a commit, and expiry is checked
  // against the clock each time). One statement: on a server store, no transaction around it.
  const tokenRows = engine.version ? keptWhileUnchanged<TokenRow>(engine.version) : null;
  const lookToken = async (token: string): Promise<ReturnType<typeof tokenCheck>> => {
    const hash = tokenHash(token);
    if (hash === undefined) return tokenCheck(undefined, now());
    const look = (): Promise<TokenRow | undefined> => outermost((c) => tokenRow(c, hash), { mode: 'read', sync: false, single: true });
    return tokenCheck(await (tokenRows ? tokenRows.read(hash, look) : look()), now());
  };

  const rules: PeopleRules = { signedIn: options.signedIn === true };
  /**
   * An operation as its asker may do it: a person acts with their role (a removed person not at
   * all), and what is an admin's is refused to a member, before the operation reads anything.
   */
  const ruled = async <A extends unknown[], R>(c: Context, op: Op<A, R>, args: A): Promise<R> => {
    // A sign-in is how a person comes to have a role: it decides its own (removed: refused).
    const asker = (op as unknown) === signIn ? undefined : askerOf(args);
    if (asker) {
      const role = await actingRole(c, asker, rules);
      const doing = ADMIN_ONLY.get(op as unknown as Op<never[], unknown>);
      if (doing && role === 'member') throw adminOnly(doing);
      // A directory of the server is named by its operator alone, where people sign in.
      if ((op as unknown) === addSide && doing) operatorOnly(asker, rules, doing);
    }
    return op(c, ...args);
  };

  const write = <A extends unknown[], R>(op: Op<A, R>) =>
    (...args: A): Promise<R> => outermost((c) => ruled(c, op, args), { mode: 'write' });
  const read = <A extends unknown[], R>(op: Op<A, R>) =>
    (...args: A): Promise<R> => outermost((c) => ruled(c, op, args), { mode: 'read', sync: false });

  /** The operations as a Store, each run by `w` (writes) or `r` (reads). */
  function face(
    w: <A extends unknown[], R>(op: Op<A, R>) => (...args: A) => Promise<R>,
    r: <A extends unknown[], R>(op: Op<A, R>) => (...args: A) => Promise<R>,
    rest: Pick<Store, 'transaction' | 'ledger'>,
  ): Store {
    return {
      path: engine.path,
      dialect: engine.dialect,
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
      templates: (lang) => templates(lang),
      createList: w(createList),
      editList: w(editList),
      grant: w(grant),
      archiveList: w(archiveList),
      deleteList: w(deleteList),
      // Read by the keeper at every pass over the folders: one statement, in no transaction of its own.
      sides: r === read ? () => outermost((c) => sides(c), { mode: 'read', sync: false, single: true }) : r(sides),
      addSide: w(addSide),
      removeSide: w(removeSide),
      bindSide: w(bindSide),
      tokens: r(listTokens),
      addToken: w(addToken),
      revokeTokens: w(revokeTokens),
      // The look takes no write lock; a use is noted in a transaction of its own, now and then.
      async checkToken(token: string) {
        const { check, used } = await (r === read ? lookToken(token) : r(checkToken)(token));
        if (used) await w(noteTokenUse)(used.hash, used.at);
        return check;
      },
      checkTokenPrefix: r(checkTokenPrefix),
      leakedToken: w(leakedToken),
      addLoginLink: w(addLoginLink),
      useLoginLink: w(useLoginLink),
      // As a token's: the look takes no write lock, a use is noted now and then.
      async checkSession(cookie: string) {
        const { check, used } = await (r === read
          ? outermost((c) => checkSession(c, cookie), { mode: 'read', sync: false, single: true })
          : r(checkSession)(cookie));
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
      signIn: w(signIn),
      people: r(listPeople),
      setRole: w(setRole),
      removePerson: w(removePerson),
      removedPeople: r(removedPeople),
      orgSlug: w(orgSlug),
      orgs: r(listOrgs),
      indexToken: w(indexToken),
      tokenOrg: (token) => outermost((c) => tokenOrg(c, token), { mode: 'read', sync: false, single: true }),
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
      // A peek only reads (waits peek on every change); a brief moves the asker's place.
      brief: (who: Who, o?: BriefOptions) => (o?.peek
        ? r(brief)(who, o)
        : w(async (c, asker: Who, given?: BriefOptions) => {
          await lapse(c);
          return brief(c, asker, given);
        })(who, o)),
      onChange(listener) {
        listeners.add(listener);
        return () => { listeners.delete(listener); };
      },
      onOtherChange: (listener) => engine.onOtherChange(listener),
      holdFolder: async (key) => (engine.holdFolder ? engine.holdFolder(key) : true),
      checkpoint: async () => {
        await engine.afterDelete();
        await engine.rewritten?.();
      },
      close: () => engine.close(),
      ...rest,
    };
  }

  /**
   * The store inside one transaction: each operation in a savepoint of it. A read transaction
   * writes nothing a savepoint could undo: there, none is made (two round trips of a server's).
   */
  function bound(ctx: Context, pending: Pending, reading: boolean): Store {
    const within = <T>(fn: () => Promise<T>): Promise<T> => (reading ? fn() : savepoint(ctx.q, pending, fn));
    const inside = <A extends unknown[], R>(op: Op<A, R>) =>
      (...args: A): Promise<R> => within(() => ruled(ctx, op, args));
    const self: Store = face(inside, inside, {
      transaction: (fn) => within(() => fn(self)),
      ledger: ledgerOver(ctx.q),
    });
    return self;
  }

  // The ledger outside a transaction: each call in one of its own; a read of one statement in
  // none (the folder pump looks at a folder's mark at every pass).
  const looseLedger = new Proxy({} as Ledger, {
    get: (_t, key: keyof Ledger) => (...args: unknown[]) =>
      outermost((c) => (ledgerOver(c.q)[key] as (...a: unknown[]) => Promise<unknown>)(...args),
        ONE_STATEMENT_READS.has(key) ? { mode: 'read', sync: false, single: true } : { mode: 'write' }),
  });

  return face(write, read, {
    transaction: (fn, txOptions) => outermost((c, pending) => fn(bound(c, pending, txOptions?.mode === 'read')), { mode: 'write', ...txOptions }),
    ledger: looseLedger,
  });
}
