/**
 * The port on PostgreSQL (`pg`): the engine, wired from its parts — transactions on a bounded
 * pool (postgres-session.ts) and their statements (postgres-statements.ts); news of changes
 * between keepers (postgres-news.ts); the counts' folding and a delete's rewrites
 * (postgres-upkeep.ts); folders kept by one keeper at a time (postgres-locks.ts); and `pg`'s
 * private parts, touched in pg-private.ts alone. It never runs SQL built from what an asker wrote.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { POSTGRES } from '../dialect/postgres.js';
import { shownStoreUrl } from '../shown-url.js';
import type { Engine, Sql } from './port.js';
import { statementSender } from './pg-private.js';
import { createFolderLocks } from './postgres-locks.js';
import { createNews } from './postgres-news.js';
import { createSessions } from './postgres-session.js';
import { conflicting, unreachable, type PgSql } from './postgres-statements.js';
import { createUpkeep } from './postgres-upkeep.js';

export { conflicting, toDollars, unreachable } from './postgres-statements.js';

export interface PostgresOptions {
  /** `postgres://user@host/db`; none: PG* environment variables say where. */
  url?: string;
  /** Connections in the pool at most (8). */
  max?: number;
  /** Where the engine says what went wrong with the server (one line each). */
  log?: (line: string) => void;
  /**
   * An organisation's binder: the schema (`org_<slug>`, made of [a-z0-9_] alone) every
   * connection of this engine works in, set as the connection's search_path when it opens —
   * never by a query. Its changes and its folders' locks are told apart from other schemas'.
   */
  schema?: string;
}

/** A schema this engine may be given: never anything an asker wrote, but checked all the same. */
export const SCHEMA_SHAPE = /^[a-z][a-z0-9_]{0,62}$/;

/** The engine, and what only a server store has. */
export interface PostgresEngine extends Engine {
  /** Keeps the folder `key` for this keeper (a session advisory lock) if no other keeper does. */
  holdFolder(key: string): Promise<boolean>;
  /** The pool: the migrations run on one of its connections, under the migration lock. */
  pool: Pool;
  /** Looks for rewrites owed by other processes from now on (once the schema is there: after migrating). */
  lookForRewrites(): void;
}

const CHANNEL_BASE = 'binder_change';

/**
 * The address of an organisation's schema: the database's, its own connection options kept
 * (`?options=-c …` in the URL, else PGOPTIONS) and the schema's search_path said after them, last
 * so it wins. node-postgres lets a URL's options replace those given beside it: left there, they
 * would drop the search_path, and every organisation would work in the database's own schema.
 */
export function schemaAddress(url: string | undefined, schema: string): { connectionString?: string; options: string } {
  const path = `-c search_path=${schema}`;
  const at = url?.indexOf('?') ?? -1;
  if (url === undefined || at < 0) {
    const own = process.env.PGOPTIONS?.trim();
    return { ...(url !== undefined ? { connectionString: url } : {}), options: own ? `${own} ${path}` : path };
  }
  const query = new URLSearchParams(url.slice(at + 1));
  const own = query.getAll('options').map((o) => o.trim()).filter(Boolean);
  query.delete('options');
  const rest = query.toString();
  return { connectionString: `${url.slice(0, at)}${rest ? `?${rest}` : ''}`, options: [...own, path].join(' ') };
}


type Pg = typeof import('pg').default;

/**
 * pg's Client, but one whose failed connect lets its connection go. pg leaves open the socket of a
 * connect that failed on its own side (the server asks for a password the URL does not give): the
 * server holds it until its authentication_timeout (60 s by default), and a command that could not
 * open its store waited as long before it ended.
 */
function lettingGo(pg: Pg): typeof pg.Client {
  type Client = InstanceType<Pg['Client']>;
  type Connected = ((err: Error) => void) | ((err: null, c: Client) => void);
  const letGo = (client: Client): void => { client.end().catch(() => undefined); };
  return class extends pg.Client {
    override connect(): Promise<Client>;
    override connect(callback: Connected): void;
    override connect(callback?: Connected): Promise<Client> | void {
      if (!callback) return super.connect().catch((error: unknown) => { letGo(this); throw error; });
      super.connect((error: Error | null, client?: Client) => {
        if (error) letGo(this);
        (callback as (err: Error | null, c?: Client) => void)(error, client);
      });
    }
  };
}

