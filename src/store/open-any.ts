/**
 * Which store a command opens: PostgreSQL for `postgres://…` / `postgresql://…` (given, or in
 * BINDER_STORE), or for a PG* environment with no store given; else SQLite in a folder (given, in
 * BINDER_STORE, or the default one). The PostgreSQL client is loaded only then.
 */
import type { Store } from './store.js';
import { openStore } from './sqlite-store.js';
import type { StoreOptions } from './store-core.js';
import type { StoreSpec } from './store-spec.js';

export { storeSpec, type StoreSpec } from './store-spec.js';

/** Where a store is, as a person reads it (a database URL without its password). */
export async function openAnyStore(spec: StoreSpec, options: StoreOptions & { max?: number; log?: (line: string) => void } = {}): Promise<Store> {
  if (spec.kind === 'sqlite') return openStore(spec.dir, options);
  const { openPostgresStore } = await import('./postgres-store.js');
  const max = Number(process.env.BINDER_PG_POOL);
  return openPostgresStore(spec.url, {
    ...options, ...(Number.isInteger(max) && max > 0 ? { max } : {}), ...(spec.schema ? { schema: spec.schema } : {}),
  });
}
