/**
 * The store's public face: `openStore`, the `Store` interface, `Refused`, the model's types
 * and `slug`. Other parts import from here, never from the store's inner files.
 */
export { openStore, type StoreOptions, type SqliteStore } from './sqlite-store.js';
export { openAnyStore, storeSpec, type StoreSpec } from './open-any.js';
export type { PostgresStore } from './postgres-store.js';
export type { Ledger, MarkRow, WaitRow, AskRow } from './ledger.js';
export type { Sql, TxOptions, DialectName } from './sql/port.js';
export * from './store.js';
export { sentence, step, commandLine, placeholder, isStep, isPlaceholder, stepsOf, written, withSteps, type Sentence, type Step, type StepValue, type Placeholder } from './sentence.js';
export type * from './types.js';
export type * from './together-types.js';
export type * from './exchange-types.js';
export { noInto } from './exchange-lists.js';
export { slug } from './slug.js';
export { LEASE_DEFAULT_MS, LEASE_MAX_MS } from './claims.js';
export { TOKEN_START, type TokenCheck, type TokenInfo, type TokenMade } from './tokens.js';
export { PENDING_MS, noLinksRefusal, type PendingSignIn } from './signin.js';
export { LINK_MS, SESSION_MS, type LoginLinkMade, type SessionCheck, type SessionInfo, type SessionMade } from './sessions.js';
export { ROLES, type Person, type Role, type SignedIn } from './people.js';
export { cleanOrg, type Organisation } from './orgs.js';
