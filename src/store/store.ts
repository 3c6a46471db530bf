/**
 * The store's face: every operation of the binder as an asynchronous function that takes `who`
 * and resolves to values or rejects with a `Refused`. Nothing here knows of folders, terminals,
 * commander or MCP. Two engines (SQLite, PostgreSQL) implement it over one copy of the rules.
 */
import type { TxOptions } from './sql/port.js';
import type { Who } from './types.js';
import type { StoreAccess, StoreExchange, StoreKeeping, StoreLife, StoreRules } from './store-roles.js';

export { Refused, type RefusalKind } from './refused.js';
export type * from './store-inputs.js';
export type * from './store-roles.js';

/**
 * The database cannot be reached now (a server store: the connection was refused, cut, or the
 * server is shutting down): nothing was done; asked again once it is back, the same ask is done
 * once. A face says so (HTTP 503) or leaves the ask to be read again (a folder).
 */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
}

/**
 * Two transactions could not both be kept as if one after the other (PostgreSQL's serialization
 * failure or a deadlock): the whole transaction is run again from its start. Never swallowed by
 * an operation: it goes up to the transaction that begins it.
 */
export class TransactionConflict extends Error {
  override readonly name = 'TransactionConflict';
}

/**
 * Thrown when the look made with a request finds its token no longer accepted: the transaction it
 * went with commits nothing (every statement after it fails with this), and the face answers 401.
 * Not a refusal: a transaction of several askers' asks fails whole, and is run again without this
 * asker's (`who`, the presumed asker's own object). See token-ahead.ts.
 */
export class TokenLapsed extends Error {
  override readonly name = 'TokenLapsed';
  constructor(readonly who: Who) {
    super('This token is no longer accepted.');
  }
}

/** An error an operation must let through to its transaction, never answer for: see above. */
export const mustRethrow = (error: unknown): boolean =>
  error instanceof StoreUnavailable || error instanceof TransactionConflict || error instanceof TokenLapsed;

/**
 * The whole store: every role at once (store-roles.ts). A face that needs one role takes that
 * role's interface; what runs transactions, or hands the store on, takes this.
 */
export interface Store extends StoreRules, StoreAccess, StoreKeeping, StoreExchange, StoreLife {
  /**
   * Runs `fn` in one transaction, given a store whose every operation runs inside it (nested
   * calls join it as savepoints). Committed when `fn` resolves, rolled back when it throws; on
   * PostgreSQL it may be run again from the start after a serialization failure, so `fn` must
   * change nothing outside it. Changes are announced after the outermost commit.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>, options?: TxOptions): Promise<T>;
}
