/**
 * News of changes between the keepers of one PostgreSQL binder: this keeper's changes told to the
 * others by NOTIFY once committed, theirs heard on a LISTEN connection of its own, and the
 * history's last row looked at now and then for a change told to nobody. News says only that
 * something changed, never what: a keeper reads the rest from the database.
 */
import type { Client, ClientConfig, Pool } from 'pg';
import { sleep } from './postgres-statements.js';

type Pg = typeof import('pg').default;

/**
 * A keeper tells the others of its changes at most this often (NOTIFY; those meanwhile together),
 * and at once after a quiet spell. Each NOTIFY wakes every listening keeper, so with k keepers
 * busy the server's work grows as k² / this: at 5 ms, four keepers on one database (two of them
 * asked) did 0.77–0.84× the changes a second they do at 20 ms. A wake across keepers stays well
 * within 50 ms.
 */
const TELL_EVERY_MS = 20;
/** How often a keeper that listens for others' changes looks at the history's last row (a change told to nobody). */
const LAST_CHANGE_EVERY_MS = 2_000;

export interface NewsDeps {
  /** pg's Client, as the engine makes its connections (one that lets a failed connect go). */
  Connection: Pg['Client'];
  pool: Pool;
  /** How a connection of its own is made (the listener's). */
  base: ClientConfig;
  /** The channel of this binder (its schema's own). */
  channel: string;
  /** This keeper, as its news says: its own news is not news to it. */
  me: string;
  say(line: string): void;
}

export interface News {
  /** `changes` were committed here: told to the other keepers soon. */
  toldSoon(changes: number): void;
  /** Changes by another connection: `listener` is called after each, soon. */
  onOtherChange(listener: () => void): () => void;
  /** What was committed and not told yet is told; nothing is heard any more. */
  close(): Promise<void>;
}

export function createNews(deps: NewsDeps): News {
  let closed = false;
  const isClosed = (): boolean => closed;
  const telling = createTelling(deps, isClosed);
  const hearing = createHearing(deps, isClosed);
  return {
    toldSoon: telling.toldSoon,
    onOtherChange: hearing.onOtherChange,
    async close() {
      // What was committed and not told yet is told before the pool ends (binder admin's change
      // wakes the keepers' waits).
      closed = true;
      await telling.close();
      await hearing.close();
    },
  };
}

function createTelling({ pool, channel, me, say }: NewsDeps, closed: () => boolean): Pick<News, 'toldSoon' | 'close'> {
  /*
   * ---- this keeper's changes, told to the others: NOTIFY once committed ----
   * Said inside a change's transaction, a NOTIFY has its commit take a lock that every notifying
   * commit of the database takes in turn, its wait for the disk included: such commits share no
   * flush (pgbench here: 0.37x the transactions a second). So a change is told after its commit,
   * by a statement of its own that writes nothing to wait for, and at most once every
   * TELL_EVERY_MS: the changes committed meanwhile are told together, up to 20 ms later (held waits
   * and streams are woken within 50 ms all the same).
   */
  let untold = 0;
  /** A failure to tell is said once, until telling works again (the database may be away a while). */
  let tellFailing = false;
  let telling: Promise<void> | null = null;
  let toldAt = 0;
  let tellLater: NodeJS.Timeout | null = null;
  function toldSoon(changes: number): void {
    untold += changes;
    if (!telling && !tellLater && !closed()) tellAfter(Math.max(0, toldAt + TELL_EVERY_MS - Date.now()));
  }
  function tellAfter(ms: number): void {
    if (ms <= 0) {
      void tellNow();
      return;
    }
    tellLater = setTimeout(() => {
      tellLater = null;
      void tellNow();
    }, ms);
    tellLater.unref();
  }
  function tellNow(): Promise<void> {
    if (untold === 0 || telling) return telling ?? Promise.resolve();
    const n = untold;
    untold = 0;
    toldAt = Date.now();
    telling = (async () => {
      let failed = false;
      try {
        await pool.query('SELECT pg_notify($1, $2)', [channel, JSON.stringify({ from: me, n })]);
        tellFailing = false;
      } catch (error) {
        // Told again a second later; a keeper that lost the database hears of all once it listens again.
        failed = true;
        untold += n;
        if (!tellFailing) say(`binder store: telling the other keepers of a change failed, trying again: ${error instanceof Error ? error.message : String(error)}`);
        tellFailing = true;
      } finally {
        telling = null;
      }
      if (untold > 0 && !closed()) tellAfter(failed ? 1000 : Math.max(0, toldAt + TELL_EVERY_MS - Date.now()));
    })();
    return telling;
  }

  return {
    toldSoon,
    async close() {
      if (tellLater) clearTimeout(tellLater);
      tellLater = null;
      await telling;
      await tellNow();
    },
  };
}

