/**
 * The served socket against hostile clients: a slowloris client dribbling its headers and one
 * dribbling its body are cut off while others are served; a 2 MiB body is refused without being
 * read whole; headers past 16 KiB, a foreign Host and a foreign Origin are refused.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { startHttp, type Bounds } from '../../src/http/listen.js';
import { until } from '../helpers/temp.js';
import { served, type Served } from './kit.js';

async function listening(t: TestContext, s: Served, bounds?: Partial<Bounds>): Promise<{ url: string; port: number }> {
  const serving = await startHttp(s.keeper, { host: '127.0.0.1', port: 0, behindProxy: false, allowHosts: [] }, { log: () => {} }, bounds);
  t.after(() => serving.close());
  return serving;
}

/** A raw connection: what it was sent back, and whether the server closed it. */
function raw(t: TestContext, port: number): { socket: Socket; said: () => string; closed: () => boolean } {
  const socket = connect(port, '127.0.0.1');
  let said = '';
  let closed = false;
  socket.on('data', (c) => { said += c; });
  socket.on('close', () => { closed = true; });
  socket.on('error', () => { closed = true; });
  t.after(() => socket.destroy());
  return { socket, said: () => said, closed: () => closed };
}

function send(port: number, options: { method?: string; path: string; headers: Record<string, string | number>; body?: string | Buffer }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

test('a slowloris client is cut off once its headers take too long, and others are served meanwhile', { timeout: 60_000 }, async (t) => {
  const s = await served(t);
  const { port } = await listening(t, s, { headersMs: 800, requestMs: 1500, checkMs: 100 });
  const slow = raw(t, port);
  slow.socket.write('GET /api/lists HTTP/1.1\r\nHost: localhost\r\n');
  // A header line now and then, never the end of the headers.
  const drip = setInterval(() => { if (!slow.closed()) slow.socket.write(`X-Drip-${Date.now()}: 1\r\n`); }, 100);
  t.after(() => clearInterval(drip));
  const body = raw(t, port);
  body.socket.write(`POST /api/note HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${s.tokens.Claude}\r\nContent-Length: 1000\r\n\r\n{"id": 1, "text": "`);
  const bodyDrip = setInterval(() => { if (!body.closed()) body.socket.write('x'); }, 100);
  t.after(() => clearInterval(bodyDrip));
  const others = await Promise.all(Array.from({ length: 5 }, () => send(port, { path: '/api/lists', headers: { authorization: `Bearer ${s.tokens.Claude}` } })));
  assert.deepEqual(others.map((r) => r.status), [200, 200, 200, 200, 200]);
  await until(() => slow.closed(), 15_000, 'the slow client to be cut off');
  await until(() => body.closed(), 15_000, 'the slow body to be cut off');
  assert.match(slow.said(), /^HTTP\/1\.1 408 /);
  assert.doesNotMatch(body.said(), /^HTTP\/1\.1 200/);
  assert.equal((await send(port, { path: '/api/lists', headers: { authorization: `Bearer ${s.tokens.Claude}` } })).status, 200);
});

test('a 2 MiB body is refused (413) without being read whole; headers past 16 KiB are refused (431)', async (t) => {
  const s = await served(t);
  const { port } = await listening(t, s);
  // Says 2 MiB are coming, sends 64 KiB of them, and waits: the answer comes without the rest.
  for (const [path, extra] of [['/api/add', ''], ['/mcp', 'Accept: application/json, text/event-stream\r\n']] as const) {
    const big = raw(t, port);
    big.socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${s.tokens.Claude}\r\n${extra}`
      + `Content-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n{"list": "Batches", "title": "${'x'.repeat(64 * 1024)}`);
    await until(() => (path === '/api/add' ? /at most 1 MiB/ : /\r\n\r\n/).test(big.said()), 10_000, `the answer to a 2 MiB body at ${path}`);
    assert.match(big.said(), /^HTTP\/1\.1 413 /, path);
    if (path === '/api/add') assert.match(big.said(), /at most 1 MiB/);
  }
  // Its length not said (chunked): counted as it comes, refused once past 1 MiB.
  const chunked = raw(t, port);
  chunked.socket.write(`POST /api/add HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${s.tokens.Claude}\r\nTransfer-Encoding: chunked\r\n\r\n`);
  const piece = 'x'.repeat(64 * 1024);
  for (let i = 0; i < 24 && !/\r\n\r\n/.test(chunked.said()); i++) {
    chunked.socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`);
    await new Promise((r) => setImmediate(r));
  }
  await until(() => /at most 1 MiB/.test(chunked.said()) || chunked.closed(), 10_000, 'the answer to a chunked body past 1 MiB');
  assert.match(chunked.said(), /^HTTP\/1\.1 413 /);
  const headers = await send(port, { path: '/api/lists', headers: { authorization: `Bearer ${s.tokens.Claude}`, 'x-big': 'z'.repeat(20 * 1024) } });
  assert.equal(headers.status, 431);
  assert.equal((await s.store.search('x', { id: 'person:Ann', kind: 'person', name: 'Ann' })).length, 0);
});

test('on the socket: Host evil.example is 421, a foreign Origin 403, the server\'s own 200', async (t) => {
  const s = await served(t);
  const { port } = await listening(t, s);
  const auth = { authorization: `Bearer ${s.tokens.Claude}` };
  assert.equal((await send(port, { path: '/api/lists', headers: { ...auth, host: 'evil.example' } })).status, 421);
  assert.equal((await send(port, { path: '/api/lists', headers: { ...auth, host: `evil.example:${port}` } })).status, 421);
  assert.equal((await send(port, { path: '/mcp', method: 'POST', headers: { ...auth, host: 'evil.example' } })).status, 421);
  assert.equal((await send(port, { path: '/api/lists', headers: { ...auth, origin: 'http://evil.example' } })).status, 403);
  assert.equal((await send(port, { path: '/api/lists', headers: { ...auth, host: `localhost:${port}`, origin: `http://localhost:${port}` } })).status, 200);
});

test('on the socket: every answer carries the security headers, whoever made it (REST, refusals, SSE, MCP, the page)', async (t) => {
  const s = await served(t);
  const { url } = await listening(t, s);
  const auth = { authorization: `Bearer ${s.tokens.Claude}` };
  const mcpHeaders = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const asks: [string, string, RequestInit][] = [
    ['a REST read', '/api/get?id=1', { headers: auth }],
    ['a REST change', '/api/add', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"list":"batches","title":"x"}' }],
    ['no token', '/api/lists', {}],
    ['a change asked by GET', '/api/add?list=batches', { headers: auth }],
    ['nothing here', '/nowhere', {}],
    ['a foreign origin', '/api/lists', { headers: { ...auth, origin: 'http://evil.example' } }],
    ['healthz', '/healthz', {}],
    ['the page', '/', {}],
    ['MCP', '/mcp', { method: 'POST', headers: mcpHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }],
    ['SSE', '/api/changes', { headers: auth }],
  ];
  for (const [what, path, init] of asks) {
    const controller = new AbortController();
    const res = await fetch(new URL(path, url), { ...init, signal: controller.signal });
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/, `${what} (${res.status})`);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', what);
    assert.equal(res.headers.get('x-frame-options'), 'DENY', what);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer', what);
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'same-origin', what);
    assert.equal(res.headers.get('content-security-policy')?.split(', ').length, 1, `${what}: said once`);
    // An agent's answer carries its own headers too, each once.
    if (path.startsWith('/api/') && what !== 'SSE') assert.equal(res.headers.get('content-type'), 'application/json', `${what}: its type, once`);
    if (what === 'a change asked by GET') assert.deepEqual([res.status, res.headers.get('allow')], [405, 'POST'], what);
    if (res.status === 401) assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="binder"', what);
    controller.abort();
  }
});

test('requests cut short by their clients: one line, no stack, and the rest counted in one line', { timeout: 60_000 }, async (t) => {
  const s = await served(t);
  const lines: string[] = [];
  const serving = await startHttp(s.keeper, { host: '127.0.0.1', port: 0, behindProxy: false, allowHosts: [] }, { log: (line) => lines.push(line) }, { clientLinesMs: 1_000 });
  t.after(() => serving.close());
  const cut = async (): Promise<void> => {
    const c = raw(t, serving.port);
    c.socket.write(`POST /api/note HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${s.tokens.Claude}\r\nContent-Length: 1000\r\n\r\n{"id": 1, "te`);
    // The server has the headers and part of the body when the client goes.
    await until(() => c.socket.bytesWritten > 0, 5_000, 'the request sent');
    await new Promise<void>((resolve) => c.socket.end(resolve));
    c.socket.destroy();
  };
  for (let i = 0; i < 40; i++) await cut();
  await until(() => lines.some((line) => /^binder http: \d+ more requests were cut short by their clients/.test(line)), 10_000, 'the count');
  const [first, ...rest] = lines;
  assert.equal(first, 'binder http: POST /api/note was cut short by its client before its body ended');
  assert.ok(lines.every((line) => !line.includes('\n') && !/\bat \S+ \(/.test(line)), lines.join('\n'));
  assert.ok(rest.length <= 2, `at most a count or two: ${lines.join('\n')}`);
  const counted = rest.reduce((n, line) => n + Number(/^binder http: (\d+) more/.exec(line)?.[1] ?? 0), 0);
  assert.ok(counted >= 1 && counted <= 39, lines.join('\n'));
});
