/**
 * `binder --url` and `binder-mcp --url` as processes against a served binder: every verb with the
 * same text as through the folder, --json, the exit codes, the token from the environment or a
 * file only its owner reads; and a keeper killed with SIGKILL while changes carrying their
 * Idempotency-Key are asked again: nothing lost, nothing twice; a change never answered is not known
 * (exit 75), and asked again with its id (`--ask-id`, its key) it is done once.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startHttp } from '../../src/http/listen.js';
import { AGENT_OPERATIONS } from '../../src/keeper/operations.js';
import { BINDER, BINDER_MCP, binder, binderAsync, serveKeeper } from '../helpers/processes.js';
import { tempDir, until } from '../helpers/temp.js';
import { ann, folderFor, served, type Served } from './kit.js';

async function listening(t: TestContext, s: Served): Promise<string> {
  const serving = await startHttp(s.keeper, { host: '127.0.0.1', port: 0, behindProxy: false, allowHosts: [] }, { log: () => {} });
  t.after(() => serving.close());
  return serving.url;
}

const env = (token: string | undefined, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const out: NodeJS.ProcessEnv = { ...process.env };
  delete out.BINDER_DIR;
  delete out.BINDER_URL;
  return { ...out, BINDER_TOKEN: token ?? '', ...extra };
};

test('every verb through binder --url: the same text as through the folder, --json, and the exit codes', { timeout: 120_000 }, async (t) => {
  const s = await served(t);
  const url = await listening(t, s);
  const dir = await folderFor(s, 'Claude');
  const token = s.tokens.Claude!;
  const over = (args: string[], extra: NodeJS.ProcessEnv = {}) => binderAsync(['--url', url, ...args], { env: env(token, extra) });
  const through = (args: string[]) => binderAsync(['--dir', dir, ...args], { env: env(undefined) });

  const added = await over(['add', 'Batches', 'Dark mode', '--note', 'login first', '--due', '2026-12-24']);
  assert.equal(added.code, 0, added.err);
  assert.match(added.out, /^Added #1 to batches in Proposed/);
  await s.store.approve(1, true, ann);
  const verbs: [string[], number][] = [
    [['lists'], 0], [['show', 'Batches'], 0], [['get', '1'], 0], [['search', 'dark'], 0],
    [['edit', '1', '--due', '2026-12-31'], 0], [['move', '1', 'Doing'], 0], [['note', '1', 'tests pass'], 0],
    [['attach', '1', 'branch', 'site:dark', 'the work'], 0], [['detach', '1', 'site:dark'], 0],
    [['archive', '1'], 0], [['restore', '1'], 0], [['take', '1', '--for', '1h'], 0], [['release', '1'], 0],
    [['ready', 'Batches'], 0], [['brief'], 0], [['wait', '--timeout', '0s'], 0],
    [['add', 'Batches', 'Dark mode docs'], 0], [['needs', '2', '1'], 0],
  ];
  assert.deepEqual(new Set(['add', ...verbs.map(([args]) => args[0])]), new Set(AGENT_OPERATIONS.map((op) => op.name)), 'every verb');
  for (const [args, code] of verbs) {
    const r = await over(args);
    assert.equal(r.code, code, `${args.join(' ')}: ${r.err}`);
    assert.notEqual(r.out, '', args.join(' '));
  }
  // Reads answer alike through both faces (the agent is one).
  for (const args of [['get', '1'], ['show', 'Batches'], ['lists'], ['search', 'dark'], ['ready', 'Batches']]) {
    const [a, b] = await Promise.all([over(args), through(args)]);
    assert.equal(a.out, b.out, args.join(' '));
    assert.equal(a.code, b.code);
  }
  const json = await over(['get', '1', '--json']);
  assert.equal((JSON.parse(json.out) as { record: { id: number } }).record.id, 1);
  const refused = await over(['move', '1', 'Nowhere']);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /^Not done: "Nowhere" is not a state of "Batches"/);
  const hidden = await over(['show', 'Hidden']);
  assert.equal(hidden.code, 1);
  // Not understood by the server (400): exit 64, as a command line binder itself does not understand.
  const notUnderstood = await over(['take', '1', '--for', '30']);
  assert.equal(notUnderstood.code, 64, notUnderstood.err);
  assert.match(notUnderstood.err, /^Not done: "30" has no unit/);
  const noToken = await binderAsync(['--url', url, 'lists'], { env: env(undefined) });
  assert.equal(noToken.code, 2);
  assert.match(noToken.err, /^No token to ask http:\/\/127\.0\.0\.1:\d+ with: set \$BINDER_TOKEN/);
  const wrong = await binderAsync(['--url', url, 'lists'], { env: env(`binder_${'C'.repeat(43)}`) });
  assert.equal(wrong.code, 1);
  assert.match(wrong.err, /not one this binder knows/);
  const fromEnv = await binderAsync(['lists'], { env: env(token, { BINDER_URL: url }) });
  assert.equal(fromEnv.code, 0, fromEnv.err);
  const folderFirst = await binderAsync(['--dir', dir, 'lists'], { env: env(undefined, { BINDER_URL: 'http://127.0.0.1:9' }) });
  assert.equal(folderFirst.code, 0, `--dir is asked through its folder, whatever $BINDER_URL says: ${folderFirst.err}`);
  const nobody = await binderAsync(['--url', 'http://127.0.0.1:9', 'add', 'Batches', 'x'], { env: env(token, { BINDER_WAIT_MS: '500' }) });
  assert.equal(nobody.code, 3);
  assert.match(nobody.err, /^Nobody answers at http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\): nothing was changed/);
  const clear = binder(['--url', 'http://binder.example.org', 'lists'], { env: env(token) });
  assert.equal(clear.code, 2);
  assert.match(clear.err, /http:\/\/ would send the token in clear to binder\.example\.org: use https:\/\//);
});

test('a change sent and never answered is not known (exit 75, its id given); asked again with --ask-id it is done once', { timeout: 60_000 }, async (t) => {
  const s = await served(t);
  const url = await listening(t, s);
  const token = s.tokens.Claude!;
  // A server that takes the request and never answers: the change may have been done there.
  const held = new Set<Socket>();
  const silent = createServer((socket) => { held.add(socket); socket.resume(); });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.after(() => { for (const socket of held) socket.destroy(); silent.close(); });
  const port = (silent.address() as { port: number }).port;
  const lost = await binderAsync(['--url', `http://127.0.0.1:${port}`, 'add', 'Batches', 'Lost?'], { env: env(token, { BINDER_WAIT_MS: '800' }) });
  assert.equal(lost.code, 75, lost.err);
  assert.match(lost.err, /^Not known whether this was done: no answer came in time from the binder at http:\/\/127\.0\.0\.1:\d+/);
  const id = /--ask-id (\S+)\./.exec(lost.err)?.[1];
  assert.ok(id, lost.err);
  // The id is the change's Idempotency-Key: asked again with it, the answer is the first one's.
  const first = await binderAsync(['--url', url, '--ask-id', id, 'add', 'Batches', 'Once'], { env: env(token) });
  assert.equal(first.code, 0, first.err);
  const again = await binderAsync(['--url', url, '--ask-id', id, 'add', 'Batches', 'Once'], { env: env(token) });
  assert.equal(again.code, 0, again.err);
  assert.equal(again.out, first.out);
  assert.equal((await s.store.show('batches', ann)).records.length, 1, 'done once');
});

test('--token-file: read when only its owner may read it, refused otherwise', { timeout: 60_000 }, async (t) => {
  const s = await served(t);
  const url = await listening(t, s);
  const file = join(s.root, 'token');
  writeFileSync(file, `${s.tokens.Claude}\n`, { mode: 0o644 });
  chmodSync(file, 0o644);
  const open = await binderAsync(['--url', url, '--token-file', file, 'lists'], { env: env(undefined) });
  assert.equal(open.code, 2);
  assert.match(open.err, /may be read by others \(mode 644\): a token is a password; chmod 600 it/);
  chmodSync(file, 0o600);
  const kept = await binderAsync(['--url', url, '--token-file', file, 'lists'], { env: env(undefined) });
  assert.equal(kept.code, 0, kept.err);
  assert.match(kept.out, /batches/);
});

test('binder-mcp --url bridges stdio to a binder over HTTP, as the token\'s agent', { timeout: 60_000 }, async (t) => {
  const s = await served(t);
  const url = await listening(t, s);
  const transport = new StdioClientTransport({ command: process.execPath, args: [BINDER_MCP, '--url', url], env: env(s.tokens.Claude) as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  t.after(() => client.close());
  assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), [...AGENT_OPERATIONS.map((op) => op.name), 'doctor'], 'doctor beside the agent, as through a folder');
  const added = (await client.callTool({ name: 'add', arguments: { list: 'Batches', title: 'Bridged' } })) as CallToolResult;
  assert.ok(!added.isError);
  assert.match(added.content[0]?.type === 'text' ? added.content[0].text : '', /^Added #1/);
  assert.equal((await s.store.get(1, ann)).history[0]!.by.id, 'agent:claude');
  const refused = (await client.callTool({ name: 'move', arguments: { id: '1', state: 'Doing' } })) as CallToolResult;
  assert.equal(refused.isError, true);
  // Steps read as tool calls, as binder-mcp through a folder writes them; someone's text as written.
  const said = (r: CallToolResult): string => (r.content[0]?.type === 'text' ? r.content[0].text : '');
  assert.match(said(refused), /`wait \{"on": "?1"?\}` returns when one does\.$/);
  await s.store.add('batches', { title: 'Fix binder take 1 parsing' }, ann);
  const shown = said((await client.callTool({ name: 'show', arguments: { list: 'batches' } })) as CallToolResult);
  assert.ok(shown.includes('#2 Fix binder take 1 parsing'), shown);
  assert.ok(!shown.includes('\u00a0'), shown);
});

test('a keeper killed with SIGKILL after committing changes it never answered: asked again with their keys, nothing lost, nothing twice', { timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const storeDir = join(root, 'store');
  mkdirSync(join(root, '.binder'));
  assert.equal(binder(['admin', '--store', storeDir, 'create-list', 'Batches', '--template', 'batches']).code, 0);
  const token = binder(['admin', '--store', storeDir, 'token', 'add', 'Claude']).out.split('\n')[0]!;
  assert.equal(binder(['admin', '--store', storeDir, 'grant', 'batches', 'Claude', 'write']).code, 0);
  const side = ['--side', `${join(root, '.binder')}=Claude`];
  // The first keeper dies (SIGKILL) right after its first commit of changes, before answering them.
  const doomed = spawn(process.execPath, [BINDER, 'serve', '--no-tui', '--store', storeDir, ...side, '--http', '127.0.0.1:0'], {
    env: { ...process.env, BINDER_TEST_CRASH_AFTER_COMMIT: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  doomed.stdout.on('data', (c) => { out += c; });
  const died = new Promise<NodeJS.Signals | null>((resolve) => doomed.on('exit', (_code, signal) => resolve(signal)));
  t.after(() => doomed.kill('SIGKILL'));
  const url = (await until(() => /Answering on (http:\/\/[^ ]+) too/.exec(out)?.[1], 15_000, 'the first keeper to listen'))!;
  const titles = Array.from({ length: 8 }, (_, i) => `Change ${i + 1}`);
  const asks = titles.map((title) => binderAsync(['--url', url, 'add', 'Batches', title, '--json'], { env: env(token, { BINDER_WAIT_MS: '60000' }) }));
  assert.equal(await died, 'SIGKILL', 'the first keeper was killed after its commit');
  const port = url.split(':').at(-1)!;
  const next = await serveKeeper(t, ['--store', storeDir, ...side, '--http', `127.0.0.1:${port}`]);
  const answers = await Promise.all(asks);
  for (const [i, r] of answers.entries()) assert.equal(r.code, 0, `${titles[i]}: ${r.err}`);
  const ids = answers.map((r) => (JSON.parse(r.out) as { id: number; title: string }));
  assert.deepEqual(ids.map((r) => r.title), titles, 'each answered with its own record');
  const listed = binder(['admin', '--store', storeDir, 'search', 'Change', '--json']);
  const found = (JSON.parse(listed.out) as { title: string }[]).map((r) => r.title).sort();
  assert.deepEqual(found, [...titles].sort(), 'each change done exactly once');
  await until(() => /answered again over REST/.test(next.out()), 5_000, 'a change answered again from the ledger');
  assert.equal(await next.stop(), 0);
});
