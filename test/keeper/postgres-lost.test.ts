/**
 * A keeper that loses its database (PostgreSQL stopped under it): over HTTP it answers 503 with
 * Retry-After; a folder's ask is left unread, not answered; once the database is back the keeper
 * takes both up by itself — the HTTP ask asked again with its key, the folder's at the next pass —
 * and each is done once. Skipped, saying why, where PostgreSQL is not installed.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { createKeeper, personWho } from '../../src/keeper/keeper.js';
import { ANSWERS_FILE, ASKS_FILE } from '../../src/keeper/protocol.js';
import { createHttpApp } from '../../src/http/app.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { postgresMissing, startCluster } from '../helpers/postgres.js';
import { tempDir, until } from '../helpers/temp.js';

const ann = personWho('Ann');

test('a keeper that loses its database answers 503, leaves folder asks unread, and takes both up once it is back', { skip: postgresMissing() ?? false, timeout: 120_000 }, async (t) => {
  const c = await startCluster();
  const url = c.database();
  const store = await openPostgresStore(url);
  const root = tempDir(t);
  const dir = join(root, 'agent', '.binder');
  mkdirSync(dir, { recursive: true });
  await store.createList({ template: 'tasks' }, ann);
  await store.addSide(dir, 'Bot', ann);
  await store.grant('tasks', 'Bot', 'write', ann);
  const token = (await store.addToken('Bot', {}, ann)).token;
  const said: string[] = [];
  const keeper = createKeeper({ store, log: (line) => said.push(line), now: Date.now });
  await keeper.start();
  const http = createHttpApp({ keeper, hosts: ['localhost'], log: (line) => said.push(line) });
  t.after(async () => {
    await http.close();
    await keeper.close();
    await store.close();
    await c.stop();
  });
  const call = async (title: string, key: string): Promise<{ status: number; retry: string | null; text: string }> => {
    const res = await http.app.request('/api/add', {
      method: 'POST',
      headers: { host: 'localhost', authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ list: 'tasks', title }),
    });
    return { status: res.status, retry: res.headers.get('retry-after'), text: ((await res.json()) as { text: string }).text };
  };
  const ask = (title: string): string => {
    const id = randomUUID();
    appendFileSync(join(dir, ASKS_FILE), `${JSON.stringify({ id, at: new Date().toISOString(), op: 'add', args: { list: 'tasks', title } })}\n`);
    return id;
  };
  const answered = (id: string): boolean => existsSync(join(dir, ANSWERS_FILE))
    && readFileSync(join(dir, ANSWERS_FILE), 'utf8').split('\n').some((line) => line.includes(`"ask":"${id}"`));

  assert.equal((await call('before', randomUUID())).status, 200);

  await c.stop();
  const key = randomUUID();
  const down = await call('while down', key);
  assert.equal(down.status, 503, down.text);
  assert.equal(down.retry, '5');
  assert.match(down.text, /cannot be reached now: nothing was done/);
  const id = ask('from the folder');
  await assert.rejects(() => keeper.pump(), (e: unknown) => e instanceof Error && e.name === 'StoreUnavailable');
  assert.equal(answered(id), false, 'the folder\'s ask is left unread while the database is away');

  await c.start();
  // The keeper's own poll takes the folder's ask up once the database answers again.
  await until(() => answered(id), 20_000, 'the folder\'s ask answered once the database is back');
  const again = await call('while down', key);
  assert.equal(again.status, 200, again.text);
  const titles = (await store.show('tasks', ann)).records.map((r) => r.title).sort();
  assert.deepEqual(titles, ['before', 'from the folder', 'while down'], 'each done once');
  assert.ok(said.some((line) => /cannot be reached/.test(line)), 'the keeper said why, on its log');
});
