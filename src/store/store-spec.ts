/**
 * Which store a command names, decided from the command line and the environment alone: it
 * opens nothing and loads no driver, so `binder sandbox` and `binder doctor` can ask it too.
 */

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
