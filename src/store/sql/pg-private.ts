/**
 * The one place Binder touches `pg`'s private parts (pinned in package.json; their use is checked
 * by test/store/pg-private.test.ts, which fails when a new version moves them): the connection's
 * socket, corked so that what a transaction asks at once goes in one write; and the classes pg
 * reads a statement's rows with, given a statement's name and kept descriptions. Anything here
 * that is not found as relied on is done pg's public way instead, slower, never wrongly.
 */
import type { Client, PoolClient, QueryResult } from 'pg';

type Pg = typeof import('pg').default;

/** Sends one statement on a connection; answered in order with the others sent on it. */
export type Say = (client: PoolClient | Client, text: string, values: unknown[], name: string | undefined, array: boolean) => Promise<QueryResult>;

/** The socket under a connection, where it can be corked (pg's `connection.stream`). */
export interface Corkable { cork(): void; uncork(): void }

export function socketOf(client: PoolClient | Client): Corkable | undefined {
  const stream = (client as unknown as { connection?: { stream?: Partial<Corkable> } }).connection?.stream;
  return typeof stream?.cork === 'function' && typeof stream.uncork === 'function' ? stream as Corkable : undefined;
}

/** A column as pg describes it. */
interface Field { name: string; dataTypeID: number; format?: string }
/** pg's Result, as far as it is used here. */
interface RowsInside { fields: Field[]; _parsers?: unknown[]; _prebuiltEmptyResultObject: object | null; addFields(fields: Field[]): void }
/** pg's Query, as far as it is used here. */
interface QueryInside { name?: string; _rowMode?: string; _result: object; _results: object }

/** The class pg reads a statement's rows with (`Result`, not exported by pg). */
export function rowsClass(pg: Pg): (new (rowMode?: string) => RowsInside) | undefined {
  const made = (new pg.Query('') as unknown as Partial<QueryInside>)._result;
  const Rows = made?.constructor as (new (rowMode?: string) => RowsInside) | undefined;
  return typeof Rows === 'function' && typeof Rows.prototype.addFields === 'function' ? Rows : undefined;
}

/**
 * How statements are sent on this pg. A prepared statement's rows are described the same each time
 * it runs: how each column is read is worked out once per statement (pg works it out again for
 * every answer, ~10 % of a change's work in the keeper, measured), and used while the description
 * is the same. A statement is pg's own Query, answered through its callback: given a config
 * object, pg copies it property by property and chains a promise of its own, which cost more than
 * the statement's bytes (~9 % of a change's work in the keeper, measured).
 */
export function statementSender(pg: Pg): Say {
  const Rows = rowsClass(pg);
  if (!Rows) {
    // Not as relied on: pg's public way (the same answers, more work per statement).
    return (client, text, values, name, array) =>
      client.query({ text, values, ...(name ? { name } : {}), ...(array ? { rowMode: 'array' } : {}) }) as Promise<QueryResult>;
  }
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
  return (client, text, values, name, array) => new Promise((resolve, reject) => {
    const query = new pg.Query(text, values, (error, result) => (error ? reject(error) : resolve(result as unknown as QueryResult)));
    const inside = query as unknown as QueryInside;
    if (name) inside.name = name;
    if (array) inside._rowMode = 'array';
    // What pg's constructor made of the text alone, made again knowing the statement and its rows' shape.
    if (name || array) inside._results = inside._result = name ? new DescribedRows(inside._rowMode, name) : new Rows('array');
    void client.query(query as unknown as Parameters<PoolClient['query']>[0]);
  });
}
