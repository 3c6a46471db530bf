/**
 * The two engines' schemas hold the same binder: a store made on SQLite and one made on
 * PostgreSQL by this Binder have the same tables, the same columns in each, the same primary
 * keys and unique columns, and the same indexes by name. What one engine keeps for itself alone
 * is named here with why; anything else that differs fails, so a migration written for one engine
 * and forgotten for the other is found.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStore } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';

const missing = postgresMissing();

/** The search index is each engine's own (FTS5's tables; a tsvector's row), and so is its upkeep. */
const SQLITE_ONLY = /^(record_text|note_text)(_data|_idx|_docsize|_config)?$/;
/** PostgreSQL's schema version is a table (SQLite's is user_version); a delete's rewrite owed is kept in one. */
const POSTGRES_ONLY = new Set(['binder_schema', 'rewrite_owed', 'record_text']);
/** Facts of one engine alone, with why. */
const FACTS_SQLITE_ONLY = new Set([
  // SQLite keeps one row of counts a key; PostgreSQL keeps rows of changes, folded now and then
  // (postgres-upkeep.ts), so that two keepers' changes never wait on one row.
  'key record_counts(list,archived,state,approved)',
  // A list's ready records by a choice named priority: PostgreSQL reads them by records_open
  // (ready.ts asks it as it would be indexed, so that an index made there is used).
  'index records.records_priority',
  'index records.records_priorite',
]);
const FACTS_POSTGRES_ONLY = new Set([
  // The counts' rows of changes, by list (see above).
  'index record_counts.record_counts_by_list',
]);

/** What a schema holds, each line a fact: `table t`, `column t.c`, `key t(a,b)`, `unique t(a)`, `index t.name`. */
type Facts = Set<string>;

function sqliteFacts(dir: string): Facts {
  const store = openStore(dir);
  const facts: Facts = new Set();
  try {
    const db = store.db;
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    for (const table of tables.filter((t) => !SQLITE_ONLY.test(t))) {
      facts.add(`table ${table}`);
      const columns = db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; pk: number }[];
      for (const c of columns) facts.add(`column ${table}.${c.name}`);
      const key = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      if (key.length) facts.add(`key ${table}(${key.join(',')})`);
      for (const index of db.prepare(`PRAGMA index_list("${table}")`).all() as { name: string; unique: number; origin: string }[]) {
        if (index.origin === 'pk') continue;
        if (index.origin === 'u') {
          const cols = (db.prepare(`PRAGMA index_info("${index.name}")`).all() as { name: string }[]).map((c) => c.name);
          facts.add(`unique ${table}(${cols.join(',')})`);
        } else {
          facts.add(`index ${table}.${index.name}${index.unique ? ' unique' : ''}`);
        }
      }
    }
  } finally {
    store.close();
  }
  return facts;
}

async function postgresFacts(url: string): Promise<Facts> {
  const store = await openPostgresStore(url);
  const facts: Facts = new Set();
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query<{ t: string; c: string }>(`SELECT table_name AS t, column_name AS c FROM information_schema.columns
      WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`);
    for (const { t, c } of columns.rows) {
      if (POSTGRES_ONLY.has(t)) continue;
      facts.add(`table ${t}`);
      facts.add(`column ${t}.${c}`);
    }
    const indexes = await client.query<{ t: string; name: string; isPrimary: boolean; isUnique: boolean; constraint: boolean; cols: string[] }>(`
      SELECT t.relname AS t, i.relname AS name, x.indisprimary AS "isPrimary", x.indisunique AS "isUnique",
        EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid) AS constraint,
        array(SELECT pg_get_indexdef(x.indexrelid, n, true) FROM generate_series(1, x.indnkeyatts) n) AS cols
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      WHERE t.relnamespace = current_schema()::regnamespace ORDER BY t.relname, i.relname`);
    for (const { t, name, isPrimary, isUnique, constraint, cols } of indexes.rows) {
      if (POSTGRES_ONLY.has(t)) continue;
      if (isPrimary) facts.add(`key ${t}(${cols.join(',')})`);
      else if (constraint) facts.add(`unique ${t}(${cols.join(',')})`);
      else facts.add(`index ${t}.${name}${isUnique ? ' unique' : ''}`);
    }
  } finally {
    await client.end();
    await store.close();
  }
  return facts;
}

test('SQLite and PostgreSQL have the same tables, columns, keys and indexes', missing ? { skip: missing } : {}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'binder-schemas-'));
  const c = await cluster();
  const url = c.database();
  try {
    const lite = sqliteFacts(dir);
    const server = await postgresFacts(url);
    assert.ok(lite.has('table records') && lite.has('column records.title') && lite.has('key records(id)'), 'the facts are read');
    assert.ok(server.has('table records') && server.has('column records.title') && server.has('key records(id)'), 'the facts are read');
    const onlyLite = [...lite].filter((f) => !server.has(f) && !FACTS_SQLITE_ONLY.has(f));
    const onlyServer = [...server].filter((f) => !lite.has(f) && !FACTS_POSTGRES_ONLY.has(f));
    // What is said to be one engine's alone is so: an allowance left after its cause went fails too.
    for (const f of FACTS_SQLITE_ONLY) assert.ok(lite.has(f) && !server.has(f), `${f}: SQLite's alone`);
    for (const f of FACTS_POSTGRES_ONLY) assert.ok(server.has(f) && !lite.has(f), `${f}: PostgreSQL's alone`);
    assert.deepEqual({ onlyLite, onlyServer }, { onlyLite: [], onlyServer: [] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    dropDatabase(c, url);
  }
});
