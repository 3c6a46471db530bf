/**
 * PostgreSQL's pipelined port: changes sent without being waited for (`later`), the BEGIN and the
 * savepoints said with the next statement. A change that fails is the failure of the statement
 * after it (in its own words, not "the transaction is aborted") or of the commit, and nothing of
 * the transaction is kept; a savepoint whose scope fails undoes what it held whether or not it
 * was sent yet; what a failed change was followed by never reaches the table.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { postgresEngine, type PostgresEngine } from '../../src/store/sql/postgres.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';

const missing = postgresMissing();
class Boom extends Error {}

async function withEngine(fn: (engine: PostgresEngine, rows: () => Promise<string[]>) => Promise<void>): Promise<void> {
  const c = await cluster();
  const url = c.database();
  const engine = await postgresEngine({ url });
  try {
    await engine.begin((q) => q.run('CREATE TABLE piped (id int PRIMARY KEY, v text NOT NULL)'), { mode: 'write' });
    const rows = async (): Promise<string[]> =>
      engine.begin((q) => q.column<string>('SELECT v FROM piped ORDER BY id'), { mode: 'read' });
    await fn(engine, rows);
  } finally {
    await engine.close();
    dropDatabase(c, url);
  }
}

test('a change sent without waiting fails the next statement, in its own words, and nothing is kept', missing ? { skip: missing } : {}, async () => {
  await withEngine(async (engine, rows) => {
    await assert.rejects(engine.begin(async (q) => {
      q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [1, 'first']);
      q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [2, null]);
      q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [3, 'after the failure']);
      await q.value('SELECT count(*) FROM piped');
    }, { mode: 'write' }), (error: Error) => {
      assert.match(error.message, /null value in column "v"/);
      assert.doesNotMatch(error.message, /current transaction is aborted/);
      return true;
    });
    assert.deepEqual(await rows(), []);
  });
});

test('statements asked at once after a change that fails: each fails in its words, not "the transaction is aborted"', missing ? { skip: missing } : {}, async () => {
  await withEngine(async (engine, rows) => {
    // The first statement sent carries the failing change; those sent beside it are answered
    // "aborted" by the server, and must not say so: the store tells a conflict (run it again) by
    // these words, and "aborted" would have failed a whole batch of asks instead.
    const failures: string[] = [];
    await assert.rejects(engine.begin(async (q) => {
      q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [1, null]);
      const asked = [q.value('SELECT 1'), q.value('SELECT 2'), q.value('SELECT 3')];
      for (const one of asked) await one.catch((error: Error) => { failures.push(error.message); });
      await Promise.all(asked);
    }, { mode: 'write' }), (error: Error) => {
      assert.match(error.message, /null value in column "v"/);
      return true;
    });
    assert.equal(failures.length, 3);
    for (const failure of failures) {
      assert.match(failure, /null value in column "v"/);
      assert.doesNotMatch(failure, /current transaction is aborted/);
    }
    assert.deepEqual(await rows(), []);
    // A savepoint rolled back to makes the transaction sound again: a later failure is its own.
    await engine.begin(async (q) => {
      await assert.rejects(engine.savepoint(q, async () => {
        await q.run('INSERT INTO piped (id, v) VALUES (?, ?)', [2, null]);
      }), /null value/);
      await q.run('INSERT INTO piped (id, v) VALUES (?, ?)', [3, 'kept']);
    }, { mode: 'write' });
    assert.deepEqual(await rows(), ['kept']);
  });
});

test('one new statement asked twice at once after a failure: both fail in its words, and the statement works after', missing ? { skip: missing } : {}, async () => {
  // The client library prepares a named statement once per connection: the second ask of it is
  // sent as prepared. The server, its transaction aborted, prepared nothing, and answers that ask
  // "prepared statement does not exist" — not a conflict, so a keeper answered 500 where the
  // failure before it was one (seen while its database restarted under load).
  await withEngine(async (engine) => {
    const fresh = 'SELECT count(*) AS n FROM piped WHERE v <> ? AND id > 0';
    const failures: string[] = [];
    await assert.rejects(engine.begin(async (q) => {
      q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [1, null]);
      const asked = [q.value(fresh, ['x']), q.value(fresh, ['y'])];
      for (const one of asked) await one.catch((error: Error) => { failures.push(error.message); });
      await Promise.all(asked);
    }, { mode: 'write' }), /null value in column "v"/);
    assert.equal(failures.length, 2);
    for (const failure of failures) assert.match(failure, /null value in column "v"/);
    for (let i = 0; i < 4; i++) {
      const n = await engine.begin((q) => q.value<string>(fresh, ['x']), { mode: 'write' });
      assert.equal(Number(n), 0);
    }
  });
});

test('a change sent without waiting, last before the commit, fails the commit: nothing is kept', missing ? { skip: missing } : {}, async () => {
  await withEngine(async (engine, rows) => {
    await assert.rejects(engine.begin(async (q) => {
      await q.run('INSERT INTO piped (id, v) VALUES (?, ?)', [1, 'first']);
      q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [2, null]);
    }, { mode: 'write' }), /null value in column "v"/);
    assert.deepEqual(await rows(), []);
    // And one that succeeds is kept, waited for by the commit alone.
    await engine.begin(async (q) => { q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [1, 'kept']); }, { mode: 'write' });
    assert.deepEqual(await rows(), ['kept']);
  });
});

test('a savepoint whose scope fails undoes what it held, sent or not; the transaction goes on', missing ? { skip: missing } : {}, async () => {
  await withEngine(async (engine, rows) => {
    await engine.begin(async (q) => {
      q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [1, 'before']);
      // Nothing of it sent when it fails: dropped before it reaches the server.
      await assert.rejects(engine.savepoint(q, async () => {
        q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [2, 'never sent']);
        throw new Boom();
      }), Boom);
      // Sent, then failed: rolled back to.
      await assert.rejects(engine.savepoint(q, async () => {
        q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [3, 'sent, undone']);
        await q.value('SELECT count(*) FROM piped');
        throw new Boom();
      }), Boom);
      // A statement failing inside it: the transaction is usable again after it.
      await assert.rejects(engine.savepoint(q, async () => {
        q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [4, 'undone with the failure']);
        await q.run('INSERT INTO piped (id, v) VALUES (?, ?)', [5, null]);
      }), /null value/);
      await engine.savepoint(q, async () => {
        await engine.savepoint(q, async () => { q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [6, 'inner kept']); });
      });
      // Two said as one, nothing of them sent; the inner fails, the outer goes on, then fails too.
      await assert.rejects(engine.savepoint(q, async () => {
        await assert.rejects(engine.savepoint(q, async () => {
          q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [7, 'inner, never sent']);
          throw new Boom();
        }), Boom);
        await q.run('INSERT INTO piped (id, v) VALUES (?, ?)', [8, 'outer, undone']);
        throw new Boom();
      }), Boom);
      assert.equal(await q.value('SELECT count(*) FROM piped'), 2);
    }, { mode: 'write' });
    assert.deepEqual(await rows(), ['before', 'inner kept']);
  });
});

test('a read sent ahead whose check fails: a change that waited for nothing is not committed, a swallowed failure neither, nothing more is sent', missing ? { skip: missing } : {}, async () => {
  await withEngine(async (engine, rows) => {
    const lapsed = (): never => { throw new Boom('lapsed'); };
    // Only changes not waited for: the look would otherwise go with the COMMIT in one write.
    await assert.rejects(engine.begin(async (q) => {
      q.ahead!('SELECT 1 AS one', [], lapsed);
      q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [1, 'sent with the look']);
    }, { mode: 'write' }), Boom);
    // A rule that swallows the failure and goes on: the next statement fails, and the commit never comes.
    await assert.rejects(engine.begin(async (q) => {
      q.ahead!('SELECT 1 AS one', [], lapsed);
      await q.run('INSERT INTO piped (id, v) VALUES (?, ?)', [2, 'with the look']).catch(() => undefined);
      await q.run('INSERT INTO piped (id, v) VALUES (?, ?)', [3, 'after it']);
    }, { mode: 'write' }), Boom);
    assert.deepEqual(await rows(), []);
    // A check that passes: the look's row reaches it, and the change is kept.
    let seen: unknown;
    await engine.begin(async (q) => {
      q.ahead!<{ one: number }>('SELECT 1 AS one', [], (row) => { seen = row?.one; });
      q.later('INSERT INTO piped (id, v) VALUES (?, ?)', [4, 'checked']);
    }, { mode: 'write' });
    assert.equal(seen, 1);
    assert.deepEqual(await rows(), ['checked']);
  });
});
