/**
 * The SQLite connection under a store the test knows is on SQLite (a keeper's, an HTTP kit's):
 * for tests that look inside the database. Never used on a PostgreSQL store.
 */
import type Database from 'better-sqlite3';
import type { SqliteStore, Store } from '../../src/store/index.js';

export function dbOf(store: Store): Database.Database {
  const db = (store as Partial<SqliteStore>).db;
  if (!db) throw new Error('this store is not on SQLite');
  return db;
}
