/**
 * What a person is told of a PostgreSQL database whose locale lowercases ASCII alone: search there
 * finds capitals of other scripts only as written. Said by `binder admin migrate` and at a
 * keeper's start, asked of the database itself (PostgresStore.foldsCase).
 */
import type { PostgresStore, Store } from '../store/index.js';

export const FOLDS_ASCII_ALONE = 'Its locale lowercases ASCII letters alone: search finds words in capitals of other scripts (ΟΔΟΣ, ЖУК) only as written. '
  + 'A database made with createdb --locale C.UTF-8 --template template0 finds them by small letters.';

/** Whether the store's database folds every script's capitals; undefined for SQLite, or when it could not be asked. */
export const foldsCase = (store: Store): Promise<boolean | undefined> =>
  (store as Partial<PostgresStore>).foldsCase?.() ?? Promise.resolve(undefined);
