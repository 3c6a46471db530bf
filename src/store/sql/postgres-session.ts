/**
 * PostgreSQL's transactions: a connection of the pool (seen to work in the engine's schema), a
 * change in a REPEATABLE READ transaction (one snapshot; a row changed meanwhile by another keeper
 * fails it), run again from its start when it meets another (with jitter); a read in a REPEATABLE
 * READ READ ONLY one, or in none when it is one statement. A connection that failed is dropped,
 * never lent again. Nothing here knows what a transaction does.
 */
import type { Pool, PoolClient } from 'pg';
import { TransactionConflict } from '../store.js';
import type { Sql, TxOptions } from './port.js';
import type { Say } from './pg-private.js';
import { PgSql, conflicting, quiet, sleep, unavailable, unreachable } from './postgres-statements.js';

/** Tries of a transaction that conflicts with others before it gives up (its asker is told to ask again). */
const RETRIES = 25;

export interface SessionDeps {
  pool: Pool;
  /** How a statement is sent (pg-private.ts). */
  statement: Say;
  /** An organisation's schema every connection must be in; none: the database's own. */
  schema: string | undefined;
  /** Where the database is, as it may be shown. */
  where: string;
}

export interface Sessions {
  /** A connection of the pool in the engine's schema; the caller releases it (broken: `release(true)`). */
  connect(): Promise<PoolClient>;
  /** Runs `fn` in one outermost transaction (port.ts's Engine.begin). */
  begin<T>(fn: (q: Sql) => Promise<T>, tx: TxOptions, committed: (q: PgSql) => void): Promise<T>;
}

export function createSessions({ pool, statement, schema, where }: SessionDeps): Sessions {
  const named = new WeakMap<object, Set<string>>();
  const namesOf = (client: object): Set<string> => {
    let names = named.get(client);
    if (!names) named.set(client, (names = new Set()));
    return names;
  };

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

  async function begin<T>(fn: (q: Sql) => Promise<T>, tx: TxOptions, committed: (q: PgSql) => void): Promise<T> {
    if (tx.single && tx.mode === 'read') {
      const client = await connect();
      let broken = false;
      try {
        const q = new PgSql(client, namesOf(client), statement);
        const result = await fn(q);
        await q.checked();
        return result;
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
        await q.checked();
        // A read's commit ends a snapshot and changes nothing: it is sent, not waited for (the
        // connection's next user is answered after it, in order). A change's is waited for.
        if (q.opened && tx.mode === 'read') void quiet(q.send('COMMIT', undefined, false));
        else if (q.opened) await q.send('COMMIT', undefined, false);
        committed(q);
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

  return { connect, begin };
}
