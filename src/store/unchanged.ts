/**
 * Rows kept while nothing is committed to the database, for a lookup every request makes (an agent
 * token's): the engine's `version` changes with every commit, this process's or another's, and
 * costs a few µs where the row's own query cost ~20. A row read while something was committed is
 * not kept: it may be older than the version it would be kept under.
 */
export interface KeptWhileUnchanged<V> {
  /** The row kept under `key` if nothing was committed since it was read, else what `look` reads. */
  read(key: string, look: () => Promise<V | undefined>): Promise<V | undefined>;
}

/** Beyond this many rows, all are let go (a spray of made-up keys keeps none: only rows found are kept). */
const KEPT_MAX = 1_000;

export function keptWhileUnchanged<V>(version: () => string): KeptWhileUnchanged<V> {
  let seen: string | null = null;
  const kept = new Map<string, V>();
  return {
    async read(key, look) {
      const before = version();
      if (before !== seen) {
        kept.clear();
        seen = before;
      }
      const hit = kept.get(key);
      if (hit !== undefined) return hit;
      const value = await look();
      if (value !== undefined && seen === before && version() === before) {
        if (kept.size >= KEPT_MAX) kept.clear();
        kept.set(key, value);
      }
      return value;
    },
  };
}
