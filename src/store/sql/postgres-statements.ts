/**
 * PostgreSQL's statements inside one transaction (PgSql, the port's Sql on one connection), and
 * how a failure of theirs is read: a conflict to run again, a server gone. Statements are prepared
 * once per connection (named by a hash of their text) and pipelined: what need not be waited for
 * goes with the next statement, in one write. It never runs SQL built from what an asker wrote.
 */
import { createHash } from 'node:crypto';
import type { Client, PoolClient, QueryResult } from 'pg';
import { StoreUnavailable, TransactionConflict } from '../store.js';
import type { Sql } from './port.js';
import { POSTGRES } from '../dialect/postgres.js';
import { socketOf, type Say } from './pg-private.js';

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

export const codeOf = (error: unknown): string => String((error as { code?: unknown })?.code ?? '');

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

export const unavailable = (error: unknown): StoreUnavailable =>
  (error instanceof StoreUnavailable ? error
    : new StoreUnavailable(`the binder's database cannot be reached: ${error instanceof Error ? error.message : String(error)}`));

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** A promise whose failure is looked at later: never an unhandled rejection meanwhile. */
export const quiet = <T>(p: Promise<T>): Promise<T> => {
  p.catch(() => undefined);
  return p;
};

/** A statement said before the next one, in the same write; `check`: what reads its answer (Sql.ahead). */
interface Waiting { sql: string; params?: readonly unknown[]; check?: (result: QueryResult) => void }

/**
 * The port on one connection, inside one transaction. The connection pipelines (`pg`'s pipeline
 * mode): what need not be waited for — the BEGIN, a savepoint, a change whose outcome the rules do
 * not read (`later`) — waits here and is sent with the next statement, in one write, and that
 * statement is answered once everything sent before it is: a failure of any of them is its
 * failure (the first one's words, not the "transaction is aborted" of those after it).
 */
export class PgSql implements Sql {
  readonly dialect = POSTGRES;
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

  /** Reads sent ahead (Sql.ahead) whose answer is not read yet. */
  private unchecked = 0;
  /** What the check of a read sent ahead threw: nothing more is sent in this transaction, and it commits nothing. */
  private lapse: unknown = null;

  ahead<T>(sql: string, params: readonly unknown[], check: (row: T | undefined) => void): void {
    this.unchecked++;
    this.waiting.push({
      sql, params, check: (result) => {
        this.unchecked--;
        try {
          check(result.rows[0] as T | undefined);
        } catch (error) {
          this.lapse ??= error;
          throw error;
        }
      },
    });
  }

  /**
   * Every read sent ahead answered and its check passed, before a COMMIT is sent: a check's answer
   * comes with the statement it went with, and a change that waits for none (`later` alone) would
   * otherwise send it in the commit's own write.
   */
  async checked(): Promise<void> {
    if (this.unchecked > 0) await this.send('SELECT 1', undefined, true);
    if (this.lapse !== null) throw this.lapse;
  }

  private query(sql: string, params: readonly unknown[] | undefined, array: boolean): Promise<QueryResult> {
    this.sayMarks();
    return this.send(sql, params, array);
  }

  /** Sends what waits, then `sql`, in one write; answers once all of them are answered. */
  async send(sql: string, params: readonly unknown[] | undefined, array: boolean): Promise<QueryResult> {
    if (this.lapse !== null) throw this.lapse;
    const before = this.waiting.splice(0);
    this.spoke = true;
    this.cork();
    for (const w of before) {
      const said = this.one(w.sql, w.params, false);
      this.sent.push(quiet(w.check ? said.then(w.check) : said));
    }
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
    const socket = socketOf(this.client);
    if (!socket) return;
    this.corked = true;
    socket.cork();
    queueMicrotask(() => {
      this.corked = false;
      socket.uncork();
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

  /** Whether a COMMIT has anything to end: something sent, or a change waiting to be (a read ahead is none). */
  get opened(): boolean {
    return this.spoke || this.waiting.some((w) => !w.check && !/^(BEGIN|SET LOCAL) /.test(w.sql));
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
