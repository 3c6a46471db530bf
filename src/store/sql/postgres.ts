/**
 * The port on PostgreSQL (`pg`): a bounded pool; a change in a REPEATABLE READ transaction (one
 * snapshot; a row changed meanwhile by another keeper fails it), run again from its start when it
 * meets another (with jitter); where a rule reads rows another change could make wrong without
 * touching them, it locks them (needs.ts); a read in a REPEATABLE READ READ ONLY one. Statements
 * are prepared once per connection (named by a hash of their text) and pipelined (PgSql: what
 * need not be waited for goes with the next statement). Changes are told to the other keepers by NOTIFY in the transaction that
 * makes them, and theirs heard on a LISTEN connection of its own; a folder is kept by one keeper
 * at a time through a session advisory lock. It never runs SQL built from what an asker wrote.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Pool, PoolClient, Client, QueryResult } from 'pg';
import { shownStoreUrl } from '../shown-url.js';
import { StoreUnavailable, TransactionConflict } from '../store.js';
import type { Engine, Sql, TxOptions } from './port.js';
import { createRewriter, type Rewriter } from './postgres-rewrite.js';

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
  /** Runs `sql` (statements separated by `;`) in one transaction under the migration lock. */
  pool: Pool;
  /** Looks for rewrites owed by other processes from now on (once the schema is there: after migrating). */
  lookForRewrites(): void;
}

const CHANNEL_BASE = 'binder_change';
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
/** How often a keeper folds the counts' rows of changes into one row each (record_counts). */
const FOLD_EVERY_MS = 10_000;
/** Tries of a transaction that conflicts with others before it gives up (its asker is told to ask again). */
const RETRIES = 25;
/**
 * What the server answers a statement after a failure, for it: in_failed_sql_transaction; and
 * invalid_sql_statement_name for a statement sent as prepared because the same one was asked just
 * before it, whose preparation the aborted transaction refused.
 */
const AFTER_FAILURE = new Set(['25P02', '26000']);
/** Named statements kept per connection at most: SQL made on the fly past this is not named. */
const NAMED_MAX = 1000;

