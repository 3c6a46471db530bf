/**
 * Commits that need not wait for the disk. In WAL mode, `synchronous = NORMAL` loses nothing when
 * the process dies; only a power loss may roll back the last commits, and the next commit at FULL
 * carries them to disk anyway. It must only wrap commits whose loss is harmless: it never lowers
 * the level for a change to the binder.
 */
import type { Database } from 'better-sqlite3';

/** Runs `fn` (which commits) at `synchronous = NORMAL` when `when`, then puts the connection's level back. */
export function withoutSync<T>(db: Database, fn: () => T, when = true): T {
  if (!when) return fn();
  const level = db.pragma('synchronous', { simple: true }) as number;
  if (level <= 1) return fn();
  db.pragma('synchronous = NORMAL');
  try {
    return fn();
  } finally {
    db.pragma(`synchronous = ${level}`);
  }
}
