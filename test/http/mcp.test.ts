/**
 * MCP over Streamable HTTP with the SDK's own client, on a real socket: the same tools, schemas,
 * annotations and instructions as binder-mcp; calls done as the token's agent; no session kept;
 * no token, an unknown one, a forged identity.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../src/mcp/mcp-server.js';
import { startHttp } from '../../src/http/listen.js';
import { ann, served, type Served } from './kit.js';

async function listening(t: Parameters<typeof served>[0], s: Served): Promise<string> {
  const serving = await startHttp(s.keeper, { host: '127.0.0.1', port: 0, behindProxy: false, allowHosts: [] }, { log: (line) => s.logs.push(line), told: (line) => s.logs.push(line) });
  t.after(() => serving.close());
  return serving.url;
}

async function client(t: Parameters<typeof served>[0], url: string, token: string | null): Promise<Client> {
  const c = new Client({ name: 'test', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: token ? { Authorization: `Bearer ${token}` } : {} },
  });
  await c.connect(transport);
  t.after(() => c.close());
  return c;
}

const text = (r: CallToolResult): string => (r.content[0]?.type === 'text' ? r.content[0].text : '');

test('the tools over HTTP are binder-mcp\'s: names, words, schemas, hints, instructions; GET /api has the same schemas', async (t) => {
  const s = await served(t);
  const url = await listening(t, s);
  const remote = await client(t, url, s.tokens.Claude!);
  const local = new Client({ name: 'test', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([createMcpServer({ ask: async () => ({ outcome: 'answered', ok: true, text: '' }) }).connect(b), local.connect(a)]);
  t.after(() => local.close());
  // As JSON: what crosses HTTP (the in-memory pair keeps keys whose value is undefined).
  assert.deepEqual((await remote.listTools()).tools, JSON.parse(JSON.stringify((await local.listTools()).tools)));
  assert.equal(remote.getInstructions(), local.getInstructions());
  assert.deepEqual(remote.getServerVersion(), local.getServerVersion());
  const api = await s.call('GET', '/api');
  const schemas = Object.fromEntries((api.json.data as { name: string; schema: unknown }[]).map((op) => [op.name, op.schema]));
  // A wait over REST is held longer than an MCP client waits for a call: only its timeout's words differ.
  type Schema = { properties: Record<string, { description?: string }> };
  const holdWords = (schema: unknown): string | undefined => (schema as Schema).properties.timeout?.description;
  assert.match(holdWords((await local.listTools()).tools.find((tool) => tool.name === 'wait')!.inputSchema)!, /^at most this long: 45s \(the default and the most\)$/);
  assert.match(holdWords(schemas.wait)!, /^at most this long: 60s \(default\)$/);
  for (const tool of (await local.listTools()).tools) {
    const rest = JSON.parse(JSON.stringify(schemas[tool.name])) as Schema;
    if (tool.name === 'wait') rest.properties.timeout!.description = holdWords(tool.inputSchema);
    assert.deepEqual(rest, tool.inputSchema, tool.name);
  }
});

test('tool calls over HTTP are the token\'s agent\'s: done, refused (isError), a forged identity dropped', async (t) => {
  const s = await served(t);
  const url = await listening(t, s);
  const c = await client(t, url, s.tokens.Claude!);
  const added = (await c.callTool({ name: 'add', arguments: { list: 'Batches', title: 'Over MCP', as: 'Ann', who: 'person:Ann' } })) as CallToolResult;
  assert.ok(!added.isError, text(added));
  assert.match(text(added), /^Added #1 to batches/);
  assert.equal((await s.store.get(1, ann)).history[0]!.by.id, 'agent:claude');
  const moved = (await c.callTool({ name: 'move', arguments: { id: '1', state: 'Doing' } })) as CallToolResult;
  assert.equal(moved.isError, true);
  assert.match(text(moved), /^Not done: .*approved/);
  const shown = (await c.callTool({ name: 'show', arguments: { list: 'Hidden' } })) as CallToolResult;
  assert.equal(shown.isError, true);
  assert.match(text(shown), /no list "Hidden" you can see/);
  // Stateless: a second client, with no session, on the same server.
  const other = await client(t, url, s.tokens.Claude!);
  assert.match(text((await other.callTool({ name: 'get', arguments: { id: '#1' } })) as CallToolResult), /^#1 Over MCP/);
  assert.ok(s.logs.some((line) => /Claude add done over MCP \(binder_[\w-]{8}\)/.test(line)), s.logs.join('\n'));
});

test('MCP without a token, or with an unknown one, is refused before anything is read', async (t) => {
  const s = await served(t);
  const url = await listening(t, s);
  await assert.rejects(client(t, url, null), /No token: send the header Authorization/);
  await assert.rejects(client(t, url, `binder_${'B'.repeat(43)}`), /not one this binder knows/);
  const raw = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lists', arguments: {} } }),
  });
  assert.equal(raw.status, 401);
  assert.equal(raw.headers.get('www-authenticate'), 'Bearer realm="binder"');
});

test('a batch of MCP messages counts each against the token\'s rate: a batch past it is refused whole, nothing of it done', async (t) => {
  const s = await served(t, { app: { rate: { perSecond: 1, burst: 10 } } });
  const batch = (n: number, from: number) => Array.from({ length: n }, (_, i) => ({
    jsonrpc: '2.0', id: from + i, method: 'tools/call', params: { name: 'add', arguments: { list: 'Batches', title: `batched ${from + i}` } },
  }));
  const ask = (body: unknown) => s.call('POST', '/mcp', { body, headers: { accept: 'application/json, text/event-stream' } });
  const within = await ask(batch(4, 1));
  assert.equal(within.status, 200, within.json.text);
  const past = await ask(batch(30, 100));
  assert.equal(past.status, 429, 'thirty calls in one request are thirty requests');
  assert.match(past.headers.get('retry-after') ?? '', /^\d+$/);
  assert.equal((await s.store.show('batches', ann)).records.length, 4, 'the four of the first batch, none of the second');
});
