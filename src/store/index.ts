/**
 * The store's public face: `openStore`, the `Store` interface and its roles, `Refused`, the
 * model's types and the helpers the faces read with. Code outside src/store imports from here
 * (or, where bundled apart from the engines, from `light.ts`, which this re-exports), never from an inner file:
 * scripts/layers.mjs fails the build on one that does.
 */
export * from './light.js';
export { openStore, type StoreOptions, type SqliteStore } from './sqlite-store.js';
export { openAnyStore } from './open-any.js';
export type { PostgresStore } from './postgres-store.js';
export type { Ledger, MarkRow, WaitRow, AskRow } from './ledger.js';
export type { Sql, TxOptions, DialectName } from './sql/port.js';
export * from './store.js';
export type * from './types.js';
export type * from './together-types.js';
export type * from './exchange-types.js';
export { noInto } from './exchange-lists.js';
export { FIELD_TYPES } from './list-admin.js';
export { LEASE_DEFAULT_MS, LEASE_MAX_MS } from './claims.js';
export { TOKEN_START, type TokenCheck, type TokenInfo, type TokenMade } from './tokens.js';
export type { Presumed } from './token-ahead.js';
export { PENDING_MS, noLinksRefusal, type PendingSignIn } from './signin.js';
export { LINK_MS, SESSION_MS, type LoginLinkMade, type SessionCheck, type SessionInfo, type SessionMade } from './sessions.js';
export { ROLES, type Person, type Role, type SignedIn } from './people.js';
export { cleanOrg, type Organisation } from './orgs.js';
export { findTemplate, type Template } from './templates.js';
export { MIGRATIONS } from './schema.js';
export { HOOK_EVENTS, RECENT_MAX, type HookDelivery, type HookEvent, type HookInfo, type HookMade } from './hooks.js';
export type { DeliveryToTry, TryOutcome } from './hook-queue.js';
