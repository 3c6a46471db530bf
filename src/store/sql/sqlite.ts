/**
 * The port on SQLite (better-sqlite3, synchronous underneath): one connection, one transaction at
 * a time (an in-process queue), BEGIN/COMMIT issued by hand, savepoints inside. Every query
 * resolves at once, so a transaction's body runs in microtasks without yielding to I/O: nothing
 * but the port may be awaited inside one. Statements are compiled once and kept.
 */
import type Database from 'better-sqlite3';
import { SQLITE } from '../dialect/sqlite.js';
import type { Engine, Sql, TxOptions } from './port.js';

/** Beyond this many kept statements, SQL made on the fly (lists of placeholders) is not kept. */
const KEPT_MAX = 500;
/** How often another process's commits are looked for while someone listens (PRAGMA data_version: a few µs). */
const OTHERS_POLL_MS = 50;

/** The port on one connection, with savepoints of its own (nested ones said once where nothing ran between). */
interface SqliteSql extends Sql {
  /** Runs `fn` in a savepoint: a failure undoes what it did alone. */
  savepoint<T>(fn: () => Promise<T>): Promise<T>;
}

type RowOf = (values: unknown[]) => Record<string, unknown>;

/** A statement as kept: one that returns rows returns them as arrays of `width` values, made objects by `rowOf`. */
interface Prepared {
  statement: Database.Statement;
  width: number;
  rowOf: RowOf | null;
}

/** A row as an object with the statement's column names, a name given twice holding the last (as better-sqlite3 does). */
const entriesOf = (names: readonly string[]): RowOf => (values) =>
  Object.fromEntries(names.map((name, i) => [name, values[i]]));

/**
 * The maker of a kept statement's rows. better-sqlite3 makes a row by setting its columns one by
 * one, and past a dozen columns V8 keeps such an object as a dictionary: a record's look (some
 * thirty columns) took ~6 µs to make and more to read. One object literal of the statement's own
 * columns gives each of its rows one fast shape. The names are SQLite's, quoted as JSON; a
 * `__proto__` among them (which a literal would take as the prototype) is made as entries.
 */
function rowMaker(names: readonly string[]): RowOf {
  if (names.includes('__proto__')) return entriesOf(names);
  return new Function('v', `return { ${names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')} };`) as RowOf;
}

/** Makes `p`'s rows from its columns as they are now: a `*` reads the columns a table has since gained. */
function shape(p: Prepared, keep: boolean): void {
  const names = p.statement.columns().map((c) => c.name);
  p.width = names.length;
  p.rowOf = keep ? rowMaker(names) : entriesOf(names);
}

/** `values` as the object of a row, made anew where the statement's columns changed under it. */
const rowFrom = (p: Prepared, values: unknown[]): Record<string, unknown> => {
  if (values.length !== p.width) shape(p, true);
  return p.rowOf!(values);
};

export function sqliteSql(db: Database.Database): SqliteSql {
  const kept = new Map<string, Prepared>();
  const prepare = (sql: string): Prepared => {
    let found = kept.get(sql);
    if (!found) {
      const keep = kept.size < KEPT_MAX;
      found = { statement: db.prepare(sql), width: 0, rowOf: null };
      if (found.statement.reader) {
        found.statement.raw(true);
        shape(found, keep);
      }
      if (keep) kept.set(sql, found);
    }
    return found;
  };
  /**
   * Savepoints asked for, innermost last, each with the name of the one said for it. One asked for
   * before any statement ran inside the one around it is that one (nothing ran between them, so
   * undoing to it undoes the same): an operation inside an ask inside a savepoint of its own says
   * one savepoint, not three.
   */
  const marks: string[] = [];
  let made = 0;
  /** Statements run so far, and how many had run when the innermost savepoint was said. */
  let ran = 0;
  let ranAtSaid = -1;
  const statement = (sql: string): Prepared => {
    ran++;
    return prepare(sql);
  };
  // A statement that returns no rows is asked all the same, for better-sqlite3's own refusal.
  const first = (sql: string, params?: readonly unknown[]): { values: unknown[] | undefined; p: Prepared } => {
    const p = statement(sql);
    return { values: p.statement.get(...(params ?? [])) as unknown[] | undefined, p };
  };
  return {
    dialect: SQLITE,
    all: async <T>(sql: string, params?: readonly unknown[]) => {
      const p = statement(sql);
      const rows = p.statement.all(...(params ?? [])) as unknown[][];
      return (p.rowOf ? rows.map((values) => rowFrom(p, values)) : rows) as T[];
    },
    get: async <T>(sql: string, params?: readonly unknown[]) => {
      const { values, p } = first(sql, params);
      return (values === undefined || !p.rowOf ? values : rowFrom(p, values)) as T | undefined;
    },
    value: async <T>(sql: string, params?: readonly unknown[]) => first(sql, params).values?.[0] as T | undefined,
    column: async <T>(sql: string, params?: readonly unknown[]) =>
      (statement(sql).statement.all(...(params ?? [])) as unknown[][]).map((row) => row[0] as T),
    run: async (sql: string, params?: readonly unknown[]) => ({ changes: statement(sql).statement.run(...(params ?? [])).changes }),
    // Done at once: SQLite has no round trip to spare, and its failure is thrown where it was asked.
    later: (sql: string, params?: readonly unknown[]) => { statement(sql).statement.run(...(params ?? [])); },
    async savepoint<T>(fn: () => Promise<T>): Promise<T> {
      const shared = marks.length > 0 && ran === ranAtSaid;
      const name = shared ? marks[marks.length - 1]! : `s${++made}`;
      if (!shared) {
        db.exec(`SAVEPOINT ${name}`);
        ranAtSaid = ran;
      }
      marks.push(name);
      try {
        const result = await fn();
        // A shared one is released (or undone) by the one it was said for.
        if (!shared) db.exec(`RELEASE ${name}`);
        return result;
      } catch (error) {
        if (db.inTransaction) {
          db.exec(`ROLLBACK TO ${name}`);
          if (!shared) db.exec(`RELEASE ${name}`);
        }
        throw error;
      } finally {
        marks.pop();
        // Left: what ran inside the one around it since it was said is not known here.
        if (!shared) ranAtSaid = -1;
      }
    },
  };
}

