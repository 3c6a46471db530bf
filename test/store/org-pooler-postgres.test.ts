/**
 * An organisation's binder on PostgreSQL reached through something that drops the connection's
 * options (as PgBouncer in transaction mode does): its search_path is then the database's own, and
 * every organisation would work in one schema, together. The engine looks at each connection's
 * search_path before using it and refuses, saying why; nothing is written anywhere. The pooler is
 * played by a proxy that forwards PostgreSQL's protocol and strips `options` from the start-up.
 */
import assert from 'node:assert/strict';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { openBinders } from '../../src/keeper/binders.js';
import type { Who } from '../../src/store/index.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';

const root: Who = { id: 'person:root', kind: 'person', name: 'root' };
const missing = postgresMissing();

/** The start-up message with its `options` pair left out (protocol 3: length, version, name/value pairs, a last NUL). */
function withoutOptions(message: Buffer): Buffer {
  const pairs: string[] = message.subarray(8, message.length - 1).toString('utf8').split('\0');
  const kept: string[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) if (pairs[i] !== 'options') kept.push(pairs[i]!, pairs[i + 1]!);
  const body = Buffer.from(`${kept.join('\0')}\0\0`, 'utf8');
  const out = Buffer.alloc(8 + body.length);
  out.writeInt32BE(out.length, 0);
  message.copy(out, 4, 4, 8);
  body.copy(out, 8);
  return out;
}

/** A TCP port that forwards to the cluster's socket, dropping the options of every start-up. */
async function optionDroppingProxy(socketPath: string): Promise<{ port: number; server: Server }> {
  const server = createServer((client) => {
    const upstream = createConnection(socketPath);
    let first = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk) => {
      if (started) return void upstream.write(chunk);
      first = Buffer.concat([first, chunk]);
      if (first.length < 4 || first.length < first.readInt32BE(0)) return;
      const length = first.readInt32BE(0);
      started = true;
      upstream.write(withoutOptions(first.subarray(0, length)));
      if (first.length > length) upstream.write(first.subarray(length));
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = (): void => { client.destroy(); upstream.destroy(); };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, server };
}

test('an organisation\'s binder reached through a pooler that drops connection options is refused, saying why, and nothing is written', missing ? { skip: missing } : {}, async () => {
  const c = await cluster();
  const url = c.database();
  const db = new URL(url).pathname.slice(1);
  const proxy = await optionDroppingProxy(join(c.host, '.s.PGSQL.5432'));
  const through = `postgres://${c.user}@127.0.0.1:${proxy.port}/${db}`;
  try {
    // Straight to the database, an organisation's binder works (and makes its schema).
    const direct = await openBinders({ kind: 'postgres', url }, { start: false, log: () => {} });
    try {
      await (await direct.of('acme.test')).store.createList({ template: 'tasks', title: 'Acme' }, root);
    } finally {
      await direct.close();
    }
    // Through the proxy: the connection works in public; the binder says so and does nothing.
    const binders = await openBinders({ kind: 'postgres', url: through }, { start: false, log: () => {} });
    try {
      const refused = /has the search_path "\$user", public, not org_(acme|beta)_test: .*pooler in transaction mode/;
      await assert.rejects(async () => (await binders.of('acme.test')).store.createList({ template: 'tasks', title: 'Leaked' }, root), refused);
      await assert.rejects(async () => (await binders.of('beta.test')).store.lists(root), refused);
    } finally {
      await binders.close();
    }
    const publicLists = c.psql(db, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename = 'lists'").trim() === '1'
      ? c.psql(db, 'SELECT title FROM public.lists').trim() : '';
    assert.doesNotMatch(publicLists, /Leaked/, 'nothing written in the database\'s own schema');
    assert.equal(c.psql(db, 'SELECT title FROM org_acme_test.lists').trim(), 'Acme', 'the organisation\'s list untouched');
  } finally {
    proxy.server.close();
    dropDatabase(c, url);
  }
});