/** A statement's name on every connection: a hash of its text, worked out once per text. */
const names = new Map<string, string>();
const nameOf = (text: string): string => {
  let name = names.get(text);
  if (name === undefined) {
    name = `b${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    if (names.size < 5000) names.set(text, name);
  }
  return name;
};

/** Sends one statement on a connection; answered in order with the others sent on it. */
type Say = (client: PoolClient | Client, text: string, values: unknown[], name: string | undefined, array: boolean) => Promise<QueryResult>;

/** `?` placeholders to `$1…`, outside quotes (the rules write `?` for both engines). */
const dollars = new Map<string, string>();
export function toDollars(sql: string): string {
  const known = dollars.get(sql);
  if (known !== undefined) return known;
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (quote) {
      out += c;
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else if (c === '?') {
      out += `$${++n}`;
    } else {
      out += c;
    }
  }
  if (dollars.size < 5000) dollars.set(sql, out);
  return out;
}

const codeOf = (error: unknown): string => String((error as { code?: unknown })?.code ?? '');

/**
 * The transaction met another and is to be run again: a row changed meanwhile (40001), a deadlock
 * (40P01), or a key another transaction took meanwhile (23505: two keepers recording one ask id,
 * or making one list's id; run again, the second finds the first's).
 */
export const conflicting = (error: unknown): boolean => {
  const code = codeOf(error);
  return code === '40001' || code === '40P01' || code === '23505' || error instanceof TransactionConflict;
};

/** The server is not there, or the connection to it went. */
export function unreachable(error: unknown): boolean {
  if (error instanceof StoreUnavailable) return true;
  const code = codeOf(error);
  if (/^(08|57P)/.test(code)) return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENOENT', 'EAI_AGAIN'].includes(code)) return true;
  const message = error instanceof Error ? error.message : String(error);
  return /Connection terminated|connection is closed|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed/i.test(message);
}

const unavailable = (error: unknown): StoreUnavailable =>
  (error instanceof StoreUnavailable ? error
    : new StoreUnavailable(`the binder's database cannot be reached: ${error instanceof Error ? error.message : String(error)}`));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** A promise whose failure is looked at later: never an unhandled rejection meanwhile. */
const quiet = <T>(p: Promise<T>): Promise<T> => {
  p.catch(() => undefined);
  return p;
};

/** A statement said before the next one, in the same write. */
interface Waiting { sql: string; params?: readonly unknown[] }

/**
 * The port on one connection, inside one transaction. The connection pipelines (`pg`'s pipeline
 * mode): what need not be waited for — the BEGIN, a savepoint, a change whose outcome the rules do
 * not read (`later`) — waits here and is sent with the next statement, in one write, and that
 * statement is answered once everything sent before it is: a failure of any of them is its
 * failure (the first one's words, not the "transaction is aborted" of those after it).
 */
class PgSql implements Sql {
  readonly dialect = 'postgres' as const;
  /** Savepoints made in this transaction so far: each has a name of its own. */
  made = 0;
  /**
   * Savepoints asked for, innermost last. One is said to the server only when a statement is to
   * run inside it (then once for all those not said yet: nothing ran between them, so one
   * savepoint stands for them all), and never released (a release undoes nothing; it would cost a
   * round trip, and the server keeps a subtransaction's id until the commit all the same).
   */
  marks: { said: string | null }[] = [];
  /** To be said before the next statement. */
  private waiting: Waiting[] = [];
  /** Sent and not looked at yet: each is looked at with the statement sent after it. */
  private sent: Promise<unknown>[] = [];
  /** Whether anything was sent to the server in this transaction. */
  spoke = false;
  /** Changes this transaction made, to tell the other keepers of once it commits. */
  announced = 0;
  /**
   * The first failure since the transaction was last sound: every "transaction is aborted" the
   * server answers after it stands for it. Statements asked at once are each looked at by their
   * own asker, and one may be answered "aborted" before the failing one's asker looks.
   */
  private broke: unknown = null;
  constructor(readonly client: PoolClient | Client, private readonly named: Set<string>, private readonly say: Say, opening: string[] = []) {
    for (const sql of opening) this.waiting.push({ sql });
  }

  /** Says the savepoints not said yet, before what comes next. */
  private sayMarks(): void {
    const unsaid = this.marks.filter((m) => m.said === null);
    if (!unsaid.length) return;
    const name = `s${++this.made}`;
    this.waiting.push({ sql: `SAVEPOINT ${name}` });
    for (const mark of unsaid) mark.said = name;
  }

  later(sql: string, params?: readonly unknown[]): void {
    this.sayMarks();
    this.waiting.push({ sql, ...(params ? { params } : {}) });
  }

  private query(sql: string, params: readonly unknown[] | undefined, array: boolean): Promise<QueryResult> {
    this.sayMarks();
    return this.send(sql, params, array);
  }

  /** Sends what waits, then `sql`, in one write; answers once all of them are answered. */
  async send(sql: string, params: readonly unknown[] | undefined, array: boolean): Promise<QueryResult> {
    const before = this.waiting.splice(0);
    this.spoke = true;
    this.cork();
    for (const w of before) this.sent.push(quiet(this.one(w.sql, w.params, false)));
    const answer = this.one(sql, params, array);
    let result: QueryResult | undefined;
    let failed: { error: unknown } | undefined;
    try {
      result = await answer;
    } catch (error) {
      failed = { error };
    }
    // Answered in order: those sent before are answered by now (no wait but the microtasks').
    if (this.sent.length) {
      for (const was of await Promise.allSettled(this.sent.splice(0))) {
        if (was.status === 'rejected') throw this.cause(was.reason);
      }
    }
    if (failed) throw this.cause(failed.error);
    return result!;
  }

  /** What a failure stands for: one after the first is that one's doing, said in its words. */
  private cause(error: unknown): unknown {
    return this.broke !== null && AFTER_FAILURE.has(codeOf(error)) ? this.broke : error;
  }

  /** Rolled back to a savepoint: the transaction is sound again. */
  recovered(): void {
    this.broke = null;
  }

  private corked = false;
  /**
   * Holds what is sent until the code running now has asked all it asks at once (as a get asks its
   * parts): one write for them all. A write is a system call that wakes the server, the dearest
   * thing a statement costs here. Uncorked in a microtask, not on the next tick: a tick waits for
   * every microtask queued meanwhile, and code that blocks in one (a test's synchronous psql)
   * would wait on a commit still held here.
   */
  private cork(): void {
    if (this.corked) return;
    const stream = (this.client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
    if (!stream?.cork || !stream.uncork) return;
    this.corked = true;
    stream.cork();
    queueMicrotask(() => {
      this.corked = false;
      stream.uncork!();
    });
  }

  /**
   * Drops what waits from the savepoint `name` on, if it was never sent: true when it was not. An
   * outer savepoint said as the same one (nothing ran between them) is unsaid with it: the next
   * statement in it says it again.
   */
  unsay(name: string): boolean {
    const at = this.waiting.findIndex((w) => w.sql === `SAVEPOINT ${name}`);
    if (at < 0) return false;
    this.waiting.length = at;
    for (const mark of this.marks) if (mark.said === name) mark.said = null;
    return true;
  }

  /** Whether a COMMIT has anything to end: something sent, or a change waiting to be. */
  get opened(): boolean {
    return this.spoke || this.waiting.some((w) => !/^(BEGIN|SET LOCAL) /.test(w.sql));
  }

  private async one(sql: string, params: readonly unknown[] | undefined, array: boolean): Promise<QueryResult> {
    const text = toDollars(sql);
    const values = (params ?? []).map((v) => (v === undefined ? null : v));
    const name = this.named.has(text) || this.named.size < NAMED_MAX ? nameOf(text) : undefined;
    try {
      const result = await this.say(this.client, text, values, name, array);
      if (name) this.named.add(text);
      return result;
    } catch (error) {
      const said = conflicting(error) ? new TransactionConflict(error instanceof Error ? error.message : String(error))
        : unreachable(error) ? unavailable(error) : error;
      // Answered in order: the first failure is recorded before any after it is looked at.
      this.broke ??= said;
      throw said;
    }
  }

  async all<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return (await this.query(sql, params, false)).rows as T[];
  }
  async get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined> {
    return (await this.query(sql, params, false)).rows[0] as T | undefined;
  }
  async value<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined> {
    const row = (await this.query(sql, params, true)).rows[0] as unknown[] | undefined;
    return row?.[0] as T | undefined;
  }
  async column<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return ((await this.query(sql, params, true)).rows as unknown[][]).map((row) => row[0] as T);
  }
  async run(sql: string, params?: readonly unknown[]): Promise<{ changes: number }> {
    return { changes: (await this.query(sql, params, false)).rowCount ?? 0 };
  }
}

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
  const CHANNEL = schema ? `${CHANNEL_BASE}_${schema}` : CHANNEL_BASE;
  const keyed = (key: string): string => (schema ? `${schema} ${key}` : key);
  const base = { ...(schema ? schemaAddress(options.url, schema) : options.url ? { connectionString: options.url } : {}), types, connectionTimeoutMillis: 5000 };
  // Pipelined: statements a transaction need not wait for go in one write with the next (PgSql).
  const pool = new pg.Pool({ ...base, max: options.max ?? 8, idleTimeoutMillis: 30_000, pipeline: true } as ConstructorParameters<typeof pg.Pool>[0]);
  const say = options.log ?? (() => {});
  // An idle connection cut by the server is the pool's to drop: never the process's end.
  pool.on('error', (error) => say(`binder store: a pooled connection to the database failed: ${error.message}`));
  // A connection lent out that fails tells its statements (they fail, and it is dropped when given
  // back); its own 'error' event, left unheard, would end the process.
  pool.on('connect', (client) => { client.on('error', () => undefined); });
  /**
   * A prepared statement's rows are described the same each time it runs: how each column is read
   * is worked out once per statement (pg works it out again for every answer, ~10 % of a change's
   * work in the keeper, measured), and used while the description is the same.
   */
  interface Field { name: string; dataTypeID: number; format?: string }
  interface RowsInside { fields: Field[]; _parsers?: unknown[]; _prebuiltEmptyResultObject: object | null; addFields(fields: Field[]): void }
  const Rows = (new pg.Query('') as unknown as { _result: object })._result.constructor as new (rowMode?: string) => RowsInside;
  const described = new Map<string, { fields: Field[]; parsers: unknown[] | undefined; empty: object | null }>();
  const sameFields = (a: Field[], b: Field[]): boolean =>
    a.length === b.length && a.every((f, i) => f.name === b[i]!.name && f.dataTypeID === b[i]!.dataTypeID && f.format === b[i]!.format);
  class DescribedRows extends Rows {
    constructor(rowMode: string | undefined, private readonly statement: string) {
      super(rowMode);
    }
    override addFields(fields: Field[]): void {
      const kept = described.get(this.statement);
      if (kept && sameFields(kept.fields, fields)) {
        this.fields = fields;
        this._parsers = kept.parsers;
        this._prebuiltEmptyResultObject = kept.empty;
        return;
      }
      super.addFields(fields);
      if (described.size < 5000) described.set(this.statement, { fields, parsers: this._parsers, empty: this._prebuiltEmptyResultObject });
    }
  }
  /**
   * A statement as pg's own Query, answered through its callback: given a config object, pg copies
   * it property by property and chains a promise of its own, which cost more than the statement's
   * bytes (~9 % of a change's work in the keeper, measured).
   */
  const statement: Say = (client, text, values, name, array) => new Promise((resolve, reject) => {
    const query = new pg.Query(text, values, (error, result) => (error ? reject(error) : resolve(result as unknown as QueryResult)));
    const inside = query as unknown as { name?: string; _rowMode?: string; _result: object; _results: object };
    if (name) inside.name = name;
    if (array) inside._rowMode = 'array';
    // What pg's constructor made of the text alone, made again knowing the statement and its rows' shape.
    if (name || array) inside._results = inside._result = name ? new DescribedRows(inside._rowMode, name) : new Rows('array');
    void client.query(query as unknown as Parameters<PoolClient['query']>[0]);
  });
  const named = new WeakMap<object, Set<string>>();
  const namesOf = (client: object): Set<string> => {
    let names = named.get(client);
    if (!names) named.set(client, (names = new Set()));
    return names;
  };
  const me = randomUUID();
  const where = options.url ? shownStoreUrl(options.url) : 'postgres (from the PG* environment)';

  /** Connections seen to work in this engine's schema. */
  const inSchema = new WeakSet<object>();
  async function connect(): Promise<PoolClient> {
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw unavailable(error);
    }
    if (!schema || inSchema.has(client)) return client;
    // An organisation's binder is its schema only if the connection's search_path says so: a pooler
    // that drops connection options (PgBouncer in transaction mode) would leave every organisation
    // in the database's own schema, together. Looked at once per connection, before any statement.
    let path: unknown;
    try {
      path = (await client.query('SELECT current_setting($1) AS path', ['search_path'])).rows[0]?.path;
    } catch (error) {
      client.release(true);
      throw unreachable(error) ? unavailable(error) : error;
    }
    if (path !== schema) {
      client.release(true);
      throw new Error(`a connection to ${where} has the search_path ${String(path)}, not ${schema}: `
        + 'something between the keeper and the database (a pooler in transaction mode) drops the connection\'s options; '
        + 'connect the keeper to the database directly, or through a pooler in session mode');
    }
    inSchema.add(client);
    return client;
  }

  async function begin<T>(fn: (q: Sql) => Promise<T>, tx: TxOptions): Promise<T> {
    if (tx.single && tx.mode === 'read') {
      const client = await connect();
      let broken = false;
      try {
        return await fn(new PgSql(client, namesOf(client), statement));
      } catch (error) {
        broken = unreachable(error);
        if (broken) throw unavailable(error);
        throw error;
      } finally {
        client.release(broken ? true : undefined);
      }
    }
    for (let attempt = 1; ; attempt++) {
      const client = await connect();
      let broken = false;
      try {
        // One that cannot be run again (it appends to a folder's files) touches only the ledger of
        // a folder this keeper alone holds: READ COMMITTED, so it never fails for a conflict.
        // SERIALIZABLE was measured: sixteen clients noting on random records through two keepers
        // failed on the index pages their reads and writes shared, however often run again.
        const opening = [tx.mode === 'read' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'
          : tx.retry === false ? 'BEGIN ISOLATION LEVEL READ COMMITTED' : 'BEGIN ISOLATION LEVEL REPEATABLE READ'];
        // A read writes no WAL: only a change's commit may skip the wait for the disk.
        if (tx.sync === false && tx.mode !== 'read') opening.push('SET LOCAL synchronous_commit = off');
        // Said with the first statement, in its write; a transaction that said none ends with none.
        const q = new PgSql(client, namesOf(client), statement, opening);
        const result = await fn(q);
        // A read's commit ends a snapshot and changes nothing: it is sent, not waited for (the
        // connection's next user is answered after it, in order). A change's is waited for.
        if (q.opened && tx.mode === 'read') void quiet(q.send('COMMIT', undefined, false));
        else if (q.opened) await q.send('COMMIT', undefined, false);
        if (q.announced) toldSoon(q.announced);
        return result;
      } catch (error) {
        if (unreachable(error)) broken = true;
        else {
          try {
            await client.query('ROLLBACK');
          } catch {
            broken = true;
          }
        }
        if (broken) throw unavailable(error);
        if (conflicting(error) && tx.retry !== false && attempt < RETRIES) {
          // Apart at random, longer each time (at most a quarter second): those that met meet no more.
          await sleep(Math.random() * Math.min(250, 2 * 2 ** attempt));
          continue;
        }
        if (conflicting(error)) throw new TransactionConflict(`the binder's database was too busy to keep this change apart from others (${RETRIES} tries)`);
        throw error;
      } finally {
        client.release(broken ? true : undefined);
      }
    }
  }

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
    if (!telling && !tellLater && !closed) tellAfter(Math.max(0, toldAt + TELL_EVERY_MS - Date.now()));
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
        await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ from: me, n })]);
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
      if (untold > 0 && !closed) tellAfter(failed ? 1000 : Math.max(0, toldAt + TELL_EVERY_MS - Date.now()));
    })();
    return telling;
  }

  /* ---- other keepers' changes: LISTEN on a connection of its own ---- */
  const others = new Set<() => void>();
  let listener: Client | null = null;
  let listening: Promise<void> | null = null;
  let closed = false;
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
      for (let wait = 100; !closed && others.size > 0; wait = Math.min(wait * 2, 2000)) {
        const client = new pg.Client(base);
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
            if (!closed && others.size > 0) void listen();
          };
          client.on('error', lost);
          client.on('end', lost);
          await client.query(`LISTEN ${CHANNEL}`);
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
      if (before !== undefined && last !== before && others.size > 0 && !closed) tell();
    } catch {
      // The database is away: its listeners are told once they listen again.
    }
  }

  /* ---- folders kept by one keeper at a time ---- */
  let locks: Client | null = null;
  const held = new Set<string>();
  async function lockConnection(): Promise<Client> {
    if (locks) return locks;
    const client = new pg.Client(base);
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
    dialect: 'postgres',
    path: schema ? `${where} (schema ${schema})` : where,
    pool,
    begin,
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
      // Told once it commits (begin), outside it: see `toldSoon`.
      (q as PgSql).announced += changes;
    },
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
    oweRewrite(q: Sql) {
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
      // What was committed and not told yet is told before the pool ends (binder admin's change
      // wakes the keepers' waits).
      if (tellLater) clearTimeout(tellLater);
      tellLater = null;
      closed = true;
      await rewriter?.close();
      await telling;
      await tellNow();
      clearInterval(fold);
      if (lastChangeWatch) clearInterval(lastChangeWatch);
      others.clear();
      const ending = [listener, locks].filter((c): c is Client => c !== null);
      listener = locks = null;
      held.clear();
      await Promise.all(ending.map((c) => c.end().catch(() => undefined)));
      await pool.end().catch(() => undefined);
    },
  };
}

