/**
 * The one port every rule of the store speaks SQL through, whatever the engine: rows come back
 * as plain objects (integers as numbers, JSON as its text), placeholders are `?` in order. An
 * engine implements it for a connection inside a transaction; the rules never see the engine,
 * never a connection, and never an engine's own syntax (that is the dialect's, src/store/dialect).
 */

import type { Dialect } from '../dialect/dialect.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Sql {
  /** The engine's SQL pieces, asked for by what they mean (dialect.ts): never its name. */
  readonly dialect: Dialect;
  /** Every row. */
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** The first column of the first row, or undefined when there is no row. */
  value<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** The first column of every row. */
  column<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** A change; `changes` = rows affected. New ids come back through `RETURNING id` with get(). */
  run(sql: string, params?: readonly unknown[]): Promise<{ changes: number }>;
  /**
   * A change whose outcome the rules do not read (a history row, a record's time, the ledger's
   * row): done in order with the others, but a server engine need not wait for it before going on
   * (PostgreSQL sends it with the next statement, in one write). Its failure is the failure of the
   * statement after it, or of the commit: the transaction's, not only its savepoint's.
   */
  later(sql: string, params?: readonly unknown[]): void;
  /**
   * A read said before the next statement, in its write (a server engine alone: elsewhere absent),
   * whose first row `check` reads once it is answered: a throw of `check` is the failure of the
   * statement it went with. Where no statement follows in the transaction, it is never said.
   */
  ahead?<T>(sql: string, params: readonly unknown[], check: (row: T | undefined) => void): void;
}

/** How a transaction is begun: `write` takes the write lock at once; `read` sees one snapshot and writes nothing. */
export type TxMode = 'write' | 'read';

export interface TxOptions {
  mode?: TxMode;
  /**
   * false: the commit need not wait for the disk (a power loss, never a crash, may lose it). For
   * commits whose loss is harmless only: reads, the ledger's delivery marks.
   */
  sync?: boolean;
  /**
   * false: never run `fn` again after a conflict (PostgreSQL), for a transaction that does
   * something outside the database it cannot take back (appends to a folder's files); it must
   * touch only rows no other keeper writes meanwhile (a folder's ledger, under its lock).
   */
  retry?: boolean;
  /** A read of one statement: it needs no transaction around it (PostgreSQL spares two round trips, SQLite ~8 µs). */
  single?: boolean;
}

/**
 * An engine: a transaction on a connection of its own, savepoints inside it, and news of changes
 * made by other processes. `begin` runs `fn` in one outermost transaction, committed when `fn`
 * resolves, rolled back when it throws; an engine may run `fn` again from the start when its
 * database asks (a serialization failure), so `fn` must do nothing outside it but through `q`.
 */
export interface Engine {
  readonly dialect: DialectName;
  /** Its SQL pieces, as its Sql gives them to the rules (dialect.ts). */
  readonly pieces: Dialect;
  /**
   * Whether several keepers share this binder, their changes running side by side (a database
   * server): a keeper then runs a few batches of asks at once, each meeting the others as two
   * keepers' would. Where false, one transaction runs at a time whatever is asked.
   */
  readonly severalKeepers: boolean;
  /** Whether the binder is a file on this machine, whose folder can hold a note beside it (where it is served). */
  readonly inAFile: boolean;
  /** Where the binder is: a file's path, or a database URL without its password. */
  readonly path: string;
  begin<T>(fn: (q: Sql) => Promise<T>, options: TxOptions): Promise<T>;
  savepoint<T>(q: Sql, fn: () => Promise<T>): Promise<T>;
  /** Inside the outermost transaction that made `changes` changes, before it commits: tells the other keepers (PostgreSQL). */
  announce?(q: Sql, changes: number): Promise<void>;
  /** Keeps a folder for this keeper if no other keeper does (PostgreSQL); SQLite's keepers share one. */
  holdFolder?(key: string): Promise<boolean>;
  /**
   * Something that changes whenever anything is committed, by this connection or another: what was
   * read under one value is still true while it holds. Absent where it cannot be known cheaply
   * (PostgreSQL: another keeper's commits).
   */
  version?(): string;
  /** Something that changes whenever another connection commits (SQLite); absent where it cannot be known cheaply. */
  othersVersion?(): string;
  /** Changes by another connection (another keeper, binder admin): `listener` is called after each, soon. */
  onOtherChange(listener: () => void): () => void;
  /** Inside a delete's transaction: keeps, with it, that its rewrite is owed (PostgreSQL: see afterDelete). */
  oweRewrite?(q: Sql): void;
  /**
   * After a delete's commit: what the engine does so that no byte of it stays in its files
   * (SQLite: done before it resolves; PostgreSQL: begun, and done soon after, see `rewritten`).
   */
  afterDelete(): Promise<void>;
  /** Resolves once what afterDelete began is done (PostgreSQL). */
  rewritten?(): Promise<void>;
  close(): Promise<void>;
}
