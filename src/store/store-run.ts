/**
 * How the store's operations run in the engine's transactions: one outermost transaction per call,
 * savepoints inside it, and the changes it made announced only once it commits (dropped when it,
 * or the savepoint that made them, rolls back). No rule is decided here.
 */
import type { Context } from './context.js';
import { iso, writeLog } from './context.js';
import { indexMarked, undoneWords, type IndexMark } from './text-index.js';
import type { Engine, Sql, TxOptions } from './sql/port.js';
import type { Change } from './types.js';

/** What one outermost transaction collects: its changes, announced once it commits. */
export interface Pending { changes: Change[]; tidy: boolean; unindexed: Map<number, IndexMark>; folders?: true }

export interface Transactions {
  /** `fn` in an outermost transaction: its changes announced after commit, its tidying done then. */
  outermost<T>(fn: (ctx: Context, pending: Pending) => Promise<T>, txOptions: TxOptions): Promise<T>;
  /** `fn` in a savepoint of the transaction `q` belongs to: its changes dropped if it rolls back. */
  savepoint<T>(q: Sql, pending: Pending, fn: () => Promise<T>): Promise<T>;
  /** Who hears of each committed change. */
  listeners: Set<(change: Change) => void>;
  /** Changes whenever a transaction of this store changes the registered folders, and again once it ends. */
  foldersSeen(): number;
}

export interface RunOptions {
  now: () => number;
  tokenMade?: (hash: string) => Promise<void>;
  personRemoved?: (id: string) => Promise<void>;
}

export function transactionsOver(engine: Engine, options: RunOptions): Transactions {
  const { now } = options;
  const listeners = new Set<(change: Change) => void>();
  let folders = 0;

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
  const contextOf = (q: Sql, pending: Pending): Context => ({
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
    foldersChanged: () => {
      folders++;
      pending.folders = true;
    },
    transaction: (fn) => savepoint(q, pending, fn),
    ...(options.tokenMade ? { tokenMade: options.tokenMade } : {}),
    ...(options.personRemoved ? { personRemoved: options.personRemoved } : {}),
  });

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

  async function outermost<T>(fn: (ctx: Context, pending: Pending) => Promise<T>, txOptions: TxOptions): Promise<T> {
    let pending: Pending = { changes: [], tidy: false, unindexed: new Map() };
    let result: T;
    try {
      result = await engine.begin(async (q) => {
        // Run again from the start after a serialization failure: nothing of a try before is kept.
        pending = { changes: [], tidy: false, unindexed: new Map() };
        const ctx = contextOf(q, pending);
        const result = await fn(ctx, pending);
        await indexMarked(ctx);
        if (pending.changes.length && engine.announce) await engine.announce(q, pending.changes.length);
        return result;
      }, txOptions);
    } finally {
      // Committed or undone, the folders read while it ran are read again.
      if (pending.folders) folders++;
    }
    if (pending.tidy) await engine.afterDelete();
    announce(pending);
    return result;
  }

  return { outermost, savepoint, listeners, foldersSeen: () => folders };
}
