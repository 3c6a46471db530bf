/**
 * What every store operation works with: the current transaction's SQL port, the clock, the
 * history log and the queue of changes announced after the outermost commit. It never commits
 * nor announces itself.
 */
import type { Sql } from './sql/port.js';
import type { IndexMark } from './text-index.js';
import type { Change, Who } from './types.js';

export interface Context {
  /** The SQL port of the transaction this operation runs in. */
  q: Sql;
  now: () => number;
  /** Writes one history row and queues its change for announcement after commit. */
  log(who: Who, op: string, list: string | null, record: number | null, change: unknown): Promise<void>;
  /** Asks for the engine's tidying after a delete, once the outermost transaction has committed. */
  checkpointAfterCommit(): void;
  /**
   * Records whose search index is brought in step just before the outermost transaction commits
   * (text-index.ts), by id, with what each waits for.
   */
  readonly unindexed: Map<number, IndexMark>;
  /** Told that this transaction changes the registered folders: what was kept of them is read again. */
  foldersChanged(): void;
  /** Runs `fn` in a savepoint of the current transaction: a failure undoes what it did alone. */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /** Told a new agent token's hash before its transaction commits (an organisation's binder indexes it). */
  tokenMade?: (hash: string) => Promise<void>;
  /** Told a person's id as their removal is made: an organisation's binder ends their sessions in its service store. */
  personRemoved?: (id: string) => Promise<void>;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

export async function writeLog(q: Sql, at: string, who: Who, op: string, list: string | null, record: number | null, change: unknown): Promise<Change> {
  q.later('INSERT INTO log (at, by, op, list, record, change) VALUES (?, ?, ?, ?, ?, ?)',
    [at, JSON.stringify(who), op, list, record, change === undefined || change === null ? null : JSON.stringify(change)]);
  return { at, by: who, op, list, record };
}
