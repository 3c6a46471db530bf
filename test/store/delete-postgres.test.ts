/**
 * Deleting is for good on PostgreSQL too: once a record (or a list) is deleted, no byte of its
 * title, notes or field values is left in any file of the database — tables, their TOAST, their
 * indexes — once the server has written its pages out (CHECKPOINT). What the write-ahead log and
 * the backups keep is said in docs/team.md. Skipped, saying why, where PostgreSQL is absent.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres-store.js';
import { postgresMissing, startCluster, type Cluster } from '../helpers/postgres.js';
import { ann, bot } from './helpers.js';

const WORDS = ['Zanzibarquux', 'Plovdivrexel', 'Quibblethorpe'];
const missing = postgresMissing();

/** Every word of WORDS found in the database's files, in any case, with the file it is in. */
function bytesLeft(c: Cluster, db: string): string[] {
  const oid = c.psql(db, 'SELECT oid FROM pg_database WHERE datname = current_database()').trim();
  const base = join(c.dataDir!, 'base', oid);
  const found: string[] = [];
  for (const name of readdirSync(base)) {
    const path = join(base, name);
    if (!statSync(path).isFile()) continue;
    const bytes = readFileSync(path);
    for (const word of WORDS) {
      for (const form of [word, word.toLowerCase(), word.toUpperCase()]) {
        if (bytes.includes(Buffer.from(form, 'utf8'))) found.push(`${form} in ${name}`);
      }
    }
  }
  return found;
}

async function fill(s: PostgresStore): Promise<number> {
  await s.createList({ template: 'tasks', title: 'Work' }, ann);
  await s.grant('work', 'bot', 'write', ann);
  for (let i = 0; i < 30; i++) await s.add('work', { title: `neighbour ${i} plain words`, note: `note ${i}` }, bot);
  // A note long enough to be kept out of line (TOAST), beside the short ones.
  // Words that do not compress (a repeated phrase would, and be kept in line, compressed).
  const noise = Array.from({ length: 900 }, (_, i) => ((i * 2654435761) % 4294967296).toString(36)).join(' ');
  const long = `${WORDS[1]} ${noise}`.slice(0, 7900);
  const r = await s.add('work', { title: `Secret ${WORDS[0]} plan`, note: long, fields: { branch: `feature/${WORDS[2]}` } }, bot);
  await s.note(r.id, `again ${WORDS[1]} and ${WORDS[0]}`, bot);
  await s.edit(r.id, { title: `Secret ${WORDS[0]} plan, revised` }, ann);
  await s.attach(r.id, { kind: 'link', ref: `https://example.com/${WORDS[2]}`, title: WORDS[0] }, bot);
  for (let i = 30; i < 60; i++) await s.add('work', { title: `neighbour ${i} plain words`, note: `note ${i}` }, bot);
  return r.id;
}

test('PostgreSQL: a deleted record leaves no byte of its text in the tables, their TOAST nor their indexes', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const c = await startCluster();
  const url = c.database();
  const db = new URL(url).pathname.slice(1);
  const s = await openPostgresStore(url);
  t.after(async () => {
    await s.close();
    await c.stop();
  });
  const id = await fill(s);
  c.psql(db, 'CHECKPOINT');
  assert.ok(bytesLeft(c, db).length > 0, 'the words are in the files before the delete');
  assert.equal((await s.search(WORDS[0]!, ann)).length, 1);

  assert.deepEqual(await s.delete(`#${id}`, ann), { id, list: 'work' });
  c.psql(db, 'CHECKPOINT');
  assert.deepEqual(bytesLeft(c, db), []);
  assert.equal((await s.search(WORDS[0]!, ann)).length, 0);
  assert.equal((await s.search('neighbour', ann, { limit: 500 })).length, 60, 'the others are still found');

  // A list deleted whole: the same.
  await s.createList({ template: 'tasks', title: 'Other' }, ann);
  await s.add('other', { title: `Another ${WORDS[0]}`, note: WORDS[1] }, ann);
  c.psql(db, 'CHECKPOINT');
  assert.ok(bytesLeft(c, db).length > 0);
  await s.deleteList('Other', ann);
  c.psql(db, 'CHECKPOINT');
  assert.deepEqual(bytesLeft(c, db), []);
});
