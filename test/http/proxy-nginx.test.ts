/**
 * docs/team.md's proxy, run: nginx in front of two `binder serve --no-tui --http` on one
 * PostgreSQL database, with the configuration the docs give (its `upstream` and `location`, TLS
 * left out). Every request goes to either keeper; one keeper killed, the proxy sends the next
 * requests to the other, and every change (each with its Idempotency-Key) is done once.
 * Skipped, saying why, where nginx or PostgreSQL is not installed.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { tempDir, until } from '../helpers/temp.js';
import { ann, startKeeper, track, type Keeping } from '../survival/harness.js';

const nginx = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim();
const why = !nginx ? 'nginx is not installed (Debian: apt-get install nginx-light)' : postgresMissing();
const DOCS = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'docs', 'team.md');

const freePort = (): Promise<number> => new Promise((resolve, reject) => {
  const server = createServer();
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
});

/** The docs' nginx blocks: its `upstream` (with the keepers' addresses) and its `location /`. */
function docsConfig(keepers: number[]): { upstream: string; location: string } {
  const text = readFileSync(DOCS, 'utf8');
  const upstream = /^ {4}upstream binder \{\n[\s\S]*?^ {4}\}$/m.exec(text)?.[0];
  const location = /^ {8}location \/ \{\n[\s\S]*?^ {8}\}$/m.exec(text)?.[0];
  assert.ok(upstream && location, 'docs/team.md gives an upstream and a location for nginx');
  const servers = keepers.map((port) => `        server 127.0.0.1:${port} max_fails=1 fail_timeout=5s;`).join('\n');
  return { upstream: upstream.replace(/^ {8}server .*;\n/gm, '').replace('upstream binder {\n', `upstream binder {\n${servers}\n`), location };
}

test('nginx in front of two keepers on one database, as docs/team.md sets it: either answers, one killed the other does, each change once', { skip: why ?? false, timeout: 120_000 }, async (t) => {
  const c = await cluster();
  const url = c.database();
  t.after(() => dropDatabase(c, url));
  const store = await openPostgresStore(url);
  await store.createList({ template: 'tasks' }, ann);
  const token = (await store.addToken('Web', {}, ann)).token;
  await store.grant('tasks', 'Web', 'write', ann);
  await store.close();

  const ports = [await freePort(), await freePort()];
  const keepers: Keeping[] = [];
  t.after(async () => { for (const k of keepers) await k.kill(); });
  for (const port of ports) keepers.push(await startKeeper(url, ['--quiet', '--http', `127.0.0.1:${port}`, '--behind-proxy']));

  const root = tempDir(t, 'binder-nginx-');
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(root, sub));
  const proxy = await freePort();
  const { upstream, location } = docsConfig(ports);
  writeFileSync(join(root, 'nginx.conf'), `
user root root;
worker_processes 1;
daemon off;
pid ${root}/nginx.pid;
error_log ${root}/error.log;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path ${root}/body;
    proxy_temp_path ${root}/proxy;
    fastcgi_temp_path ${root}/fastcgi;
    uwsgi_temp_path ${root}/uwsgi;
    scgi_temp_path ${root}/scgi;
${upstream}
    server {
        listen 127.0.0.1:${proxy};
${location}
    }
}
`);
  const server = track(spawn(nginx, ['-p', root, '-c', join(root, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] }));
  let said = '';
  server.stderr.on('data', (d) => { said += d; });
  t.after(() => { server.kill('SIGTERM'); });
  const call = async (method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; json: { ok: boolean; text: string; data: { id?: number } } }> => {
    const res = await fetch(`http://127.0.0.1:${proxy}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...(key ? { 'idempotency-key': key } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, json: (await res.json()) as { ok: boolean; text: string; data: { id?: number } } };
  };
  await until(async () => (await fetch(`http://127.0.0.1:${proxy}/healthz`).then((r) => r.status, () => 0)) === 200, 10_000, `nginx to answer (${said})`);

  for (let i = 0; i < 10; i++) {
    const added = await call('POST', '/api/add', { list: 'tasks', title: `through nginx ${i}` }, randomUUID());
    assert.equal(added.status, 200, added.json.text);
    assert.equal((await call('GET', `/api/get?id=${added.json.data.id}`)).status, 200);
  }
  // One keeper gone: the proxy finds it refusing connections and sends the requests to the other.
  await keepers[0]!.kill();
  for (let i = 10; i < 20; i++) {
    const added = await call('POST', '/api/add', { list: 'tasks', title: `through nginx ${i}` }, randomUUID());
    assert.equal(added.status, 200, added.json.text);
  }
  assert.equal((await call('GET', '/api/show?list=tasks')).status, 200);
  const check = await openPostgresStore(url);
  const titles = (await check.show('tasks', ann)).records.map((r) => r.title).sort();
  await check.close();
  assert.deepEqual(titles, Array.from({ length: 20 }, (_, i) => `through nginx ${i}`).sort(), 'each change done once');
});
