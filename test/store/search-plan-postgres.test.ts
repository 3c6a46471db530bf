/**
 * PostgreSQL plans a search by the statistics of the tables it joins. A binder has few lists, and
 * autovacuum analyses a table after 50 changes by default: its lists were never analysed, and the
 * planner, guessing, matched every record against the words one by one (230 ms at 100,000
 * records). Skipped, saying why, where PostgreSQL is absent.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { postgresMissing, startCluster } from '../helpers/postgres.js';
import { ann, bot } from './helpers.js';

test('PostgreSQL: a binder\'s lists and grants are analysed at their first change, and a search then uses the index of words', { skip: postgresMissing() ?? false, timeout: 120_000 }, async () => {
  const c = await startCluster();
  try {
    // autovacuum looks every second here (every minute by default): the test waits for it.
    c.psql('postgres', 'ALTER SYSTEM SET autovacuum_naptime = 1');
    c.psql('postgres', 'SELECT pg_reload_conf()');
    const url = c.database('plan');
    const store = await openPostgresStore(url);
    try {
      await store.createList({ template: 'tasks', title: 'Work' }, ann);
      await store.grant('work', 'bot', 'write', ann);
      await store.transaction(async (tx) => {
        for (let i = 0; i < 3000; i++) await tx.add('work', { title: `record ${i}${i % 100 === 7 ? ' zephyrine' : ''}` }, bot);
      });
      const analysed = (): string => c.psql('plan', `SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_stat_user_tables
        WHERE relname IN ('lists', 'access', 'records') AND last_autoanalyze IS NOT NULL`).trim();
      const until = Date.now() + 60_000;
      while (analysed() !== 'access,lists,records' && Date.now() < until) await sleep(500);
      assert.equal(analysed(), 'access,lists,records');
      // A join of the search's shape: the words matched through their index, not record by record.
      assert.equal((await store.search('zephyrine', bot)).length, 30);
      const plan = c.psql('plan', `EXPLAIN SELECT r.id FROM record_text t JOIN records r ON r.id = t.record JOIN lists l ON l.id = r.list
        WHERE t.config = 'binder_simple'::regconfig AND t.tsv @@ to_tsquery('binder_simple', 'zephyrine:*') AND r.archived = 0 AND l.archived = 0`);
      assert.match(plan, /record_text_words/, plan);
    } finally {
      await store.close();
    }
  } finally {
    await c.stop();
  }
});
