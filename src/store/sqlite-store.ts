/**
 * The store on SQLite, the embedded default: opens the database in a folder (open.ts) and runs
 * the rules over the SQLite engine. The connection itself is handed out for what only SQLite has
 * (its own backup and integrity check), never for the binder's rules.
 */
import type Database from 'better-sqlite3';
import { resolve } from 'node:path';
import { openDatabase } from './open.js';
import { sqliteEngine } from './sql/sqlite.js';
import { makeStore, type StoreOptions } from './store-core.js';
import type { Store } from './store.js';

export type { StoreOptions } from './store-core.js';

export interface SqliteStore extends Store {
  /** The SQLite connection: for its backup and integrity check, and for tests that look inside. */
  readonly db: Database.Database;
}

export function openStore(dir: string, options: StoreOptions = {}): SqliteStore {
  const { db, path } = openDatabase(dir);
  return Object.assign(makeStore(sqliteEngine(db, resolve(path)), options), { db });
}