export async function postgresEngine(options: PostgresOptions): Promise<PostgresEngine> {
  // Loaded only where a PostgreSQL store is opened: nothing else pays for it.
  const pg = (await import('pg')).default;
  // Integers as JS numbers, as SQLite gives them: ids and ms times (int8), sums and counts (numeric).
  const number = (value: string): number => Number(value);
  const types = {
    getTypeParser: ((oid: number, format?: string) => (oid === 20 || oid === 1700 ? number : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser,
  };
  if (options.schema !== undefined && !SCHEMA_SHAPE.test(options.schema)) throw new Error(`not a schema this engine opens: ${options.schema}`);
  const schema = options.schema;
  // One schema's changes wake that schema's keepers alone; its folders' locks are its own.
  const channel = schema ? `${CHANNEL_BASE}_${schema}` : CHANNEL_BASE;
  const keyed = (key: string): string => (schema ? `${schema} ${key}` : key);
  const base = { ...(schema ? schemaAddress(options.url, schema) : options.url ? { connectionString: options.url } : {}), types, connectionTimeoutMillis: 5000 };
  // Pipelined: statements a transaction need not wait for go in one write with the next (PgSql).
  // Every connection of the engine's, the pool's and its own (news, folder locks), lets a failed connect go.
  const Connection = lettingGo(pg);
  const pool = new pg.Pool({ ...base, Client: Connection, max: options.max ?? 8, idleTimeoutMillis: 30_000, pipeline: true } as ConstructorParameters<typeof pg.Pool>[0]);
  const say = options.log ?? (() => {});
  // An idle connection cut by the server is the pool's to drop: never the process's end.
  pool.on('error', (error) => say(`binder store: a pooled connection to the database failed: ${error.message}`));
  // A connection lent out that fails tells its statements (they fail, and it is dropped when given
  // back); its own 'error' event, left unheard, would end the process.
  pool.on('connect', (client) => { client.on('error', () => undefined); });
  const where = options.url ? shownStoreUrl(options.url) : 'postgres (from the PG* environment)';

  const sessions = createSessions({ pool, statement: statementSender(pg), schema, where });
  const news = createNews({ Connection, pool, base, channel, me: randomUUID(), say });
  const locks = createFolderLocks(Connection, base, keyed);
  const upkeep = createUpkeep({ pool, connect: sessions.connect, keyed, say });
  const told = (q: PgSql): void => {
    if (q.announced) news.toldSoon(q.announced);
  };

  return {
    dialect: 'postgres',
    pieces: POSTGRES,
    severalKeepers: true,
    inAFile: false,
    path: schema ? `${where} (schema ${schema})` : where,
    pool,
    begin: (fn, tx) => sessions.begin(fn, tx, told),
    async savepoint<T>(q: Sql, fn: () => Promise<T>): Promise<T> {
      const sql = q as PgSql;
      const mark: { said: string | null } = { said: null };
      sql.marks.push(mark);
      try {
        return await fn();
      } catch (error) {
        // A conflict or a lost connection is the whole transaction's: nothing to undo here. A
        // savepoint never said had no statement run inside it: nothing to undo either.
        // Said and not sent yet: nothing of it reached the server, and it is dropped here.
        if (mark.said !== null && !conflicting(error) && !unreachable(error) && !sql.unsay(mark.said)) {
          await sql.send(`ROLLBACK TO SAVEPOINT ${mark.said}`, undefined, false);
          sql.recovered();
        }
        throw error;
      } finally {
        sql.marks.splice(sql.marks.lastIndexOf(mark), 1);
      }
    },
    async announce(q: Sql, changes: number) {
      // Told once it commits (begin), outside it: see postgres-news.ts.
      (q as PgSql).announced += changes;
    },
    onOtherChange: (fn) => news.onOtherChange(fn),
    holdFolder: (key) => locks.holdFolder(key),
    oweRewrite: (q) => upkeep.oweRewrite(q),
    afterDelete: () => upkeep.afterDelete(),
    rewritten: () => upkeep.rewritten(),
    lookForRewrites: () => upkeep.lookForRewrites(),
    async close() {
      await upkeep.close();
      await news.close();
      await locks.close();
      await pool.end().catch(() => undefined);
    },
  };
}
