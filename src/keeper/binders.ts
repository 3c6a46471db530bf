/**
 * The organisations' binders of a signed-in service: one service store (sessions, which binder
 * each organisation has, which organisation each agent token was made in) and, per organisation,
 * a binder of its own — a store and a keeper (its folders, held waits, changes) — opened at its
 * first use and kept. On SQLite an organisation's binder is `<store folder>/orgs/<slug>/binder.db`;
 * on PostgreSQL the schema `org_<slug>` of the same database, its connections' search_path set by
 * the engine. Nothing of one organisation is ever reached through another's binder: the
 * organisation is where the binder is, never a column a query must remember. An organisation's
 * name is never a path nor an identifier: its slug is the service store's (src/store/orgs.ts).
 */
import { join } from 'node:path';
import { cleanOrg, openAnyStore, type Store, type StoreSpec } from '../store/index.js';
import { createKeeper, type Keeper } from './keeper.js';
import { scrubbed, toStderr } from './log-line.js';

export interface Binder {
  /** The organisation's name, as kept (lowercased). */
  org: string;
  store: Store;
  keeper: Keeper;
}

export interface BindersOptions {
  now?: () => number;
  log?: (line: string) => void;
  /** Start each organisation's keeper (its folders, its held waits) when its binder is opened (true). */
  start?: boolean;
}

export interface Binders {
  /** The service store: sessions, organisations, the tokens' index. */
  readonly service: Store;
  /** The organisation's binder, opened (and its keeper started) at its first use; a hostile name refused. */
  of(org: string): Promise<Binder>;
  /** The organisation's store alone, without a keeper (`binder admin --org`); closed by its caller. */
  storeOf(org: string): Promise<Store>;
  /** Where the organisation's binder is, as a store to open (its slug kept first). */
  specOf(org: string): Promise<StoreSpec>;
  /** Every organisation that has a binder, by name. */
  orgs(): Promise<string[]>;
  /** The organisation an agent token was made in, or null: a request finds its binder in one look. */
  tokenOrg(token: string): Promise<string | null>;
  close(): Promise<void>;
}

/** The store of an organisation's binder beside the service store `spec`, under `slug` ([a-z0-9-]). */
export function orgSpec(spec: StoreSpec, slug: string): StoreSpec {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug)) throw new Error(`not an organisation's slug: ${slug}`);
  return spec.kind === 'sqlite'
    ? { kind: 'sqlite', dir: join(spec.dir, 'orgs', slug) }
    : { kind: 'postgres', url: spec.url, schema: `org_${slug.replace(/-/g, '_')}` };
}

export async function openBinders(spec: StoreSpec, options: BindersOptions = {}): Promise<Binders> {
  const log = options.log ? scrubbed(options.log) : toStderr;
  const storeOptions = { ...(options.now ? { now: options.now } : {}), log };
  // The service store first: on PostgreSQL its migrations place what every schema shares.
  const service = await openAnyStore(spec, storeOptions);
  const opened = new Map<string, Promise<Binder>>();
  let closed = false;

  const specOf = async (org: string): Promise<StoreSpec> => orgSpec(spec, await service.orgSlug(org));

  async function storeOf(org: string): Promise<Store> {
    const name = cleanOrg(org);
    return openAnyStore(await specOf(name), {
      ...storeOptions,
      signedIn: true,
      // Indexed before the token's own binder commits: a token is never in a binder unindexed.
      tokenMade: (hash) => service.indexToken(hash, name),
      personRemoved: async (id) => { await service.endSessionsOf([id], name); },
    });
  }

  async function open(name: string): Promise<Binder> {
    const store = await storeOf(name);
    try {
      const keeper = createKeeper({ store, ...(options.now ? { now: options.now } : {}), log });
      if (options.start !== false) await keeper.start();
      return { org: name, store, keeper };
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  return {
    service,
    of(org) {
      if (closed) return Promise.reject(new Error('the binders are closed'));
      let name: string;
      try {
        name = cleanOrg(org);
      } catch (error) {
        return Promise.reject(error);
      }
      let binder = opened.get(name);
      if (!binder) {
        binder = open(name);
        opened.set(name, binder);
        // A binder that failed to open is tried again at its next use.
        binder.catch(() => { if (opened.get(name) === binder) opened.delete(name); });
      }
      return binder;
    },
    storeOf,
    specOf,
    orgs: async () => (await service.orgs()).map((o) => o.name),
    tokenOrg: (token) => service.tokenOrg(token),
    async close() {
      closed = true;
      const binders = await Promise.allSettled([...opened.values()]);
      opened.clear();
      for (const b of binders) {
        if (b.status !== 'fulfilled') continue;
        await b.value.keeper.close();
        await b.value.store.close();
      }
      await service.close();
    },
  };
}
