/**
 * What the PostgreSQL engine relies on in `pg`'s private parts (src/store/sql/pg-private.ts), on
 * the pinned version, against a real server: a connection's socket can be corked; a Query takes
 * its statement's name, row mode and result object as fields; the client gives its type parsers to
 * that result; pg's Result reads rows through `addFields`, `_parsers` and
 * `_prebuiltEmptyResultObject`. A version that moves any of these fails here, not in the field
 * (where the engine would fall back to pg's public way, slower).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowsClass, socketOf, statementSender } from '../../src/store/sql/pg-private.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';

const missing = postgresMissing();

test("pg's private parts are where the engine looks for them", missing ? { skip: missing } : {}, async () => {
  const pg = (await import('pg')).default;
  const Rows = rowsClass(pg);
  assert.ok(Rows, "pg's Result is reachable through a Query's _result");
  const made = new Rows('array');
  for (const field of ['fields', '_parsers', '_prebuiltEmptyResultObject'] as const) assert.ok(field in made, `pg's Result has ${field}`);
  const query = new pg.Query('SELECT 1') as unknown as Record<string, unknown>;
  for (const field of ['name', '_rowMode', '_result', '_results']) assert.ok(field in query, `pg's Query keeps ${field}`);

  const c = await cluster();
  const url = c.database();
  // As the engine reads them: int8 as a number.
  const types = { getTypeParser: ((oid: number, format?: string) => (oid === 20 ? Number : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser };
  const client = new pg.Client({ connectionString: url, types });
  await client.connect();
  try {
    const socket = socketOf(client);
    assert.ok(socket, "a connection's socket can be corked");
    const say = statementSender(pg);
    // Named twice (the second time its description is the one kept), then in array mode, then neither.
    for (let i = 0; i < 2; i++) {
      const rows = await say(client, 'SELECT $1::int8 AS n, $2::text AS t', [41 + i, 'x'], 'bpgprivate', false);
      assert.deepEqual(rows.rows, [{ n: 41 + i, t: 'x' }], "the client's type parsers read a named statement's rows");
      assert.deepEqual(rows.fields.map((f) => f.name), ['n', 't']);
    }
    const empty = await say(client, 'SELECT $1::int8 AS n WHERE false', [1], 'bpgprivateempty', false);
    assert.deepEqual(empty.rows, []);
    assert.deepEqual((await say(client, 'SELECT $1::int8, $2::text', [7, 'y'], undefined, true)).rows, [[7, 'y']], 'array mode');
    assert.deepEqual((await say(client, 'SELECT $1::int8 AS n', [8], 'bpgprivatearray', true)).rows, [[8]], 'named, in array mode');
    assert.deepEqual((await say(client, 'SELECT 9::int8 AS n', [], undefined, false)).rows, [{ n: 9 }]);
    // Corked, two statements go in one write and are both answered once uncorked.
    socket.cork();
    const both = Promise.all([say(client, 'SELECT 1 AS a', [], undefined, false), say(client, 'SELECT 2 AS b', [], undefined, false)]);
    socket.uncork();
    assert.deepEqual((await both).map((r) => r.rows[0]), [{ a: 1 }, { b: 2 }]);
  } finally {
    await client.end();
    dropDatabase(c, url);
  }
});
