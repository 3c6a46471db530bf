/**
 * What the store's tests share: a fresh store, a person and two agents, and a clock the test
 * moves. `eachStore` registers a test twice, on SQLite (a temporary folder) and on PostgreSQL (a
 * database of this test file's own, emptied before each test, on the run's cluster); where
 * PostgreSQL is not installed, the second is reported skipped, saying why. Never shares a binder
 * between tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext, type TestOptions } from 'node:test';
import { openStore, type SqliteStore, type StoreOptions, type Who } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';

export const ann: Who = { id: 'person:ann', kind: 'person', name: 'Ann' };
export const bea: Who = { id: 'person:bea', kind: 'person', name: 'Bea' };
export const bot: Who = { id: 'agent:bot', kind: 'agent', name: 'Bot' };
export const spy: Who = { id: 'agent:spy', kind: 'agent', name: 'Spy' };

export type Engine = 'sqlite' | 'postgres';

export interface Fixture {
  /** Typed as SQLite's for the tests that look inside it (those run on SQLite alone); on PostgreSQL it has no `db`. */
  store: SqliteStore;
  engine: Engine;
  dir: string;
  clock: { ms: number };
  /** Another store object on the same binder. */
  reopen(): Promise<SqliteStore>;
  done(): Promise<void>;
}

/** The engine the test being run is on (eachStore sets it). */
let current: Engine = 'sqlite';

/** Registers `fn` as two tests, `NAME [sqlite]` and `NAME [postgres]`, each on its engine's stores. */
export function eachStore(name: string, fn: (t: TestContext) => Promise<void>, options: TestOptions = {}): void {
  for (const engine of ['sqlite', 'postgres'] as const) {
    const missing = engine === 'postgres' ? postgresMissing() : null;
    test(`${name} [${engine}]`, { ...options, ...(missing ? { skip: missing } : {}) }, async (t) => {
      current = engine;
      try {
        await fn(t);
      } finally {
        current = 'sqlite';
      }
    });
  }
}

const TABLES = 'lists, access, records, notes, attachments, log, record_text, sides, folder_marks, asks, cursors, waits, record_counts, needs, tokens, login_links, sessions, people, orgs, token_orgs, signin_used, signin_seal, signin_issuer, hooks, hook_deliveries';

/** This test file's database, made at its first use and dropped when the process ends. */
let database: Promise<{ url: string; wipe(): void }> | null = null;
function fileDatabase(): Promise<{ url: string; wipe(): void }> {
  database ??= (async () => {
    const c = await cluster();
    const url = c.database();
    const name = new URL(url).pathname.slice(1);
    process.once('exit', () => dropDatabase(c, url));
    return {
      url,
      wipe: () => { c.psql(name, `DO $$ BEGIN IF to_regclass('public.lists') IS NOT NULL THEN TRUNCATE ${TABLES} RESTART IDENTITY CASCADE; END IF; END $$`); },
    };
  })();
  return database;
}

export async function fresh(start = Date.UTC(2026, 0, 15, 12, 0), options: Omit<StoreOptions, 'now'> = {}): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'binder-store-'));
  const clock = { ms: start };
  const engine = current;
  const opened: SqliteStore[] = [];
  let open: () => Promise<SqliteStore>;
  if (engine === 'sqlite') {
    open = async () => openStore(join(dir, 'store'), { ...options, now: () => clock.ms });
  } else {
    const db = await fileDatabase();
    db.wipe();
    open = async () => (await openPostgresStore(db.url, { ...options, now: () => clock.ms })) as unknown as SqliteStore;
  }
  const reopen = async (): Promise<SqliteStore> => {
    const s = await open();
    opened.push(s);
    return s;
  };
  const store = await reopen();
  return {
    store, engine, dir, clock, reopen,
    async done() {
      for (const s of opened) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A store with a Batches list (gate on Approved) that `bot` may write and `spy` may only read. */
export async function withBatches(): Promise<Fixture> {
  const f = await fresh();
  await f.store.createList({ template: 'batches' }, ann);
  await f.store.grant('batches', 'agent:bot', 'write', ann);
  return f;
}

/** The refusal's sentence, or a failure if nothing was refused. */
export async function refusal(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof Error && e.name === 'Refused') return e.message;
    throw e;
  }
  throw new Error('expected a refusal, but it was done');
}
