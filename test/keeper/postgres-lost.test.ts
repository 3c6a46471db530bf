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
import { serveKeeper } from '../helpers/processes.js';

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

test('a keeper process asked at once by many while its database restarts stays up, answers 503 meanwhile, and serves again after', { skip: postgresMissing() ?? false, timeout: 120_000 }, async (t) => {
  const c = await startCluster();
  const url = c.database();
  const store = await openPostgresStore(url);
  await store.createList({ template: 'tasks' }, ann);
  const token = (await store.addToken('Bot', {}, ann)).token;
  await store.grant('tasks', 'Bot', 'write', ann);
  for (let i = 0; i < 20; i++) await store.add('tasks', { title: `r${i}` }, ann);
  await store.close();
  const keeper = await serveKeeper(t, ['--quiet', '--store', url, '--http', '127.0.0.1:0']);
  const at = /Answering on (http:\/\/\S+) too/.exec(keeper.out())![1]!;
  const ask = async (i: number): Promise<number | string> => {
    try {
      const reading = i % 2 === 0;
      const res = await fetch(new URL(reading ? `/api/get?id=${1 + (i % 20)}` : '/api/note', at), {
        method: reading ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        ...(reading ? {} : { body: JSON.stringify({ id: 1 + (i % 20), text: `n${i}` }) }),
      });
      await res.text();
      return res.status;
    } catch (error) {
      return String((error as { cause?: { code?: string } }).cause?.code ?? error);
    }
  };
  // Sixteen askers at once, each asking again as soon as it is answered, while the database restarts.
  const seen = new Set<number | string>();
  let going = true;
  const askers = Array.from({ length: 16 }, async (_, k) => {
    for (let i = k; going; i += 16) seen.add(await ask(i));
  });
  await until(() => seen.has(200), 10_000, 'answers before the restart');
  await c.restart();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  going = false;
  await Promise.all(askers);
  assert.equal(keeper.child.exitCode, null, `the keeper is still up: ${keeper.err()}`);
  assert.ok([...seen].every((s) => s === 200 || s === 503), `only 200 and 503: ${[...seen].join(', ')}; the keeper said: ${keeper.err().slice(-2000)}`);
  await until(async () => (await ask(1)) === 200 && (await ask(2)) === 200, 20_000, 'the keeper to serve again');
});
