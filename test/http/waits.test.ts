/**
 * Waits over HTTP are held by the keeper, as through a folder: woken by a change, counted with
 * the same agent's folder waits under one per-agent cap, let go when an asker without a key goes
 * away, and joined again by an asker that comes back with its key. Through MCP too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { askKeeper } from '../../src/agent/ask.js';
import { WAITS_PER_AGENT } from '../../src/keeper/held-waits.js';
import { startHttp } from '../../src/http/listen.js';
import { join } from 'node:path';
import { createHttpApp } from '../../src/http/app.js';
import { createKeeper } from '../../src/keeper/keeper.js';
import { openAnyStore } from '../../src/store/index.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { tempDir, until } from '../helpers/temp.js';
import { ann, folderFor, served, HOST, type Served } from './kit.js';

const held = (s: Served): number => s.store.db.prepare('SELECT count(*) FROM waits').pluck().get() as number;

test('a wait over REST is held until a person approves, then says so once', async (t) => {
  const s = await served(t);
  assert.equal((await s.call('POST', '/api/add', { body: { list: 'Batches', title: 'Dark mode' } })).status, 200);
  await s.call('GET', '/api/brief');
  const waiting = s.call('POST', '/api/wait', { body: { on: '1', timeout: '30s' } });
  await until(() => held(s) === 1, 5_000, 'the keeper to hold the wait');
  await s.keeper.act('approve', { id: 1 }, ann);
  const r = await waiting;
  assert.equal(r.status, 200);
  assert.equal(r.json.text, '1 change since you last looked:\n#1 Dark mode: approved by Ann');
  assert.equal((r.json.data as { changed: boolean }).changed, true);
  assert.equal(held(s), 0);
  assert.match((await s.call('GET', '/api/brief')).json.text, /^Nothing changed since you last looked/, 'told once');
});

test('one agent\'s waits through its folder and over HTTP count together: past its share, 429', async (t) => {
  const s = await served(t);
  const dir = await folderFor(s, 'Claude');
  await s.call('GET', '/api/brief');
  // Five seconds: held long enough to be counted, and all answered soon after the test asks its last.
  const folderWaits = [1, 2].map(() => askKeeper(dir, 'wait', { timeout: '5s' }, { waitMs: 10_000 }));
  const httpWaits = Array.from({ length: WAITS_PER_AGENT - 2 }, () => s.call('POST', '/api/wait', { body: { timeout: '5s' } }));
  await until(() => held(s) === WAITS_PER_AGENT, 10_000, 'the agent\'s waits held');
  const busy = await s.call('POST', '/api/wait', { body: { timeout: '30s' } });
  assert.equal(busy.status, 429);
  assert.match(busy.json.text, new RegExp(`^Busy: you hold ${WAITS_PER_AGENT} waits already`));
  assert.equal(busy.headers.get('retry-after'), '5');
  const folderBusy = await askKeeper(dir, 'wait', { timeout: '30s' }, { waitMs: 10_000 });
  assert.ok(folderBusy.outcome === 'answered' && !folderBusy.ok && /^Busy: you hold/.test(folderBusy.text));
  // Another agent is not held back by Claude's waits.
  const codex = (await s.store.addToken('Codex', {}, ann)).token;
  await s.store.grant('batches', 'Codex', 'write', ann);
  await s.call('GET', '/api/brief', { token: codex });
  const other = s.call('POST', '/api/wait', { token: codex, body: { timeout: '30s' } });
  await until(() => held(s) === WAITS_PER_AGENT + 1, 5_000, 'the other agent\'s wait held');
  await s.keeper.act('add', { list: 'batches', title: 'News' }, ann);
  assert.match((await other).json.text, /News: added by Ann/);
  // Claude is told the news once, by one of its waits; the others keep waiting until their time.
  const texts = await Promise.all([...folderWaits.map((w) => w.then((a) => (a.outcome === 'answered' ? a.text : a.outcome))), ...httpWaits.map((w) => w.then((r) => r.json.text))]);
  assert.equal(texts.filter((text) => /News: added by Ann/.test(text)).length, 1, texts.join('\n'));
  assert.equal(texts.filter((text) => /^Nothing changed in 5s/.test(text)).length, WAITS_PER_AGENT - 1, texts.join('\n'));
});

test('a wait without a key whose asker goes away is let go; one with a key is joined again when its asker comes back', async (t) => {
  const s = await served(t);
  await s.call('GET', '/api/brief');
  const gone = new AbortController();
  const leaving = Promise.resolve(s.http.app.request('/api/wait', {
    method: 'POST', signal: gone.signal,
    headers: { host: HOST, authorization: `Bearer ${s.tokens.Claude}` }, body: JSON.stringify({ timeout: '30s' }),
  })).catch(() => null);
  await until(() => held(s) === 1, 5_000, 'the wait held');
  gone.abort();
  await leaving;
  await until(() => held(s) === 0, 5_000, 'the wait let go');

  const key = randomUUID();
  const away = new AbortController();
  const first = Promise.resolve(s.http.app.request('/api/wait', {
    method: 'POST', signal: away.signal,
    headers: { host: HOST, authorization: `Bearer ${s.tokens.Claude}`, 'idempotency-key': key }, body: JSON.stringify({ timeout: '30s' }),
  })).catch(() => null);
  await until(() => held(s) === 1, 5_000, 'the keyed wait held');
  away.abort();
  await first;
  assert.equal(held(s), 1, 'kept: its asker may come back');
  const back = s.call('POST', '/api/wait', { body: { timeout: '30s' }, headers: { 'idempotency-key': key } });
  await s.keeper.act('add', { list: 'batches', title: 'While away' }, ann);
  const r = await back;
  assert.equal(r.status, 200);
  assert.match(r.json.text, /While away: added by Ann/);
  const again = await s.call('POST', '/api/wait', { body: { timeout: '30s' }, headers: { 'idempotency-key': key } });
  assert.equal(again.json.text, r.json.text, 'answered again from the ledger');
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
});

test('a wait through MCP over HTTP is held by the keeper and woken by a change', async (t) => {
  const s = await served(t);
  const serving = await startHttp(s.keeper, { host: '127.0.0.1', port: 0, behindProxy: false, allowHosts: [] }, { log: () => {} });
  t.after(() => serving.close());
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serving.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${s.tokens.Claude}` } } }));
  t.after(() => client.close());
  await client.callTool({ name: 'brief', arguments: {} });
  const waiting = client.callTool({ name: 'wait', arguments: { timeout: '10m' } }) as Promise<CallToolResult>;
  await until(() => held(s) === 1, 5_000, 'the wait held');
  const row = s.store.db.prepare('SELECT at, until FROM waits').get() as { at: number; until: number };
  assert.ok(row.until - row.at <= 45_000, 'held at most 45 s through MCP');
  await s.keeper.act('add', { list: 'batches', title: 'Through MCP' }, ann);
  const r = await waiting;
  assert.ok(!r.isError);
  assert.match(r.content[0]?.type === 'text' ? r.content[0].text : '', /Through MCP: added by Ann/);
});

test('a wait whose token is revoked while it is held is answered 401 (REST) or refused (MCP), never with what changed since', async (t) => {
  const s = await served(t);
  const serving = await startHttp(s.keeper, { host: '127.0.0.1', port: 0, behindProxy: false, allowHosts: [] }, { log: () => {} });
  t.after(() => serving.close());
  const codex = (await s.store.addToken('Codex', {}, ann)).token;
  await s.store.grant('batches', 'Codex', 'write', ann);
  await s.call('GET', '/api/brief');
  await s.call('GET', '/api/brief', { token: codex });
  const rest = s.call('POST', '/api/wait', { body: { timeout: '30s' } });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serving.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${codex}` } } }));
  t.after(() => client.close());
  const mcp = client.callTool({ name: 'wait', arguments: { timeout: '30s' } }) as Promise<CallToolResult>;
  await until(() => held(s) === 2, 5_000, 'both waits held');
  await s.store.revokeTokens('Claude', ann);
  await s.store.revokeTokens('Codex', ann);
  await s.keeper.act('add', { list: 'batches', title: 'Secret after revocation' }, ann);
  const r = await rest;
  assert.equal(r.status, 401);
  assert.match(r.json.text, /^This token \(binder_[\w-]+\) was revoked on /);
  assert.doesNotMatch(JSON.stringify(r.json), /Secret after revocation/);
  const m = await mcp;
  const text = m.content[0]?.type === 'text' ? m.content[0].text : '';
  assert.ok(m.isError, text);
  assert.match(text, /was revoked on /);
  assert.doesNotMatch(JSON.stringify(m), /Secret after revocation/);
  // Nothing was read for them: with a new token, each agent is told the change its refused wait did not say.
  for (const name of ['Claude', 'Codex']) {
    const fresh = (await s.store.addToken(name, {}, ann)).token;
    const brief = await s.call('GET', '/api/brief', { token: fresh });
    assert.match(brief.json.text, /Secret after revocation/, `${name}: ${brief.json.text}`);
  }
});

for (const engine of ['sqlite', 'postgres'] as const) {
  const missing = engine === 'postgres' ? postgresMissing() : null;
  test(`a refused wait moves nothing: the agent with a new token is told what changed [${engine}]`, { timeout: 60_000, ...(missing ? { skip: missing } : {}) }, async (t) => {
    const url = engine === 'postgres' ? (await cluster()).database() : null;
    if (url) t.after(async () => dropDatabase(await cluster(), url));
    const store = await openAnyStore(url ? { kind: 'postgres', url } : { kind: 'sqlite', dir: join(tempDir(t), 'store') });
    await store.createList({ template: 'batches' }, ann);
    await store.grant('batches', 'Claude', 'write', ann);
    const keeper = createKeeper({ store, sides: [], log: () => {} });
    await keeper.start();
    const http = createHttpApp({ keeper, hosts: ['localhost'] });
    t.after(async () => {
      await http.close();
      await keeper.close();
      await store.close();
    });
    const ask = async (token: string, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> => {
      const res = await http.app.request(path, { method, headers: { host: HOST, authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
      return { status: res.status, text: ((await res.json()) as { text: string }).text };
    };
    const first = (await store.addToken('Claude', {}, ann)).token;
    await ask(first, 'GET', '/api/brief');
    const waiting = ask(first, 'POST', '/api/wait', { timeout: '30s' });
    await until(async () => (await store.ledger.heldIn([], ['http:'])).length === 1, 10_000, 'the wait held');
    await store.revokeTokens('Claude', ann);
    await keeper.act('add', { list: 'batches', title: 'Added while revoked' }, ann);
    const refused = await waiting;
    assert.equal(refused.status, 401, refused.text);
    assert.doesNotMatch(refused.text, /Added while revoked/);
    const second = (await store.addToken('Claude', {}, ann)).token;
    const brief = await ask(second, 'GET', '/api/brief');
    assert.match(brief.text, /Added while revoked/, 'the change is told to the agent\'s next look');
  });
}
