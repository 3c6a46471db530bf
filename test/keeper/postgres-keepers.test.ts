/**
 * Several keepers on one PostgreSQL database, in this process: take --next through both gives a
 * record to one asker only; an Idempotency-Key asked of both is done once; lapsed claims are
 * lapsed once; a change through one keeper wakes the other's held wait; a folder is pumped by
 * one keeper at a time, and the other takes it over when the first is gone. Skipped, saying why,
 * where PostgreSQL is not installed.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { randomUUID } from 'node:crypto';
import { createKeeper, personWho, agentWho } from '../../src/keeper/keeper.js';
import type { Keeper } from '../../src/keeper/keeper-types.js';
import { ANSWERS_FILE, ASKS_FILE } from '../../src/keeper/protocol.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres-store.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { tempDir, until } from '../helpers/temp.js';

const missing = postgresMissing();
const ann = personWho('Ann');
const bot = agentWho('Bot');

/** A database of the test's own, and `n` stores on it (a keeper each), closed at the end. */
async function keepers(t: TestContext, n: number, now?: () => number): Promise<{ url: string; stores: PostgresStore[]; keepers: Keeper[] }> {
  const c = await cluster();
  const url = c.database();
  const stores: PostgresStore[] = [];
  const made: Keeper[] = [];
  for (let i = 0; i < n; i++) {
    const store = await openPostgresStore(url, now ? { now } : {});
    stores.push(store);
    made.push(createKeeper({ store, sides: [], log: () => {}, ...(now ? { now } : {}) }));
  }
  t.after(async () => {
    for (const k of made) await k.close();
    for (const s of stores) await s.close();
    dropDatabase(c, url);
  });
  return { url, stores, keepers: made };
}

test('two keepers: take --next through both gives each record to one asker only', { skip: missing ?? false, timeout: 120_000 }, async (t) => {
  const { stores, keepers: [a, b] } = await keepers(t, 2);
  const s = stores[0]!;
  await s.createList({ template: 'tasks' }, ann);
  await s.grant('tasks', 'Bot', 'write', ann);
  const RECORDS = 40;
  for (let i = 0; i < RECORDS; i++) await s.add('tasks', { title: `r${i}` }, ann);
  const taken: number[] = [];
  const refused: string[] = [];
  // Eight askers, half through each keeper, each taking until nothing is ready.
  await Promise.all(Array.from({ length: 8 }, async (_, i) => {
    const keeper = i % 2 ? a! : b!;
    const who = agentWho(`Bot`);
    for (;;) {
      const answer = await keeper.ask(who, 'take', { next: 'tasks' });
      if (!answer.ok) {
        if (!/Nothing in Tasks is ready/.test(answer.text)) refused.push(answer.text);
        return;
      }
      taken.push((answer.data as { record: { id: number } }).record.id);
    }
  }));
  assert.deepEqual(refused, [], 'no refusal but "nothing ready"');
  assert.equal(taken.length, RECORDS, 'every record taken');
  assert.equal(new Set(taken).size, RECORDS, 'none taken twice');
});

