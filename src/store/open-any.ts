/**
 * Which store a command opens: PostgreSQL for `postgres://…` / `postgresql://…` (given, or in
 * BINDER_STORE), or for a PG* environment with no store given; else SQLite in a folder (given, in
 * BINDER_STORE, or the default one). The PostgreSQL client is loaded only then.
 */
import type { Store } from './store.js';
import { openStore } from './sqlite-store.js';
import type { StoreOptions } from './store-core.js';

/** A store to open, as a person names it. */
export type StoreSpec = { kind: 'sqlite'; dir: string } | { kind: 'postgres'; url: string | undefined; schema?: string };

const isUrl = (text: string): boolean => /^postgres(ql)?:\/\//i.test(text.trim());

/** `given` (--store), else BINDER_STORE, else PG* (PGHOST or PGDATABASE set), else `folder()`. */
export function storeSpec(given: string | undefined, folder: (given: string | undefined) => string, env: NodeJS.ProcessEnv = process.env): StoreSpec {
  const named = given ?? env.BINDER_STORE;
  if (named !== undefined && named !== '') {
    return isUrl(named) ? { kind: 'postgres', url: named.trim() } : { kind: 'sqlite', dir: folder(named) };
  }
  if (env.PGHOST || env.PGDATABASE || env.PGSERVICE) return { kind: 'postgres', url: undefined };
  return { kind: 'sqlite', dir: folder(undefined) };
}

/** Where a store is, as a person reads it (a database URL without its password). */
export async function openAnyStore(spec: StoreSpec, options: StoreOptions & { max?: number; log?: (line: string) => void } = {}): Promise<Store> {
  if (spec.kind === 'sqlite') return openStore(spec.dir, options);
  const { openPostgresStore } = await import('./postgres-store.js');
  const max = Number(process.env.BINDER_PG_POOL);
  return openPostgresStore(spec.url, {
    ...options, ...(Number.isInteger(max) && max > 0 ? { max } : {}), ...(spec.schema ? { schema: spec.schema } : {}),
  });
}
