/**
 * An organisation's binder on PostgreSQL is its schema whatever the database's address says: a
 * URL that carries connection options of its own (`?options=-c …`, as operators add a statement
 * timeout) must neither drop the schema's search_path nor put two organisations in one schema.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openBinders } from '../../src/keeper/binders.js';
import type { Who } from '../../src/store/index.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';

const root: Who = { id: 'person:root', kind: 'person', name: 'root' };
const missing = postgresMissing();

test('a database URL with options of its own keeps each organisation in its own schema', missing ? { skip: missing } : {}, async () => {
  const c = await cluster();
  const url = c.database();
  const withOptions = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c statement_timeout=60000')}`;
  const binders = await openBinders({ kind: 'postgres', url: withOptions }, { start: false, log: () => {} });
  try {
    const acme = await binders.of('acme.test');
    const beta = await binders.of('beta.test');
    await acme.store.createList({ template: 'tasks', title: 'Acme only' }, root);
    assert.deepEqual((await beta.store.lists(root)).map((l) => l.title), [], 'beta sees nothing of acme');
    assert.deepEqual((await binders.service.lists(root)).map((l) => l.title), [], 'the service store holds no organisation\'s lists');
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const rows = (await client.query('SELECT title FROM org_acme_test.lists')).rows as { title: string }[];
      assert.deepEqual(rows.map((r) => r.title), ['Acme only'], 'acme\'s list is in acme\'s schema');
    } finally {
      await client.end();
    }
  } finally {
    await binders.close();
    dropDatabase(c, url);
  }
});
