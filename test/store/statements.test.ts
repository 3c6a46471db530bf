/** The store's kept statements: one compiled statement per SQL text, never left in its last caller's shape. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { keepingStatements } from '../../src/store/statements.js';

test('a kept statement is the same object, and comes back in its plain shape each time', () => {
  const raw = new Database(':memory:');
  try {
    const db = keepingStatements(raw);
    db.exec('CREATE TABLE t (a INTEGER, b TEXT)');
    db.prepare('INSERT INTO t VALUES (?, ?)').run(1, 'one');
    const first = db.prepare('SELECT a, b FROM t');
    assert.equal(first.pluck().get(), 1);
    const again = db.prepare('SELECT a, b FROM t');
    assert.equal(again, first, 'compiled once');
    assert.deepEqual(again.get(), { a: 1, b: 'one' }, 'not plucked as the last caller left it');
    assert.deepEqual(db.prepare('SELECT a, b FROM t').raw().get(), [1, 'one']);
    assert.deepEqual(db.prepare('SELECT a, b FROM t').get(), { a: 1, b: 'one' });
    // Everything else is the connection's own.
    assert.equal(db.pragma('user_version', { simple: true }), 0);
    assert.equal(db.transaction(() => db.inTransaction)(), true);
    assert.equal(db.open, true);
  } finally {
    raw.close();
  }
});
