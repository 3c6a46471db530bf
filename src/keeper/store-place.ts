/**
 * Where the store is: `--store`, else $BINDER_STORE, else $XDG_DATA_HOME/binder, else
 * ~/.local/share/binder (or PostgreSQL, by URL or PG* environment). Light on purpose: the agent's
 * `binder doctor` and the person's `binder sandbox` ask it without loading a store.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { storeSpec, type StoreSpec } from '../store/index.js';

export function storeFolder(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return resolve(flag);
  if (env.BINDER_STORE) return resolve(env.BINDER_STORE);
  if (env.XDG_DATA_HOME) return join(resolve(env.XDG_DATA_HOME), 'binder');
  return join(env.HOME || homedir(), '.local', 'share', 'binder');
}

/**
 * The store a command opens: `--store` (a folder, or `postgres://…`), else BINDER_STORE, else a
 * PG* environment (PostgreSQL), else the default folder (SQLite).
 */
export function whereStore(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): StoreSpec {
  return storeSpec(flag, (given) => (given !== undefined ? resolve(given) : storeFolder(undefined, { ...env, BINDER_STORE: undefined })), env);
}
