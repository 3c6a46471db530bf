/**
 * The store on SQLite: opens the database and binds every operation to one connection. Each
 * change runs in one synchronous immediate transaction; changes are announced only after the
 * outermost one commits, and dropped when it rolls back. Never an `await` inside a change.
 */
import type Database from 'better-sqlite3';
import { makeLog, type Context, type Pending } from './context.js';
import { keepingStatements } from './statements.js';
import { deleteList, deleteRecord } from './erase.js';
import { archiveList, createList, editList, grant, templates } from './list-admin.js';
import { lists, show } from './lists.js';
import { findList } from './access.js';
import { openDatabase } from './open.js';
import { attach, detach, editNote, get, note } from './record-parts.js';
import { add, approve, archive, edit, move } from './records.js';
import { search } from './search.js';
import { addSide, bindSide, removeSide, sides } from './sides.js';
import { brief, dueAndTell } from './brief.js';
import { release, take, takeNext } from './claims.js';
import { lapse } from './leases.js';
import { ready } from './ready.js';
import { blocked, needs, withNeeds } from './needs.js';
import { exportBinder } from './exchange-out.js';
import { importBinder } from './exchange-in.js';
import { addLoginLink, checkSession, endSession, listSessions, revokeSessions, useLoginLink } from './sessions.js';
import { addToken, checkToken, leakedToken, listTokens, revokeTokens } from './tokens.js';
import type { Store } from './store.js';
import type { Change, RecordPage, Who } from './types.js';
import type { BriefOptions } from './together-types.js';

export interface StoreOptions {
  /** The clock, in ms. */
  now?: () => number;
}

export function openStore(dir: string, options: StoreOptions = {}): Store {
  const { db, path } = openDatabase(dir);
  const now = options.now ?? Date.now;
  const listeners = new Set<(change: Change) => void>();
  let pending: Pending[] = [];
  let checkpointDue = false;
  const runner = db.transaction((fn: () => unknown) => fn());

  const checkpoint = (): void => {
    db.pragma('wal_checkpoint(TRUNCATE)');
  };

  // A change is announced only if its history row was committed: a savepoint rolled back
  // outside this store's own transactions (the keeper's per-ask ones) takes its row with it.
  const kept = db.prepare('SELECT op, at, by FROM log WHERE id = ?');
  const afterCommit = (): void => {
    // A rolled-back row's id is given again to a later row: only the last claim on it stands.
    const last = new Map(pending.map((p, i) => [p.row, i]));
    const changes = pending.filter((p, i) => {
      if (last.get(p.row) !== i) return false;
      const row = kept.get(p.row) as { op: string; at: string; by: string } | undefined;
      return row !== undefined && row.at === p.change.at && row.by === p.by
        && (row.op === p.change.op || row.op === 'erased');
    }).map((p) => p.change);
    pending = [];
    if (checkpointDue) {
      checkpointDue = false;
      checkpoint();
    }
    for (const change of changes) {
      for (const listener of [...listeners]) {
        try {
          listener(change);
        } catch {
          // A watcher's failure must not undo nor hide a committed change.
        }
      }
    }
  };

  function transaction<T>(fn: () => T): T {
    const outermost = !db.inTransaction;
    const mark = pending.length;
    const marked = checkpointDue;
    let result: T;
    try {
      result = runner.immediate(fn) as T;
    } catch (e) {
      pending.length = mark;
      checkpointDue = marked;
      throw e;
    }
    if (outermost) afterCommit();
    return result;
  }

  const ctx: Context = {
    db: keepingStatements(db),
    now,
    log: makeLog(db, now, (change) => pending.push(change)),
    checkpointAfterCommit: () => { checkpointDue = true; },
    transaction,
  };
  const tx = <A extends unknown[], R>(op: (c: Context, ...args: A) => R) =>
    (...args: A): R => transaction(() => op(ctx, ...args));
  // A read sees one consistent snapshot but takes no write lock from other processes.
  const read = <A extends unknown[], R>(op: (c: Context, ...args: A) => R) =>
    (...args: A): R => runner.deferred(() => op(ctx, ...args)) as R;

  const store: Store = {
    path,
    db: db as Database.Database,
    lists: read(lists),
    list: read((c, ref: string, who) => findList(c, ref, who, 'read').list),
    show: read(show),
    get: read((c, ref: number | string, who: Who, page?: RecordPage) => withNeeds(c, get(c, ref, who, page), who)),
    search: read(search),
    add: tx(add),
    edit: tx(edit),
    move: tx(move),
    note: tx(note),
    attach: tx(attach),
    detach: tx(detach),
    archive: tx(archive),
    approve: tx(approve),
    delete: tx(deleteRecord),
    editNote: tx(editNote),
    templates: (lang) => templates(lang),
    createList: tx(createList),
    editList: tx(editList),
    grant: tx(grant),
    archiveList: tx(archiveList),
    deleteList: tx(deleteList),
    sides: read(sides),
    addSide: tx(addSide),
    removeSide: tx(removeSide),
    bindSide: tx(bindSide),
    tokens: read(listTokens),
    addToken: tx(addToken),
    revokeTokens: tx(revokeTokens),
    checkToken: (token) => checkToken(ctx, token),
    leakedToken: tx(leakedToken),
    addLoginLink: tx(addLoginLink),
    useLoginLink: tx(useLoginLink),
    checkSession: (cookie) => checkSession(ctx, cookie),
    endSession: tx(endSession),
    sessions: read(listSessions),
    revokeSessions: tx(revokeSessions),
    due: () => dueAndTell(ctx),
    take: tx(take),
    takeNext: tx(takeNext),
    release: tx(release),
    // These lapse old claims first, so they write (a little) and take the write lock.
    ready: tx((c, list: string | undefined, who, options?: { limit?: number }) => {
      lapse(c);
      return ready(c, list, who, options);
    }),
    lapse: tx(lapse),
    needs: tx(needs),
    blocked: read(blocked),
    exportBinder: read(exportBinder),
    importBinder: tx(importBinder),
    // A peek only reads (waits peek on every change); a brief moves the asker's place.
    brief: (who, options?: BriefOptions) => (options?.peek
      ? read(brief)(who, options)
      : transaction(() => {
        lapse(ctx);
        return brief(ctx, who, options);
      })),
    onChange(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
    dataVersion: () => db.pragma('data_version', { simple: true }) as number,
    transaction,
    checkpoint() {
      if (db.inTransaction) checkpointDue = true;
      else checkpoint();
    },
    close() {
      if (db.open) db.close();
    },
  };
  return store;
}
