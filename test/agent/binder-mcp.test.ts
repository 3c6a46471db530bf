/**
 * `dist/bin/binder-mcp.js` spawned and driven by the SDK's own client, against a minimal keeper,
 * its stdout teed to a file: every line there must be JSON-RPC, and tools/list must stay small.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_OPERATIONS } from '../../src/keeper/operations.js';
import { BINDER_MCP } from '../helpers/processes.js';
import { folderlessDir, tempDir, until } from '../helpers/temp.js';
import { cannedAnswer, miniKeeper } from './mini-keeper.js';

/** The whole tools/list answer must stay under this many bytes: it sits in every agent's context. */
const TOOLS_LIST_MAX = 8 * 1024;

interface Session { client: Client; stdout: () => string[]; stderr: () => string }

async function session(t: { after: (fn: () => Promise<void> | void) => void }, cwd: string, args: string[]): Promise<Session> {
  const log = join(cwd, `stdout-${Math.random().toString(36).slice(2)}.log`);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'BINDER_DIR' && key !== 'BINDER_WAIT_MS') env[key] = value;
  const transport = new StdioClientTransport({
    command: '/bin/sh',
    // The server's stdout goes to the client through tee, which keeps a copy of every byte.
    args: ['-c', '"$0" "$@" | tee "$LOG"', process.execPath, BINDER_MCP, ...args],
    env: { ...env, LOG: log },
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => { stderr += chunk; });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  t.after(() => client.close());
  const stdout = (): string[] => {
    try { return readFileSync(log, 'utf8').split('\n').filter((line) => line !== ''); } catch { return []; }
  };
  return { client, stdout, stderr: () => stderr };
}

const textOf = (result: CallToolResult): string => (result.content[0]?.type === 'text' ? result.content[0].text : '');

test('binder-mcp over stdio: tools, answers, refusals, nobody at once, and nothing but JSON-RPC on stdout', { timeout: 60_000 }, async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  keeper.beat();
  const { client, stdout, stderr } = await session(t, folder, ['--dir', folder]);

  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), [...AGENT_OPERATIONS.map((op) => op.name), 'doctor'], 'the verbs, and doctor beside the agent');
  const move = tools.find((tool) => tool.name === 'move')!;
  assert.deepEqual(move.annotations, { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  assert.deepEqual(move.inputSchema.required, ['id', 'state']);

  const lists = (await client.callTool({ name: 'lists', arguments: {} })) as CallToolResult;
  assert.ok(!lists.isError);
  assert.equal(textOf(lists), 'batches  Batches  3 records  write');

  const add = (await client.callTool({ name: 'add', arguments: { list: 'Batches', title: 'Dark mode', owners: ['me'], fields: { size: 'S' } } })) as CallToolResult;
  assert.equal(textOf(add), 'add done');
  assert.deepEqual({ op: keeper.asks.at(-1)!.op, args: keeper.asks.at(-1)!.args }, { op: 'add', args: { list: 'Batches', title: 'Dark mode', owners: ['me'], fields: { size: 'S' } } });

  const refused = (await client.callTool({ name: 'move', arguments: { id: '12', state: 'Done' } })) as CallToolResult;
  assert.equal(refused.isError, true);
  assert.equal(textOf(refused), 'Not done: #12 is not approved: a person approves it before it passes Approved.');

  // An ask longer than a keeper reads is refused at once, saying its size and the limit.
  const asked = keeper.asks.length;
  const huge = (await client.callTool({ name: 'note', arguments: { id: '12', text: 'x'.repeat(70_000) } }, undefined, { timeout: 10_000 })) as CallToolResult;
  assert.equal(huge.isError, true);
  assert.match(textOf(huge), /70,\d{3} bytes.*65,536 bytes/);
  assert.equal(keeper.asks.length, asked, 'nothing was asked');

  // The keeper stops: the next call says so at once (the server's own wait is 20 s, the request's limit 10 s).
  keeper.beat({ stopped: true });
  const asksBefore = keeper.asks.length;
  const nobody = (await client.callTool({ name: 'get', arguments: { id: '12' } }, undefined, { timeout: 10_000 })) as CallToolResult;
  assert.equal(nobody.isError, true);
  assert.match(textOf(nobody), /Nobody keeps this binder right now/);
  assert.equal(keeper.asks.length, asksBefore, 'nothing was asked');

  await until(() => stdout().length >= 6, 10_000, 'the answers in the stdout copy');
  const lines = stdout();
  for (const line of lines) {
    const message = JSON.parse(line) as { jsonrpc?: string; id?: unknown; result?: unknown; error?: unknown; method?: string };
    assert.equal(message.jsonrpc, '2.0', line.slice(0, 200));
    assert.ok('result' in message || 'error' in message || typeof message.method === 'string', line.slice(0, 200));
  }
  const listed = lines.map((line) => JSON.parse(line) as { result?: { tools?: unknown } }).find((m) => m.result?.tools);
  assert.ok(listed, 'the tools/list answer is on stdout');
  const bytes = Buffer.byteLength(JSON.stringify(listed.result));
  t.diagnostic(`tools/list answer: ${bytes} bytes (limit ${TOOLS_LIST_MAX})`);
  assert.ok(bytes < TOOLS_LIST_MAX, `tools/list is ${bytes} bytes`);
  assert.doesNotMatch(stderr(), /Error/);
});

test('binder-mcp with no folder starts, says so on stderr, and every tool answers with how to get one', { timeout: 60_000 }, async (t) => {
  const here = folderlessDir(t);
  const { client, stdout, stderr } = await session(t, here, []);
  const result = (await client.callTool({ name: 'lists', arguments: {} }, undefined, { timeout: 10_000 })) as CallToolResult;
  assert.equal(result.isError, true);
  assert.match(textOf(result), /no \.binder folder here or above/);
  assert.match(textOf(result), /--dir FOLDER/);
  await until(() => stderr().includes('binder-mcp:'), 5_000, 'the line on stderr');
  for (const line of stdout()) assert.equal((JSON.parse(line) as { jsonrpc?: string }).jsonrpc, '2.0');
});
