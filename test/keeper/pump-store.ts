/**
 * A store over a database a test made itself (the migrations run on it by hand, tables of the
 * test's own beside), for the folder pump's tests: the pump reaches its ledger through it. It
 * counts the outermost transactions begun through it.
 */
import type Database from 'better-sqlite3';
import { sqliteEngine } from '../../src/store/sql/sqlite.js';
import { makeStore } from '../../src/store/store-core.js';
import type { Store } from '../../src/store/index.js';

export interface CountedStore extends Store {
  /** Outermost transactions begun so far. */
  transactions(): number;
}

export function pumpStore(db: Database.Database, options: { now?: () => number } = {}): CountedStore {
  const store = makeStore(sqliteEngine(db, db.name), options);
  let count = 0;
  const begin = store.transaction;
  return Object.assign(store, {
    transaction: ((fn, o) => {
      count++;
      return begin(fn, o);
    }) as Store['transaction'],
    transactions: () => count,
  });
}
