/**
 * PostgreSQL leaves a deleted row's bytes in its table's pages, its TOAST and its indexes until
 * they are rewritten, and only VACUUM FULL rewrites them, under a lock that stops every reader and
 * writer of the table. So a delete does not wait for it: the rewrite it owes is kept in the
 * database (`rewrite_owed`, written in the delete's own transaction) and done after its commit, one
 * table at a time, by one keeper at a time (an advisory lock). Each table's lock is waited for a
 * moment only: behind a long reader (pg_dump holds every table for its whole run) a waiting VACUUM
 * FULL would hold up every keeper's statements queued behind it; it is tried again later instead.
 * What a keeper stopped before doing is done by the next one opened, or by any keeper that sees it
 * owed on its next look.
 */
import type { PoolClient } from 'pg';

/** Every table a deleted record's text can be in. */
const TABLES = ['records', 'notes', 'attachments', 'log', 'asks', 'record_text', 'waits', 'hook_deliveries'] as const;
/** How long one table's lock is waited for before the rewrite is put off. */
const LOCK_WAIT_MS = 200;
/** Tried again after this, doubled each time, up to AGAIN_MAX_MS. */
const AGAIN_MS = 250;
const AGAIN_MAX_MS = 30_000;
/** How often a keeper looks for a rewrite owed by another (stopped) process. */
const LOOK_EVERY_MS = 30_000;
/** PostgreSQL's "lock not available" (lock_timeout). */
const LOCK_NOT_AVAILABLE = '55P03';

export interface RewriteDeps {
  /** A connection of the pool in the store's schema (released by the caller's rules: broken or not). */
  connect(): Promise<PoolClient>;
  /** The advisory lock's name in this store's schema. */
  keyed(key: string): string;
  unreachable(error: unknown): boolean;
  say(line: string): void;
}

export interface Rewriter {
  /** A delete committed: its rewrite is done soon, in the background. */
  owed(): void;
  /** Resolves once nothing owed is left to this process (done, or another keeper is at it). */
  done(): Promise<void>;
  close(): Promise<void>;
}

const codeOf = (error: unknown): string => String((error as { code?: unknown })?.code ?? '');

export function createRewriter(deps: RewriteDeps): Rewriter {
  let wanted = false;
  let running: Promise<void> | null = null;
  let closed = false;
  /**
   * A pass rewrites every table, in tries as their locks allow: `next`, the first table this pass
   * has not rewritten yet (a delete made here starts a new pass); `owing`, the rows of what was
   * owed when the pass began, the only ones it clears — what is owed by a delete committed later
   * (another keeper's meanwhile, even one whose row's id is lower) stays owed.
   */
  let next = 0;
  let owing: number[] = [];
  let failing = false;
  let wake: (() => void) | null = null;

  const pause = (ms: number): Promise<void> => new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });

  /** One try: true when nothing owed is left (every table rewritten, or nothing was owed). */
  async function once(): Promise<boolean> {
    let client: PoolClient;
    try {
      client = await deps.connect();
    } catch {
      return false;
    }
    let broken = false;
    let locked = false;
    const lock = deps.keyed('binder rewrite');
    try {
      if (!(await client.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [lock])).rows[0]?.ok) return false;
      locked = true;
      try {
        if (next === 0) owing = (await client.query('SELECT id FROM rewrite_owed')).rows.map((row: { id: number }) => Number(row.id));
        if (owing.length === 0) return true;
        await client.query(`SET lock_timeout = ${LOCK_WAIT_MS}`);
        try {
          // A pass begun is ended even when the store closes meanwhile (`binder admin delete` closes
          // right after its delete): each table is waited for a moment only.
          for (; next < TABLES.length; next++) await client.query(`VACUUM FULL ${TABLES[next]}`);
        } finally {
          await client.query('RESET lock_timeout');
        }
        await client.query('DELETE FROM rewrite_owed WHERE id = ANY($1::bigint[])', [owing]);
        next = 0;
        if (failing) deps.say('binder store: the tables that held deleted records are rewritten now.');
        failing = false;
        return true;
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lock]);
        locked = false;
      }
    } catch (error) {
      broken = deps.unreachable(error);
      if (codeOf(error) !== LOCK_NOT_AVAILABLE && !failing) {
        failing = true;
        deps.say(`binder store: the tables that held deleted records could not be rewritten yet (tried again): ${error instanceof Error ? error.message : String(error)}`);
      }
      return false;
    } finally {
      // A session whose advisory lock may still be held is not lent out again: it ends, and the lock with it.
      client.release(broken || locked ? true : undefined);
    }
  }

  async function run(): Promise<void> {
    let again = AGAIN_MS;
    while (wanted && !closed) {
      wanted = false;
      if (await once() || closed) continue;
      wanted = true;
      await pause(again);
      again = Math.min(again * 2, AGAIN_MAX_MS);
    }
  }

  function start(): Promise<void> {
    running ??= run().finally(() => {
      running = null;
    });
    return running;
  }

  // What another process owes (a keeper stopped before its rewrite, `binder admin`'s delete).
  async function look(): Promise<void> {
    if (closed || running) return;
    let client: PoolClient;
    try {
      client = await deps.connect();
    } catch {
      return;
    }
    let broken = false;
    try {
      if ((await client.query('SELECT EXISTS (SELECT 1 FROM rewrite_owed) AS some')).rows[0]?.some) {
        wanted = true;
        void start();
      }
    } catch (error) {
      broken = deps.unreachable(error);
    } finally {
      client.release(broken ? true : undefined);
    }
  }
  void look();
  const looking = setInterval(() => void look(), LOOK_EVERY_MS);
  looking.unref();

  return {
    owed() {
      wanted = true;
      next = 0;
      // A try put off for later is made now: the new delete's tables may be free.
      wake?.();
      void start();
    },
    async done() {
      while (running) await running;
    },
    async close() {
      closed = true;
      clearInterval(looking);
      wake?.();
      while (running) await running;
    },
  };
}
