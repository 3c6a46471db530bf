/**
 * What every store operation works with: the connection, the clock, the history log and the
 * queue of changes announced after the outermost commit. It never commits nor announces itself.
 */
import type Database from 'better-sqlite3';
import type { Change, Who } from './types.js';

export interface Context {
  db: Database.Database;
  now: () => number;
  /** Writes one history row and queues its change for announcement after commit. */
  log(who: Who, op: string, list: string | null, record: number | null, change: unknown): void;
  /** Asks for a checkpoint once the outermost transaction has committed. */
  checkpointAfterCommit(): void;
  /** Runs `fn` in one immediate transaction (a savepoint when nested). */
  transaction<T>(fn: () => T): T;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** A change waiting for its commit, with the history row that proves it was kept. */
export interface Pending { row: number; by: string; change: Change }

export function makeLog(db: Database.Database, now: () => number, queue: (p: Pending) => void): Context['log'] {
  const insert = db.prepare('INSERT INTO log (at, by, op, list, record, change) VALUES (?, ?, ?, ?, ?, ?)');
  return (who, op, list, record, change) => {
    const at = iso(now());
    const by = JSON.stringify(who);
    const row = Number(insert.run(at, by, op, list, record,
      change === undefined || change === null ? null : JSON.stringify(change)).lastInsertRowid);
    queue({ row, by, change: { at, by: who, op, list, record } });
  };
}
