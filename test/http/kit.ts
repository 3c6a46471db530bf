/**
 * A binder served over HTTP for the tests: a store with Batches (gated) and a hidden list, agents'
 * tokens made as a person makes them, a started keeper, and the HTTP app — asked without a socket
 * (`app.request`) or served on a real one (`listen`).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { createKeeper, personWho } from '../../src/keeper/keeper.js';
import type { Keeper, KeeperOptions } from '../../src/keeper/keeper-types.js';
import { openStore, type SqliteStore } from '../../src/store/index.js';
import { createHttpApp, type HttpApp, type HttpAppOptions } from '../../src/http/app.js';
import { tempDir } from '../helpers/temp.js';

export const ann = personWho('Ann');
export const HOST = 'localhost:4180';

export interface Served {
  root: string;
  storeDir: string;
  store: SqliteStore;
  keeper: Keeper;
  http: HttpApp;
  /** A token per agent name, made by Ann. */
  tokens: Record<string, string>;
  logs: string[];
  /** One request, as a client without a socket would make it. */
  call(method: string, path: string, options?: { token?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; json: { ok: boolean; text: string; data: unknown } }>;
}

export async function served(t: TestContext, options: { agents?: string[]; keeper?: Partial<KeeperOptions>; app?: Partial<HttpAppOptions> } = {}): Promise<Served> {
  const root = tempDir(t, 'binder-http-');
  const storeDir = join(root, 'store');
  const store = openStore(storeDir);
  await store.createList({ template: 'batches' }, ann);
  await store.createList({ template: 'tasks', title: 'Hidden' }, ann);
  const tokens: Record<string, string> = {};
  for (const name of options.agents ?? ['Claude']) {
    tokens[name] = (await store.addToken(name, {}, ann)).token;
    await store.grant('batches', name, 'write', ann);
  }
  const keeper = createKeeper({ store, sides: [], log: () => {}, ...options.keeper });
  await keeper.start();
  const logs: string[] = [];
  const http = createHttpApp({ keeper, hosts: ['localhost', '127.0.0.1'], log: (line) => logs.push(line), told: (line) => logs.push(line), ...options.app });
  t.after(async () => {
    await http.close();
    await keeper.close();
    await store.close();
  });
  const first = Object.values(tokens)[0] ?? null;
  return {
    root, storeDir, store, keeper, http, tokens, logs,
    async call(method, path, { token = first, body, headers = {} } = {}) {
      const res = await http.app.request(path, {
        method,
        headers: {
          host: HOST,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      let json: { ok: boolean; text: string; data: unknown };
      try {
        json = JSON.parse(text) as typeof json;
      } catch {
        json = { ok: false, text, data: null };
      }
      return { status: res.status, headers: res.headers, json };
    },
  };
}

/** A folder registered for an agent, as a person registers one. */
export async function folderFor(s: Served, name: string): Promise<string> {
  const dir = join(s.root, name.toLowerCase(), '.binder');
  mkdirSync(dir, { recursive: true });
  await s.store.addSide(dir, name, ann);
  return dir;
}
