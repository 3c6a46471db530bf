/**
 * The store on PostgreSQL, for a team: opens a pool on the database, checks its version and
 * brings it to this Binder's under an advisory lock (two keepers starting together migrate once),
 * and runs the same rules as SQLite's over the PostgreSQL engine. A database made by a newer
 * Binder is refused with a sentence, and nothing in it is changed.
 */
import { PG_MIGRATIONS } from './schema-postgres.js';
import type { PoolClient } from 'pg';
import { SCHEMA_SHAPE, postgresEngine, unreachable, type PostgresEngine } from './sql/postgres.js';
import { shownStoreUrl } from './shown-url.js';
import { makeStore, type StoreOptions } from './store-core.js';
import type { Sentence } from './sentence.js';
import { Refused, type Store } from './store.js';
import { refusalSaid, type RefusalWords } from './words/index.js';

export interface PostgresStoreOptions extends StoreOptions {
  /** Connections in the pool at most (8). */
  max?: number;
  log?: (line: string) => void;
  /** An organisation's binder: its schema (`org_<slug>`), made and migrated here; none: the database's own. */
  schema?: string;
}

export interface PostgresStore extends Store {
  readonly dialect: 'postgres';
  /** The database's schema version and this Binder's. */
  readonly schema: { before: number; now: number };
  /**
   * Whether the database lowercases every script's letters (a UTF-8 locale, or ICU): search finds
   * capitals by small letters through it. In a `C` locale, ASCII's alone. Undefined when it could
   * not be asked.
   */
  foldsCase(): Promise<boolean | undefined>;
}

/** Binder cannot open its store: why, in each language's words (an error's own message in all). */
const cannotOpen = (where: string, why: (words: RefusalWords) => string | Sentence): Refused =>
  refusalSaid((w) => w.storeCannotOpen(where, why(w)));

/**
 * An organisation's schema, made if it is not there, and the path its migrations run on: the
 * schema first (where they make their tables), then where `unaccent` lives (its dictionary is
 * named by the search's configurations), kept in `public` where it can be made there.
 */
async function prepareSchema(client: PoolClient, schema: string): Promise<void> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await client.query('SAVEPOINT unaccent');
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public');
    await client.query('RELEASE SAVEPOINT unaccent');
  } catch {
    // Not allowed here: search works without it, accents counting (as on the database's own binder).
    await client.query('ROLLBACK TO SAVEPOINT unaccent');
  }
  const found = await client.query("SELECT extnamespace::regnamespace::text AS at FROM pg_extension WHERE extname = 'unaccent'");
  const at = (found.rows[0] as { at?: string } | undefined)?.at;
  const path = [schema, ...(at && at !== schema && SCHEMA_SHAPE.test(at) ? [at] : [])].join(', ');
  await client.query(`SET LOCAL search_path = ${path}`);
}

/** Brings the database (or the organisation's schema) to this Binder's schema; returns the version it was at. */
async function migrate(engine: PostgresEngine, where: string, schema: string | undefined): Promise<number> {
  const client = await engine.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('binder migrate', 0))");
    if (schema) await prepareSchema(client, schema);
    await client.query('CREATE TABLE IF NOT EXISTS binder_schema (version integer NOT NULL)');
    const at = Number((await client.query('SELECT coalesce(max(version), 0) AS v FROM binder_schema')).rows[0]?.v ?? 0);
    if (at > PG_MIGRATIONS.length) {
      throw cannotOpen(where, (w) => w.openNewerSchema(at, PG_MIGRATIONS.length));
    }
    for (let i = at; i < PG_MIGRATIONS.length; i++) {
      await client.query(PG_MIGRATIONS[i]!);
      await client.query('INSERT INTO binder_schema (version) VALUES ($1)', [i + 1]);
    }
    await client.query('COMMIT');
    return at;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The store in the database at `url` (or the PG* environment's), migrated to this Binder's schema. */
export async function openPostgresStore(url: string | undefined, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const where = url ? shownStoreUrl(url) : 'postgres (from the PG* environment)';
  const engine = await postgresEngine({
    ...(url ? { url } : {}), ...(options.max ? { max: options.max } : {}), ...(options.log ? { log: options.log } : {}),
    ...(options.schema ? { schema: options.schema } : {}),
  });
  let before: number;
  try {
    before = await migrate(engine, where, options.schema);
  } catch (error) {
    await engine.close();
    if (error instanceof Refused) throw error;
    const why = error instanceof Error ? error.message : String(error);
    if (unreachable(error)) throw cannotOpen(where, (w) => w.openUnreachable(why));
    throw cannotOpen(where, () => why);
  }
  engine.lookForRewrites();
  const store = makeStore(engine, options);
  // Asked of the database itself: its locale's name does not say (a provider, a version may).
  const foldsCase = (): Promise<boolean | undefined> => engine.pool.query<{ folds: boolean }>("SELECT lower('ΩÉ') = 'ωé' AS folds")
    .then((r) => r.rows[0]?.folds === true, () => undefined);
  return Object.assign(store, { dialect: 'postgres' as const, schema: { before, now: PG_MIGRATIONS.length }, foldsCase });
}
