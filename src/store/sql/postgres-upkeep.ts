/**
 * What a PostgreSQL binder's keepers do besides answering: the counts' rows of changes folded now
 * and then (by one keeper at a time), and the tables a delete's text was in rewritten after it
 * (postgres-rewrite.ts). Neither changes what any reader sees.
 */
import type { Pool, PoolClient } from 'pg';
import type { Sql } from './port.js';
import { createRewriter, type Rewriter } from './postgres-rewrite.js';
import { unreachable } from './postgres-statements.js';

/** How often a keeper folds the counts' rows of changes into one row each (record_counts). */
const FOLD_EVERY_MS = 10_000;

export interface UpkeepDeps {
  pool: Pool;
  connect(): Promise<PoolClient>;
  keyed(key: string): string;
  say(line: string): void;
}

export interface Upkeep {
  /** Inside a delete's transaction: keeps, with it, that its rewrite is owed. */
  oweRewrite(q: Sql): void;
  /** After a delete's commit: its rewrite begun, not waited for. */
  afterDelete(): Promise<void>;
  /** Resolves once the rewrites begun are done. */
  rewritten(): Promise<void>;
  /** Looks for rewrites owed by other processes from now on. */
  lookForRewrites(): void;
  close(): Promise<void>;
}

export function createUpkeep({ pool, connect, keyed, say }: UpkeepDeps): Upkeep {
  /*
   * ---- counts kept as changes, folded now and then ----
   * A list's counts are a sum over the rows of its changes: 10,000 records just added made a list
   * read 2.4 ms over HTTP, and 0.85 ms once folded. Folded every few seconds, what a burst of
   * changes leaves is summed for a few seconds only (and a fold of few rows costs next to nothing).
   */
  const fold = setInterval(() => {
    void (async () => {
      const client = await pool.connect().catch(() => null);
      if (!client) return;
      try {
        await client.query('BEGIN');
        const got = await client.query('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [keyed('binder fold counts')]);
        // Nothing written when nothing is to fold: an idle binder writes nothing every few seconds.
        const some = (got.rows[0] as { ok: boolean }).ok && (await client.query(`SELECT EXISTS (SELECT 1 FROM record_counts
          GROUP BY list, archived, state, approved HAVING count(*) > 1) AS some`)).rows[0]?.some === true;
        if (some) {
          await client.query(`WITH gone AS (DELETE FROM record_counts RETURNING list, archived, state, approved, n)
            INSERT INTO record_counts SELECT list, archived, state, approved, sum(n) FROM gone
            GROUP BY list, archived, state, approved HAVING sum(n) <> 0`);
        }
        await client.query('COMMIT');
      } catch {
        await client.query('ROLLBACK').catch(() => undefined);
      } finally {
        client.release();
      }
    })();
  }, FOLD_EVERY_MS);
  fold.unref();

  /* ---- the tables a delete's text was in, rewritten after it (postgres-rewrite.ts) ---- */
  let rewriter: Rewriter | null = null;
  const rewrites = (): Rewriter => (rewriter ??= createRewriter({ connect, keyed, unreachable, say }));

  return {
    oweRewrite(q) {
      // In the delete's own transaction: what it owes is kept exactly when the delete is.
      q.later('INSERT INTO rewrite_owed (at) VALUES (?)', [Date.now()]);
    },
    async afterDelete() {
      // Not waited for: the rewrite locks each table while it runs (postgres-rewrite.ts).
      rewrites().owed();
    },
    rewritten: () => rewrites().done(),
    lookForRewrites() {
      rewrites();
    },
    async close() {
      await rewriter?.close();
      clearInterval(fold);
    },
  };
}
