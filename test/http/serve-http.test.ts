/**
 * `binder serve --no-tui --http` as a person runs it: says where it listens even with --quiet,
 * answers REST with a token made by `binder admin token add`, speaks TLS with a certificate,
 * refuses to listen off loopback without TLS or a proxy, and says so when the port is taken.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { binder, serveKeeper } from '../helpers/processes.js';
import { tempDir, until } from '../helpers/temp.js';

function store(root: string): { dir: string; token: string } {
  const dir = join(root, 'store');
  assert.equal(binder(['admin', '--store', dir, 'create-list', 'Batches', '--template', 'batches']).code, 0);
  const made = binder(['admin', '--store', dir, 'token', 'add', 'Claude']);
  assert.equal(made.code, 0, made.err);
  assert.equal(binder(['admin', '--store', dir, 'grant', 'batches', 'Claude', 'write']).code, 0);
  return { dir, token: made.out.split('\n')[0]! };
}

const urlIn = (out: string): string => /Answering on (https?:\/\/[^ ]+) too/.exec(out)?.[1] ?? '';

test('serve --http says where it listens (even --quiet), answers REST with an admin-made token, and stops cleanly', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const s = store(root);
  const keeper = await serveKeeper(t, ['--store', s.dir, '--side', `${join(root, '.binder')}=Claude`, '--http', '127.0.0.1:0', '--quiet']);
  const url = urlIn(keeper.out());
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(keeper.out(), new RegExp(`MCP at ${url}/mcp, REST at ${url}/api`));
  const r = await fetch(`${url}/api/add`, { method: 'POST', headers: { authorization: `Bearer ${s.token}` }, body: JSON.stringify({ list: 'Batches', title: 'Over HTTP' }) });
  assert.equal(r.status, 200);
  assert.match(((await r.json()) as { text: string }).text, /^Added #1/);
  assert.doesNotMatch(keeper.out(), /Over HTTP|Added/, '--quiet: no line per ask');
  assert.equal(await keeper.stop(), 0);
  assert.equal(binder(['admin', '--store', s.dir, 'get', '1']).code, 0);
});

test('serve --http over TLS with a certificate; the log says the token\'s prefix, never the token', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const s = store(root);
  const cert = join(root, 'cert.pem');
  const key = join(root, 'key.pem');
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', key, '-out', cert], { encoding: 'utf8' });
  assert.equal(made.status, 0, `openssl: ${made.stderr}`);
  const keeper = await serveKeeper(t, ['--store', s.dir, '--side', `${join(root, '.binder')}=Claude`, '--http', '127.0.0.1:0', '--tls-cert', cert, '--tls-key', key]);
  const url = urlIn(keeper.out());
  assert.match(url, /^https:\/\/127\.0\.0\.1:\d+$/);
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${url}/api/lists`, { ca: readFileSync(cert), headers: { authorization: `Bearer ${s.token}` } }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(answer.status, 200, answer.body);
  assert.match(answer.body, /"batches"/);
  const prefix = s.token.slice(0, 15);
  await until(() => new RegExp(`Claude lists done over REST \\(${prefix}\\)`).test(keeper.out()), 5_000, 'the log line');
  assert.ok(!keeper.out().includes(s.token) && !keeper.err().includes(s.token));
  assert.equal(await keeper.stop(), 0);
});

test('serve refuses to listen off loopback without TLS or a proxy, and says when the port is taken', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const s = store(root);
  const open = binder(['serve', '--no-tui', '--store', s.dir, '--http', '0.0.0.0:0']);
  assert.equal(open.code, 64);
  assert.match(open.err, /Listening on 0\.0\.0\.0 lets other machines reach the binder.*--tls-cert FILE and --tls-key FILE, or --behind-proxy/);
  assert.equal(binder(['serve', '--no-tui', '--store', s.dir, '--rate', '5']).code, 64, '--rate without --http');
  const first = await serveKeeper(t, ['--store', s.dir, '--side', `${join(root, '.binder')}=Claude`, '--http', '127.0.0.1:0', '--quiet']);
  const port = urlIn(first.out()).split(':').at(-1)!;
  const second = binder(['serve', '--no-tui', '--store', s.dir, '--side', `${join(root, '.binder')}=Claude`, '--http', `127.0.0.1:${port}`]);
  assert.equal(second.code, 2);
  assert.match(second.err, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: another program listens there`));
  assert.equal(await first.stop(), 0);
});
