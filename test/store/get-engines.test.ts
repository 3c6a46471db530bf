/**
 * A record's page read the two ways: PostgreSQL reads it in one statement (its notes, history,
 * attachments and links as columns of the record's own: Dialect.rowsAsJson), SQLite statement by
 * statement. The same binder made on both, at the same times, gives the same `get` for every
 * record, asker and page: notes and history past a page and within it, attachments, needs both
 * ways (one in a list the agent is not given, counted and not named), a parent and children.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStore, type RecordPage, type Store } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { ann, bot } from './helpers.js';

/** Makes the same binder in `store`, at the times `clock` says. */
async function fill(store: Store, clock: { ms: number }): Promise<number[]> {
  const tick = (): void => {
    clock.ms += 1000;
  };
  await store.createList({ template: 'tasks' }, ann);
  await store.createList({ template: 'blank' }, ann);
  await store.createList({ template: 'batches' }, ann);
  await store.grant('tasks', 'agent:bot', 'write', ann);
  await store.grant('blank', 'agent:bot', 'read', ann);
  const ids: number[] = [];
  /** The records the agent may change (the others it reads, or is not given). */
  const agents = new Set<number>();
  for (let i = 0; i < 8; i++) {
    tick();
    const theirs = i % 3 !== 2;
    const id = (await store.add(theirs ? 'tasks' : 'blank', { title: `record ${i}` }, theirs && i % 2 ? bot : ann)).id;
    ids.push(id);
    if (theirs) agents.add(id);
  }
  const hidden = (await store.add('batches', { title: 'not the agent\'s' }, ann)).id;
  ids.push(hidden);
  for (const [at, id] of ids.entries()) {
    for (let n = 0; n < at * 2; n++) {
      tick();
      await store.note(id, `note ${n} on ${id}`, n % 2 && agents.has(id) ? bot : ann);
    }
    for (let e = 0; e < at % 4; e++) {
      tick();
      await store.edit(id, { title: `record ${at}, take ${e}` }, ann);
    }
    if (at % 3 === 0) {
      tick();
      await store.attach(id, { kind: 'link', ref: `https://example.org/${at}`, title: `link ${at}` }, ann);
      await store.attach(id, { kind: 'branch', ref: `work-${at}` }, ann);
    }
  }
  tick();
  await store.needs(ids[0]!, [ids[1]!, ids[2]!, hidden], ann);
  await store.needs(ids[3]!, [ids[0]!], ann);
  await store.edit(ids[4]!, { parent: ids[0]! }, ann);
  await store.edit(ids[5]!, { parent: ids[0]! }, ann);
  await store.move(ids[5]!, 'Done', ann);
  // One need done, two not (one of them in a list the agent is not given): blocked by two.
  await store.move(ids[2]!, 'Done', ann);
  return ids;
}

const PAGES: RecordPage[] = [{}, { notes: 3, history: 2 }, { notes: 0, history: 0 }, { notes: 1000, history: 1000 },
  { notes: 2000, history: 5000 }, { offset: 2, notes: 3 }, { offset: 40 }, { history: 200 }, { notes: 11, history: 51 }];

test('get: a record\'s page read in one statement (PostgreSQL) is the page read statement by statement (SQLite)',
  { skip: postgresMissing() ?? false }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'binder-get-'));
    const c = await cluster();
    const url = c.database();
    const sqliteClock = { ms: Date.UTC(2026, 0, 15, 12, 0) };
    const postgresClock = { ms: sqliteClock.ms };
    const sqlite = await openStore(join(dir, 'store'), { now: () => sqliteClock.ms });
    const postgres = await openPostgresStore(url, { now: () => postgresClock.ms });
    try {
      const ids = await fill(sqlite, sqliteClock);
      assert.deepEqual(await fill(postgres, postgresClock), ids);
      let compared = 0;
      for (const id of ids) {
        for (const page of PAGES) {
          for (const who of [ann, bot]) {
            const one = await sqlite.get(id, who, page).catch((error: Error) => error.message);
            const other = await postgres.get(id, who, page).catch((error: Error) => error.message);
            assert.deepEqual(other, one, `#${id} as ${who.name}, page ${JSON.stringify(page)}`);
            compared++;
          }
        }
      }
      // Not vacuous: the pages held what they are about.
      const first = await postgres.get(ids[0]!, bot);
      assert.equal(first.hiddenNeeds, 1);
      assert.equal(first.needs?.length, 2);
      assert.equal(first.record.blocked, 2);
      assert.equal(first.children?.length, 2);
      assert.equal(first.record.attached.length, 2);
      assert.equal((await postgres.get(ids[4]!, ann)).parent?.id, ids[0]);
      assert.equal((await postgres.get(ids[7]!, ann, { notes: 3 })).record.notes.length, 3);
      assert.equal(compared, ids.length * PAGES.length * 2);
    } finally {
      await sqlite.close();
      await postgres.close();
      dropDatabase(c, url);
      rmSync(dir, { recursive: true, force: true });
    }
  });