test('two keepers: an Idempotency-Key asked of both is done once; lapsed claims are lapsed once', { skip: missing ?? false, timeout: 60_000 }, async (t) => {
  const clock = { ms: Date.UTC(2026, 0, 15, 12, 0) };
  const { stores, keepers: [a, b] } = await keepers(t, 2, () => clock.ms);
  const [s1, s2] = stores as [PostgresStore, PostgresStore];
  await s1.createList({ template: 'tasks' }, ann);
  await s1.grant('tasks', 'Bot', 'write', ann);

  const key = randomUUID();
  const [one, two] = await Promise.all([
    a!.ask(bot, 'add', { list: 'tasks', title: 'once' }, { key }),
    b!.ask(bot, 'add', { list: 'tasks', title: 'once' }, { key }),
  ]);
  assert.ok(one.ok && two.ok, `${one.text} / ${two.text}`);
  assert.deepEqual(one.data, two.data, 'the same answer, from the ledger');
  assert.equal([one, two].filter((x) => x.replayed).length, 1, 'one of them answered from the ledger');
  assert.equal((await s2.show('tasks', ann)).records.filter((r) => r.title === 'once').length, 1);
  // Asked again later, through either: the change is done (its ledger look goes with its first
  // statement) and undone in its savepoint, and the ledger's answer is given.
  const id = (one.data as { id: number }).id;
  const noteKey = randomUUID();
  const noted = await a!.ask(bot, 'note', { id, text: 'noted once' }, { key: noteKey });
  for (const keeper of [a!, b!]) {
    const again = await keeper.ask(bot, 'note', { id, text: 'noted once' }, { key: noteKey });
    assert.ok(again.replayed, again.text);
    assert.deepEqual(again.data, noted.data);
    const other = await keeper.ask(bot, 'note', { id, text: 'another note' }, { key: noteKey });
    assert.match(other.text, /given with another ask: nothing was done/);
  }
  assert.deepEqual((await s2.get(id, ann)).record.notes.map((n) => n.text), ['noted once'], 'one note, and not the other');

  for (let i = 0; i < 5; i++) {
    const r = await s1.add('tasks', { title: `held ${i}` }, ann);
    await s1.take(r.id, bot, { forMs: 60_000 });
  }
  clock.ms += 120_000;
  const [x, y] = await Promise.all([s1.lapse(), s2.lapse()]);
  assert.equal(x.length + y.length, 5, `${x.length} + ${y.length} lapsed`);
  const history = (await s2.brief(ann, { peek: true, limit: 500 })).items.filter((i) => i.kind === 'lapsed');
  assert.equal(history.length, 5, 'one lapse row per claim');
});

test('two keepers: a change through one wakes the held wait of the other', { skip: missing ?? false, timeout: 60_000 }, async (t) => {
  const { stores, keepers: [a, b] } = await keepers(t, 2);
  const s = stores[0]!;
  await s.createList({ template: 'batches' }, ann);
  await s.grant('batches', 'Bot', 'write', ann);
  const r = await s.add('batches', { title: 'Dark mode' }, bot);
  await b!.ask(bot, 'brief', {});
  let heard = 0;
  let at = 0;
  const stop = stores[1]!.onOtherChange(() => { heard++; at ||= performance.now(); });
  const waiting = b!.ask(bot, 'wait', { on: 'batches', timeout: '30s' }, { wait: 30_000 });
  await until(() => stores[1]!.ledger.heldIn([], ['http:']).then((rows) => rows.length === 1), 10_000, 'the wait held by the second keeper');
  heard = 0;
  at = 0;
  const from = performance.now();
  const approved = await a!.act('approve', { id: r.id }, ann);
  assert.ok(approved.ok, approved.text);
  const answer = await waiting;
  assert.ok(answer.ok, answer.text);
  assert.match(answer.text, /approved by Ann/);
  stop();
  assert.ok(heard > 0, 'the second store heard the change');
  t.diagnostic(`the second keeper heard the first's change ${Math.round((at - from) * 10) / 10} ms after it was asked for`);
});

test('every change is told to the other keepers once committed: a burst in fewer NOTIFYs, and what is not told yet when its store closes (binder admin)', { skip: missing ?? false, timeout: 60_000 }, async (t) => {
  const { url, stores: [s] } = await keepers(t, 1);
  // The channel heard as another keeper hears it, counting the changes each NOTIFY tells.
  const pg = (await import('pg')).default;
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  t.after(() => listener.end());
  let notifies = 0;
  let told = 0;
  listener.on('notification', (m) => { notifies++; told += (JSON.parse(m.payload ?? '{}') as { n: number }).n; });
  await listener.query('LISTEN binder_change');
  // The list's own change told first, then the count starts from nothing.
  await s!.createList({ template: 'batches' }, ann);
  await until(() => told >= 1, 5_000, 'the new list told');
  notifies = 0;
  told = 0;
  const admin = await openPostgresStore(url);
  await Promise.all(Array.from({ length: 20 }, (_, i) => admin.add('batches', { title: `burst ${i}` }, ann)));
  await admin.approve((await admin.add('batches', { title: 'last' }, ann)).id, true, ann);
  await admin.close();
  await until(() => told >= 22, 5_000, `every change told (${told} of 22)`);
  // That no change is told twice can only be watched for a while: a moment for a late NOTIFY.
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(told, 22, 'each change told once');
  assert.ok(notifies < 22, `told in fewer NOTIFYs than changes (${notifies})`);
  assert.equal((await s!.show('batches', ann)).records.length, 21);
});

