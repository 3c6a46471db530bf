/**
 * What Binder relies on inside the pinned MCP SDK (src/mcp/sdk-calls.ts): `McpServer` sets its
 * handler of tools/call through its low-level server's `setRequestHandler`, so that a call is
 * seen first by Binder and, when Binder gives no answer, by the SDK's own handler unchanged.
 * A version of the SDK that sets it otherwise fails this test, not an agent's call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { answerCallsFirst } from '../../src/mcp/sdk-calls.js';
import { ROOT } from '../helpers/processes.js';

const textOf = (result: unknown): string => ((result as { content: Array<{ text: string }> }).content[0]?.text ?? '');

test('the SDK installed is the one pinned', () => {
  const pinned = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies['@modelcontextprotocol/sdk'];
  const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'package.json'), 'utf8')).version;
  assert.equal(installed, pinned);
});

test('a call is seen first by Binder, and goes on to the SDK\'s handler unchanged when Binder gives no answer', async (t) => {
  const server = new McpServer({ name: 'adapter', version: '1' });
  const seen: string[] = [];
  answerCallsFirst(server, (name) => {
    seen.push(name);
    return name === 'approve' ? { content: [{ type: 'text', text: 'a person approves' }], isError: true } : undefined;
  });
  server.registerTool('echo', { description: 'says hi' }, async () => ({ content: [{ type: 'text', text: 'hi' }] }));
  const client = new Client({ name: 'test', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(b), client.connect(a)]);
  t.after(() => client.close());

  assert.equal(textOf(await client.callTool({ name: 'echo', arguments: {} })), 'hi');
  const refused = await client.callTool({ name: 'approve', arguments: {} });
  assert.equal(textOf(refused), 'a person approves');
  assert.equal(refused.isError, true);
  const unknown = await client.callTool({ name: 'nothing', arguments: {} }).then((r) => textOf(r), (e: Error) => e.message);
  assert.match(unknown, /nothing/, 'an unknown tool is the SDK\'s to answer');
  assert.deepEqual(seen, ['echo', 'approve', 'nothing']);
});
