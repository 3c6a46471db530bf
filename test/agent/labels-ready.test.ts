/**
 * Labels from the agent's side and a query for `ready`, end to end against `binder serve
 * --no-tui`: through the binder command (`--label`, `ready --query`), through binder-mcp (`label`,
 * `query`) and over REST, all from the one catalog entry; and a list whose parents wait for
 * their children, set by `binder admin edit-list --children-first`.
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
import { ann, served } from '../http/kit.js';

function setUp(t: import('node:test').TestContext) {
  const root = tempDir(t);
  const store = join(root, 'store');
  const folder = join(root, 'site', '.binder');
  mkdirSync(folder, { recursive: true });
  const admin = (...args: string[]) => binder(['admin', '--store', store, '--as', 'ann', ...args]);
  assert.equal(admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  assert.equal(admin('edit-list', 'tasks', '--add-field', 'Labels:labels:bug|ui|urgent|wontfix').code, 0);
  assert.equal(admin('create-list', 'Plain', '--template', 'blank').code, 0);
  assert.equal(admin('side', 'add', folder, 'Agent').code, 0);
  assert.equal(admin('grant', 'tasks', 'Agent', 'write').code, 0);
  assert.equal(admin('grant', 'plain', 'Agent', 'write').code, 0);
  return { store, folder, admin };
}

test('binder add/edit --label and ready --query; a list\'s parents wait for their children once it says so', { timeout: 120_000 }, async (t) => {
  const { store, folder, admin } = setUp(t);
  await serveKeeper(t, ['--store', store]);
  const agent = (...args: string[]) => binderAsync(args, { cwd: join(folder, '..') });

  const crash = await agent('add', 'Tasks', 'Crash on save', '--label', 'bug', '--label', 'ui');
  assert.equal(crash.code, 0, crash.err);
  assert.match(crash.out, /^Added #1 to tasks/);
  const edited = await agent('edit', '1', '--label', '+urgent', '--label', '-ui');
  assert.equal(edited.code, 0, edited.err);
  const view = JSON.parse((await agent('--json', 'get', '1')).out) as { record: { fields: Record<string, string> } };
  assert.equal(view.record.fields.labels, 'bug urgent');
  const closed = await agent('edit', '1', '--label', 'question');
  assert.equal(closed.code, 1);
  assert.match(closed.err, /takes the labels bug, ui, urgent, wontfix: "question" is not one/);
  const none = await agent('add', 'Plain', 'No labels here', '--label', 'bug');
  assert.equal(none.code, 1);
  assert.match(none.err, /"Plain" has no labels field/);
  const both = await agent('edit', '1', '--label', '+ui', '--field', 'Labels=wontfix');
  assert.equal(both.code, 1);
  assert.match(both.err, /given twice, as labels and as the field Labels: give them one way, not both/);

  assert.equal((await agent('add', 'Tasks', 'Dark mode', '--label', 'ui')).code, 0);
  const bugs = await agent('ready', 'Tasks', '--query', 'label:bug');
  assert.equal(bugs.code, 0, bugs.err);
  assert.match(bugs.out, /#1 Crash on save/);
  assert.doesNotMatch(bugs.out, /Dark mode/);
  assert.match(bugs.out, /Next: binder take 1\b/, 'take --next reads no query: the first found is named');
  const bad = await agent('ready', 'Tasks', '--query', 'colour:red');
  assert.notEqual(bad.code, 0);
  assert.match(bad.err, /there is no key "colour"/);

  // Children first: the parent waits while a record under it is not done.
  assert.equal((await agent('add', 'Tasks', 'Part of the crash', '--parent', '1')).code, 0);
  assert.match((await agent('ready', 'Tasks')).out, /#1 Crash on save/, 'off by default');
  const set = admin('edit-list', 'tasks', '--children-first', 'on');
  assert.equal(set.code, 0, set.err);
  assert.match(set.out, /a parent is ready once its children are done/);
  const waiting = await agent('ready', 'Tasks');
  assert.doesNotMatch(waiting.out, /#1 Crash on save/);
  assert.match(waiting.out, /#3 Part of the crash/);
});

test('binder-mcp: add and edit take label, ready takes query; REST takes the same', { timeout: 120_000 }, async (t) => {
  const { store, folder } = setUp(t);
  await serveKeeper(t, ['--store', store]);
  const transport = new StdioClientTransport({ command: process.execPath, args: [BINDER_MCP, '--dir', folder], stderr: 'pipe' });
  const client = new Client({ name: 'labels', version: '1' });
  await client.connect(transport);
  t.after(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r: CallToolResult) => (r.content[0]?.type === 'text' ? r.content[0].text : '');

  assert.equal((await call('add', { list: 'Tasks', title: 'Crash on save', label: ['bug', 'ui'] })).isError, undefined);
  assert.equal((await call('add', { list: 'Tasks', title: 'Dark mode', label: ['ui'] })).isError, undefined);
  assert.equal((await call('edit', { id: 1, label: ['+urgent', '-ui'] })).isError, undefined);
  assert.match(text(await call('get', { id: 1 })), /bug urgent/);
  const ready = text(await call('ready', { list: 'Tasks', query: 'label:urgent' }));
  assert.match(ready, /#1 Crash on save/);
  assert.doesNotMatch(ready, /Dark mode/);
  const refused = await call('add', { list: 'Plain', title: 'x', label: ['bug'] });
  assert.equal(refused.isError, true);
  assert.match(text(refused), /has no labels field/);
  const twice = await call('add', { list: 'Tasks', title: 'Twice', label: ['bug'], fields: { Labels: 'ui' } });
  assert.equal(twice.isError, true);
  assert.match(text(twice), /given twice, as labels and as the field Labels/);

  // REST: the same catalog entry, the same argument.
  const s = await served(t);
  const list = await s.store.list('batches', ann);
  await s.store.editList('batches', { fields: [...list.fields.map((f) => ({ ...f })), { name: 'Labels', type: 'labels' }] }, ann);
  const added = await s.call('POST', '/api/add', { body: { list: 'Batches', title: 'Over REST', label: ['bug', 'ui'] } });
  assert.equal(added.status, 200, added.json.text);
  const id = (added.json.data as { id: number }).id;
  const changed = await s.call('POST', '/api/edit', { body: { id, label: '-ui' } });
  assert.equal(changed.status, 200, changed.json.text);
  assert.equal((changed.json.data as { fields: Record<string, string> }).fields.labels, 'bug');
  const doubled = await s.call('POST', '/api/edit', { body: { id, label: '+ui', fields: { Labels: 'wontfix' } } });
  assert.equal(doubled.status, 400, doubled.json.text);
  assert.match(String(doubled.json.text), /given twice, as labels and as the field Labels/);
  assert.equal((await s.store.get(id, ann)).record.fields.labels, 'bug');
});