test('a change told to nobody (its keeper killed between its commit and its NOTIFY) is heard by a listening keeper within seconds', { skip: missing ?? false, timeout: 60_000 }, async (t) => {
  const { url, stores: [s] } = await keepers(t, 1);
  await s!.createList({ template: 'batches' }, ann);
  let heard = 0;
  const stop = s!.onOtherChange(() => { heard++; });
  t.after(stop);
  // The keeper's own news of the new list lets go, and its look at the log begins: neither is
  // seen from outside the store, so a while longer than both is given.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  heard = 0;
  // A history row committed with no NOTIFY after it, as a keeper killed just after its commit leaves it.
  const pg = (await import('pg')).default;
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  t.after(() => other.end());
  await other.query("INSERT INTO log (at, by, op, list, record, change) VALUES ('2026-01-15T12:00:00.000Z', $1, 'note', 'batches', NULL, '{}')", [JSON.stringify(bot)]);
  await until(() => heard > 0, 6_000, 'the change heard without a NOTIFY');
});

test('one keeper pumps a folder at a time; another takes it over when it is gone', { skip: missing ?? false, timeout: 60_000 }, async (t) => {
  const { url, stores, keepers: [a] } = await keepers(t, 1);
  const s = stores[0]!;
  const root = tempDir(t);
  const dir = join(root, 'agent', '.binder');
  mkdirSync(dir, { recursive: true });
  await s.createList({ template: 'tasks' }, ann);
  await s.addSide(dir, 'Bot', ann);
  await s.grant('tasks', 'Bot', 'write', ann);
  await a!.start();
  // A second keeper on the same database, reading the same registered folder.
  const otherStore = await openPostgresStore(url);
  const said: string[] = [];
  const b = createKeeper({ store: otherStore, log: (line) => said.push(line) });
  t.after(async () => {
    await b.close();
    await otherStore.close();
  });
  await b.start();
  const answeredBy = { a: 0, b: 0 };
  a!.onAnswer(() => { answeredBy.a++; });
  b.onAnswer(() => { answeredBy.b++; });
  const ask = (title: string): string => {
    const id = randomUUID();
    appendFileSync(join(dir, ASKS_FILE), `${JSON.stringify({ id, at: new Date().toISOString(), op: 'add', args: { list: 'tasks', title } })}\n`);
    return id;
  };
  const answered = (id: string): boolean => existsSync(join(dir, ANSWERS_FILE))
    && readFileSync(join(dir, ANSWERS_FILE), 'utf8').split('\n').some((line) => line.includes(`"ask":"${id}"`));
  const first = ask('first');
  await until(() => answered(first), 10_000, 'the first ask answered');
  await until(() => answeredBy.a === 1, 5_000, 'the first keeper to count its answer');
  await Promise.all([a!.pump(), b.pump()]);
  assert.equal(answeredBy.b, 0, 'the second keeper left the folder to the first');

  // The first keeper goes (its connections with it): the second takes the folder at its next pass.
  await a!.close();
  await s.close();
  const second = ask('second');
  await until(() => answered(second), 10_000, 'the second ask answered by the other keeper');
  // Its answer is in the file a moment before the keeper counts it (once its delivery commits).
  await until(() => answeredBy.b === 1, 5_000, `the other keeper to count its answer (it said: ${said.join(' | ')})`);
  const titles = (await otherStore.show('tasks', ann)).records.map((r) => r.title);
  assert.deepEqual(titles, ['first', 'second'], 'each done once');
});