function createHearing({ Connection, pool, base, channel, me, say }: NewsDeps, closed: () => boolean): Pick<News, 'onOtherChange' | 'close'> {
  /* ---- other keepers' changes: LISTEN on a connection of its own ---- */
  const others = new Set<() => void>();
  let listener: Client | null = null;
  let listening: Promise<void> | null = null;
  const tell = (): void => {
    for (const fn of [...others]) {
      try {
        fn();
      } catch {
        // One listener's failure is its own.
      }
    }
  };
  function listen(): Promise<void> {
    listening ??= (async () => {
      for (let wait = 100; !closed() && others.size > 0; wait = Math.min(wait * 2, 2000)) {
        const client = new Connection(base);
        try {
          await client.connect();
          client.on('notification', (message) => {
            try {
              if ((JSON.parse(message.payload ?? '{}') as { from?: string }).from === me) return;
            } catch {
              // Not ours to read: told all the same.
            }
            tell();
          });
          const lost = (): void => {
            if (listener !== client) return;
            listener = null;
            listening = null;
            if (!closed() && others.size > 0) void listen();
          };
          client.on('error', lost);
          client.on('end', lost);
          await client.query(`LISTEN ${channel}`);
          // Nobody listens any more (the store closed while this connection was being made): a
          // connection kept now would be ended by no one, and keep its process alive.
          if (closed() || others.size === 0) {
            await client.end().catch(() => undefined);
            break;
          }
          listener = client;
          // What changed while nobody listened (or the connection was down) is looked at once.
          tell();
          return;
        } catch (error) {
          say(`binder store: listening for other keepers' changes failed, trying again: ${error instanceof Error ? error.message : String(error)}`);
          await client.end().catch(() => undefined);
          await sleep(wait);
        }
      }
      listening = null;
    })();
    return listening;
  }

  /*
   * A change is told after its commit: a keeper killed between the two tells nobody. While anyone
   * listens, the history's last row is looked at now and then, and a change not heard of is told
   * then (every change writes a history row, under an id never given twice).
   */
  let lastChangeWatch: NodeJS.Timeout | null = null;
  let lastChange: number | undefined;
  async function lookAtLastChange(): Promise<void> {
    try {
      const last = Number((await pool.query('SELECT coalesce(max(id), 0) AS last FROM log')).rows[0]?.last ?? 0);
      const before = lastChange;
      lastChange = last;
      if (before !== undefined && last !== before && others.size > 0 && !closed()) tell();
    } catch {
      // The database is away: its listeners are told once they listen again.
    }
  }

  return {
    onOtherChange(fn) {
      others.add(fn);
      if (!listener) void listen();
      lastChangeWatch ??= setInterval(() => void lookAtLastChange(), LAST_CHANGE_EVERY_MS);
      lastChangeWatch.unref();
      return () => {
        others.delete(fn);
        if (others.size === 0 && lastChangeWatch) {
          clearInterval(lastChangeWatch);
          lastChangeWatch = null;
          lastChange = undefined;
        }
        if (others.size === 0 && listener) {
          const client = listener;
          listener = null;
          listening = null;
          void client.end().catch(() => undefined);
        }
      };
    },
    async close() {
      if (lastChangeWatch) clearInterval(lastChangeWatch);
      // A connection still being made sees nobody listens once it is made, and ends itself.
      others.clear();
      const ending = listener;
      listener = null;
      await ending?.end().catch(() => undefined);
    },
  };
}
