/**
 * Folders kept by one keeper at a time, among the keepers of one PostgreSQL binder: a folder is
 * this keeper's while it holds a session advisory lock named after it, on a connection of its own
 * (out of the pool: a session lock lives as long as its connection). A lost connection loses every
 * lock with it, and this keeper then holds no folder until it takes them again.
 */
import type { Client, ClientConfig } from 'pg';
import { unavailable, unreachable } from './postgres-statements.js';

type Pg = typeof import('pg').default;

export interface FolderLocks {
  /** Keeps the folder `key` for this keeper if no other keeper does. */
  holdFolder(key: string): Promise<boolean>;
  /** Lets every folder go. */
  close(): Promise<void>;
}

export function createFolderLocks(Connection: Pg['Client'], base: ClientConfig, keyed: (key: string) => string): FolderLocks {
  let locks: Client | null = null;
  const held = new Set<string>();
  async function lockConnection(): Promise<Client> {
    if (locks) return locks;
    const client = new Connection(base);
    try {
      await client.connect();
    } catch (error) {
      throw unavailable(error);
    }
    const lost = (): void => {
      if (locks !== client) return;
      // The locks went with the session: another keeper may take the folders now.
      locks = null;
      held.clear();
    };
    client.on('error', lost);
    client.on('end', lost);
    locks = client;
    return client;
  }

  return {
    async holdFolder(key) {
      if (held.has(key) && locks) return true;
      const client = await lockConnection();
      try {
        const got = await client.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [keyed(`binder folder ${key}`)]);
        const ok = (got.rows[0] as { ok: boolean }).ok;
        if (ok) held.add(key);
        return ok;
      } catch (error) {
        if (unreachable(error)) throw unavailable(error);
        throw error;
      }
    },
    async close() {
      const ending = locks;
      locks = null;
      held.clear();
      await ending?.end().catch(() => undefined);
    },
  };
}
