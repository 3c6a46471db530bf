/** The MCP tools, in memory against a fake ask: one per agent verb, from the catalog, with its words. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type AskKeeper } from '../../src/mcp/mcp-server.js';
import { AGENT_OPERATIONS, OPERATIONS, onlyAPerson } from '../../src/keeper/operations.js';
import { NOT_KNOWN } from '../../src/agent/ask.js';
import { DISK_FULL_TEXT } from '../../src/keeper/folder-pump.js';

async function connected(ask: AskKeeper): Promise<Client> {
  const server = createMcpServer({ ask });
  const client = new Client({ name: 'test', version: '1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

test('one tool per agent verb, with the catalog\'s title, words, shape and all four hints', async (t) => {
  const client = await connected(async () => ({ outcome: 'answered', ok: true, text: '' }));
  t.after(() => client.close());
  assert.match(client.getInstructions() ?? '', /#12/);
  assert.match(client.getInstructions() ?? '', /person approved/);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), AGENT_OPERATIONS.map((op) => op.name));
  for (const op of AGENT_OPERATIONS) {
    const tool = tools.find((one) => one.name === op.name)!;
    const repeats = op.title.toLowerCase().split(' ').includes(op.name);
    assert.equal(tool.title, repeats ? undefined : op.title, 'a title that repeats the name (Show a list) is left out');
    assert.equal(tool.description, op.describe);
    assert.deepEqual(tool.annotations, op.readOnly ? { readOnlyHint: true, openWorldHint: false }
      : { readOnlyHint: false, destructiveHint: false, idempotentHint: op.idempotent, openWorldHint: false });
    const shown = Object.entries(op.args).filter(([, arg]) => !arg.hidden);
    assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}).sort(), shown.map(([name]) => name).sort(), op.name);
    assert.deepEqual([...(tool.inputSchema.required ?? [])].sort(), shown.filter(([, a]) => a.required).map(([n]) => n).sort(), op.name);
    for (const [name, arg] of shown) {
      const property = (tool.inputSchema.properties as Record<string, { description?: string; enum?: string[] }>)[name]!;
      // Said as a tool's caller sends it: an object of fields, a list of owners, the wait MCP allows.
      if (arg.kind === 'fields') assert.match(property.description ?? '', /by field name/);
      else if (arg.kind === 'owners') assert.match(property.description ?? '', /\[\] for none/);
      else if (name === op.holds) assert.match(property.description ?? '', /45s/);
      // How a record is named is said once, in the instructions, not in every tool.
      else if (arg.kind === 'record') assert.equal(property.description, undefined, `${op.name}.${name}`);
      else assert.equal(property.description, arg.describe, `${op.name}.${name}`);
      if (arg.choices) assert.deepEqual(property.enum, [...arg.choices]);
    }
  }
});

test('every tool asks its operation with its arguments; refusals, missing keepers and outcomes not known are isError', async (t) => {
  const asked: [string, Record<string, unknown>][] = [];
  const client = await connected(async (op, args) => {
    asked.push([op, args]);
    if (op === 'move') return { outcome: 'answered', ok: false, text: '#12 is not approved.' };
    if (op === 'archive') return { outcome: 'nobody', text: 'Nobody keeps this binder right now.' };
    if (op === 'restore') return { outcome: 'no-folder', text: 'There is no .binder folder here or above.' };
    if (op === 'release') return { outcome: 'unknown', id: 'a1', text: NOT_KNOWN };
    return { outcome: 'answered', ok: true, text: `${op}: done` };
  });
  t.after(() => client.close());
  const calls: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['lists', {}, {}],
    ['show', { list: 'Batches', state: 'Doing', mine: true, archived: false, offset: 50 }, { list: 'Batches', state: 'Doing', mine: true, archived: false, offset: 50 }],
    ['get', { id: '#12' }, { id: '#12' }],
    ['search', { text: 'dark mode', archived: true }, { text: 'dark mode', archived: true }],
    ['add', { list: 'Batches', title: 'Dark mode', state: 'Doing', due: '2026-11-04 09:00', owners: ['me'], note: 'login only', fields: { size: 'S' } },
      { list: 'Batches', title: 'Dark mode', state: 'Doing', due: '2026-11-04 09:00', owners: ['me'], note: 'login only', fields: { size: 'S' } }],
    ['edit', { id: '12', title: 'Dark mode, all', due: 'none', owners: ['none'] }, { id: '12', title: 'Dark mode, all', due: '', owners: [] }],
    ['move', { id: '12', state: 'Done' }, { id: '12', state: 'Done' }],
    ['note', { id: '12', text: 'tests pass' }, { id: '12', text: 'tests pass' }],
    ['attach', { id: '12', kind: 'branch', ref: 'site:dark-mode', title: 'the work' }, { id: '12', kind: 'branch', ref: 'site:dark-mode', title: 'the work' }],
    ['detach', { id: '12', what: 'site:dark-mode' }, { id: '12', what: 'site:dark-mode' }],
    ['archive', { id: '12' }, { id: '12' }],
    ['restore', { id: '12' }, { id: '12' }],
    ['take', { next: 'Batches', for: '2h' }, { next: 'Batches', for: '2h' }],
    ['release', { id: '12', note: 'done' }, { id: '12', note: 'done' }],
    ['needs', { id: '20', others: '12 14', remove: false }, { id: '20', others: '12 14', remove: false }],
    ['ready', { list: 'Batches', blocked: true }, { list: 'Batches', blocked: true }],
    ['brief', {}, {}],
    // A wait through MCP is held no longer than an MCP client waits for a result.
    ['wait', { on: '12', timeout: '5m' }, { on: '12', timeout: '45s' }],
  ];
  assert.deepEqual(calls.map(([name]) => name), AGENT_OPERATIONS.map((op) => op.name), 'every tool is called');
  for (const [name, given, args] of calls) {
    const result = (await client.callTool({ name, arguments: given })) as CallToolResult;
    assert.deepEqual(asked.at(-1), [name, args], name);
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    if (name === 'move') {
      assert.equal(result.isError, true);
      assert.equal(text, 'Not done: #12 is not approved.');
    } else if (name === 'release') {
      assert.equal(result.isError, true);
      assert.match(text, /^Not known whether this was done: .* Look before asking again \(get, show\)/);
    } else if (name === 'archive' || name === 'restore') {
      assert.equal(result.isError, true, name);
      assert.match(text, name === 'archive' ? /Nobody keeps/ : /no \.binder folder/);
    } else {
      assert.ok(!result.isError, name);
      assert.equal(text, `${name}: done`);
    }
  }
  const before = asked.length;
  const wrong = (await client.callTool({ name: 'attach', arguments: { id: '12', kind: 'parcel', ref: 'x' } })) as CallToolResult;
  assert.equal(wrong.isError, true, 'an argument outside the shape is refused');
  assert.equal(asked.length, before, 'and nothing is asked');
});

test('a call to a person\'s operation says whose it is and how to have it done; the tool list stays the agent\'s', async (t) => {
  let asked = 0;
  const client = await connected(async () => { asked++; return { outcome: 'answered', ok: true, text: 'done' }; });
  t.after(() => client.close());
  for (const op of OPERATIONS) {
    if (op.agents) continue;
    const result = (await client.callTool({ name: op.name, arguments: { id: '3' } })) as CallToolResult;
    assert.equal(result.isError, true, op.name);
    assert.deepEqual(result.content, [{ type: 'text', text: `Not done: ${onlyAPerson(op)}` }], op.name);
  }
  const frob = (await client.callTool({ name: 'frobnicate', arguments: {} })) as CallToolResult;
  assert.equal(frob.isError, true);
  assert.equal(asked, 0, 'nothing was asked');
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), AGENT_OPERATIONS.map((op) => op.name));
  assert.equal(((await client.callTool({ name: 'lists', arguments: {} })) as CallToolResult).isError, undefined, 'an agent\'s tool still works');
});

test('the keeper\'s own refusal (a full disk) reads after one "Not done: " through MCP too', async (t) => {
  const client = await connected(async () => ({ outcome: 'answered', ok: false, text: DISK_FULL_TEXT }));
  t.after(() => client.close());
  const result = (await client.callTool({ name: 'lists', arguments: {} })) as CallToolResult;
  assert.equal(result.isError, true);
  assert.deepEqual(result.content, [{ type: 'text', text: 'Not done: The disk that holds the binder is full: nothing was changed; ask again once a person has made room.' }]);
});