/**
 * One queue of transactions per database file in this process, whatever the store objects on it:
 * two connections of one thread must never both hold a transaction while awaiting (the second's
 * BEGIN would wait on the first's lock with the thread itself blocked, and fail as busy).
 */
const lanes = new Map<string, { queue: Promise<unknown>; users: number }>();

export function sqliteEngine(db: Database.Database, path: string): Engine {
  const q = sqliteSql(db);
  // One transaction at a time on the file: the next waits for this one's end.
  const lane = lanes.get(path) ?? { queue: Promise.resolve(), users: 0 };
  lanes.set(path, lane);
  lane.users++;
  /** The last transaction this engine asked for, ended or not. */
  let queue: Promise<unknown> = Promise.resolve();
  /** Transactions asked for and not ended yet. */
  let waiting = 0;
  const others = new Set<() => void>();
  let poll: NodeJS.Timeout | null = null;
  let version = 0;
  // Changed by another connection's commits; this connection's own are counted apart.
  const dataVersionOf = db.prepare('PRAGMA data_version').pluck();
  const dataVersion = (): number => dataVersionOf.get() as number;
  let commits = 0;
  /**
   * The connection's sync level is read at each change that may lower it (a test, `binder admin`,
   * may set it on the connection), and set by exec: pragma() fetches a result nobody reads.
   */
  const NORMAL = 1;
  const FULL = 2;
  const syncLevel = (): number => db.pragma('synchronous', { simple: true }) as number;
  const setSync = (n: typeof NORMAL | typeof FULL): void => {
    db.exec(`PRAGMA synchronous = ${n}`);
  };

  async function run<T>(fn: (q: Sql) => Promise<T>, options: TxOptions): Promise<T> {
    // One statement that reads is a transaction of its own: BEGIN and COMMIT would cost it ~8 µs.
    if (options.single && options.mode === 'read') return fn(q);
    // The level is the connection's, set outside a transaction: put back once it ends.
    // A read commits nothing to the disk: its sync level does not matter, and is left alone.
    const lower = options.sync === false && options.mode !== 'read' && syncLevel() > 1;
    if (lower) setSync(NORMAL);
    try {
      db.exec(options.mode === 'read' ? 'BEGIN DEFERRED' : 'BEGIN IMMEDIATE');
      try {
        const result = await fn(q);
        db.exec('COMMIT');
        if (options.mode !== 'read') commits++;
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    } finally {
      if (lower && db.open) setSync(FULL);
    }
  }

  return {
    dialect: 'sqlite',
    pieces: SQLITE,
    severalKeepers: false,
    inAFile: true,
    path,
    begin<T>(fn: (q: Sql) => Promise<T>, options: TxOptions): Promise<T> {
      waiting++;
      const turn = lane.queue.then(() => run(fn, options)).finally(() => { waiting--; });
      queue = turn.catch(() => undefined);
      lane.queue = queue;
      return turn;
    },
    version: () => `${dataVersion()}.${commits}`,
    othersVersion: () => String(dataVersion()),
    savepoint: <T>(_q: Sql, fn: () => Promise<T>): Promise<T> => q.savepoint(fn),
    onOtherChange(listener) {
      others.add(listener);
      if (!poll) {
        version = dataVersion();
        poll = setInterval(() => {
          if (!db.open) return;
          const now = dataVersion();
          if (now === version) return;
          version = now;
          for (const fn of [...others]) {
            try {
              fn();
            } catch {
              // One listener's failure is its own.
            }
          }
        }, OTHERS_POLL_MS);
        poll.unref();
      }
      return () => {
        others.delete(listener);
        if (others.size === 0 && poll) {
          clearInterval(poll);
          poll = null;
        }
      };
    },
    async afterDelete() {
      // The write-ahead log folded back into the file: nothing deleted survives in it.
      if (db.open && !db.inTransaction) db.pragma('wal_checkpoint(TRUNCATE)');
    },
    async close() {
      if (poll) clearInterval(poll);
      poll = null;
      others.clear();
      // Closed at once when no transaction runs or waits, so that a caller who does not wait finds it closed.
      if (waiting > 0) await queue;
      if (db.open) {
        db.close();
        if (--lane.users === 0 && lanes.get(path) === lane) lanes.delete(path);
      }
    },
  };
}
