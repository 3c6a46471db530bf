/**
 * An agent's whole day, end to end, against `binder serve --no-tui`: a person makes a Batches
 * list and grants the agent; the agent adds three records, is refused moving one past the gate,
 * a person approves it, the agent moves it, notes a result, attaches a branch and a link,
 * searches, archives one — through the command, and again through MCP.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BINDER_MCP, binderAsync, binder, serveKeeper } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

function personAndKeeperSetup(t: import('node:test').TestContext) {
  const root = tempDir(t);
  const store = join(root, 'store');
  const folder = join(root, 'site', '.binder');
  mkdirSync(folder, { recursive: true });
  const admin = (...args: string[]) => binder(['admin', '--store', store, '--as', 'ann', ...args]);
  assert.equal(admin('create-list', 'Batches', '--template', 'batches').code, 0);
  assert.equal(admin('side', 'add', folder, 'Agent').code, 0);
  assert.equal(admin('grant', 'batches', 'Agent', 'write').code, 0);
  return { root, store, folder, admin };
}

test('an agent\'s day through the binder command', { timeout: 120_000 }, async (t) => {
  const { store, folder, admin } = personAndKeeperSetup(t);
  await serveKeeper(t, ['--store', store]);
  const agent = (...args: string[]) => binderAsync(args, { cwd: join(folder, '..') });

  const ids: string[] = [];
  for (const title of ['Dark mode', 'Faster login', 'Export to CSV']) {
    const r = await agent('add', 'Batches', title);
    assert.equal(r.code, 0, r.err);
    ids.push(/#(\d+)/.exec(r.out)![1]!);
  }
  const [first, , third] = ids as [string, string, string];
  const refused = await agent('move', first, 'Doing');
  assert.equal(refused.code, 1);
  assert.match(refused.err, /not approved.*Ask a person to approve it/);

  assert.equal(admin('approve', first).code, 0);
  const moved = await agent('move', `#${first}`, 'Doing');
  assert.equal(moved.code, 0, moved.err);

  assert.equal((await agent('note', first, 'dark mode works on every page')).code, 0);
  assert.equal((await agent('attach', first, 'branch', 'site:dark-mode')).code, 0);
  assert.equal((await agent('attach', first, 'link', 'https://example.org/pr/7', 'the pull request')).code, 0);
  const found = await agent('search', 'every page');
  assert.match(found.out, new RegExp(`#${first} Dark mode`));
  assert.equal((await agent('archive', third)).code, 0);

  const json = await agent('--json', 'get', first);
  const view = JSON.parse(json.out) as { record: { state: string; attached: { kind: string }[]; notes: { text: string }[] } };
  assert.equal(view.record.state, 'doing');
  assert.deepEqual(view.record.attached.map((a) => a.kind), ['branch', 'link']);
  assert.equal(view.record.notes[0]?.text, 'dark mode works on every page');
  const shown = await agent('show', 'Batches');
  assert.doesNotMatch(shown.out, /Export to CSV/);
  assert.match((await agent('show', 'Batches', '--archived')).out, /Export to CSV/);
});

test('an agent\'s day through binder-mcp', { timeout: 120_000 }, async (t) => {
  const { store, folder, admin } = personAndKeeperSetup(t);
  await serveKeeper(t, ['--store', store]);
  const transport = new StdioClientTransport({ command: process.execPath, args: [BINDER_MCP, '--dir', folder], stderr: 'pipe' });
  const client = new Client({ name: 'day', version: '1' });
  await client.connect(transport);
  t.after(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r: CallToolResult) => (r.content[0]?.type === 'text' ? r.content[0].text : '');

  const ids: string[] = [];
  for (const title of ['Dark mode', 'Faster login', 'Export to CSV']) {
    const r = await call('add', { list: 'Batches', title });
    assert.equal(r.isError, undefined, text(r));
    ids.push(/#(\d+)/.exec(text(r))![1]!);
  }
  const [first, , third] = ids as [string, string, string];
  const refused = await call('move', { id: first, state: 'Doing' });
  assert.equal(refused.isError, true);
  assert.match(text(refused), /not approved/);
  assert.equal(admin('approve', first).code, 0);
  assert.equal((await call('move', { id: `#${first}`, state: 'Doing' })).isError, undefined);
  assert.equal((await call('note', { id: first, text: 'dark mode works on every page' })).isError, undefined);
  assert.equal((await call('attach', { id: first, kind: 'branch', ref: 'site:dark-mode' })).isError, undefined);
  assert.equal((await call('attach', { id: first, kind: 'link', ref: 'https://example.org/pr/7', title: 'the pull request' })).isError, undefined);
  assert.match(text(await call('search', { text: 'every page' })), new RegExp(`#${first} Dark mode`));
  assert.equal((await call('archive', { id: third })).isError, undefined);
  const got = text(await call('get', { id: first }));
  assert.match(got, /state Doing/);
  assert.match(got, /branch site:dark-mode/);
  assert.match(got, /link https:\/\/example\.org\/pr\/7 "the pull request"/);
  assert.doesNotMatch(text(await call('show', { list: 'Batches' })), /Export to CSV/);
  // A person's operation is no tool at all.
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  for (const forbidden of ['approve', 'delete', 'grant', 'create-list', 'edit-list', 'delete-list']) assert.ok(!tools.includes(forbidden));
});
