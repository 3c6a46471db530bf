/**
 * What the HTTP face says reads as the other faces say it: REST's text made terminal-safe as
 * `binder` prints it, with `binder ` inside a value as it was written (no no-break space), its JSON
 * with every control escaped and its data exact; MCP over HTTP gives the very texts binder-mcp
 * gives, next steps written as tool calls and someone's text as they wrote it; the stream of
 * changes says each change's line alike.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../src/mcp/mcp-server.js';
import { startHttp } from '../../src/http/listen.js';
import { agentWho } from '../../src/keeper/keeper.js';
import { until } from '../helpers/temp.js';
import { ann, served, HOST, type Served } from './kit.js';

const claude = agentWho('Claude');
const TITLE = 'Fix binder add batches \u001b[31mparsing\u001b[0m now\u202e';
const SHOWN = 'Fix binder add batches parsing now';
const NOTE = 'see binder take --next batches\u009b2J, then binder release 3';
/** What a terminal or a JavaScript reader might act on, raw. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** A binder whose record #1 has a hostile title and note, by a person, and #2 not approved. */
async function hostile(t: TestContext): Promise<Served> {
  const s = await served(t);
  const one = await s.store.add('batches', { title: TITLE }, ann);
  await s.store.note(one.id, NOTE, ann);
  await s.store.add('batches', { title: 'Not approved' }, ann);
  return s;
}

async function raw(s: Served, path: string, headers: Record<string, string> = {}): Promise<{ body: string; json: { ok: boolean; text: string; data: unknown } }> {
  const res = await s.http.app.request(path, { headers: { host: HOST, authorization: `Bearer ${s.tokens.Claude!}`, ...headers } });
  const body = await res.text();
  return { body, json: JSON.parse(body) as { ok: boolean; text: string; data: unknown } };
}

test('REST: texts as safe as binder prints them, values\' "binder " as written, JSON escaped, data exact', async (t) => {
  const s = await hostile(t);
  const got = await raw(s, '/api/get?id=1');
  assert.equal(got.json.ok, true, got.json.text);
  assert.ok(got.json.text.includes(SHOWN), got.json.text);
  assert.doesNotMatch(got.json.text, RAW_CONTROL);
  assert.ok(!got.json.text.includes('\u00a0'), 'no no-break space is left in a value');
  assert.ok(got.json.text.includes('see binder take --next batches'), got.json.text);
  // The body itself: nothing raw a terminal would act on, yet the data is the title exactly.
  assert.doesNotMatch(got.body, RAW_CONTROL);
  assert.equal((got.json.data as { record: { title: string } }).record.title, TITLE);
  // The keeper's own steps stay the command line's: this face is read by people and scripts.
  const refused = await s.call('POST', '/api/move', { body: { id: 2, state: 'Doing' } });
  assert.equal(refused.status, 409);
  assert.match(refused.json.text, /binder wait 2 returns when one does\.$/);

  // A client that finds the steps itself (binder-mcp --url) is given the text as the keeper wrote it.
  const marked = await raw(s, '/api/get?id=1', { 'binder-text': 'marked' });
  assert.ok(marked.json.text.includes('Fix binder\u00a0add batches parsing now'), marked.json.text);
  assert.doesNotMatch(marked.json.text, RAW_CONTROL);
  assert.equal(marked.json.text.replace(/\u00a0/g, ' '), got.json.text);
  // Its steps as data with their places in the text, not the text a second time; someone's
  // "binder add" in a title is no step.
  type Placed = { text: string; steps?: { at: number; to: number; op: string }[]; sentence?: unknown };
  assert.ok(!((marked.json as unknown as Placed).steps ?? []).some((place) => place.op === 'add'));
  const told = (await s.call('POST', '/api/move', { body: { id: 2, state: 'Doing' }, headers: { 'binder-text': 'marked' } })).json as unknown as Placed;
  assert.equal(told.sentence, undefined);
  const wait = told.steps?.find((place) => place.op === 'wait');
  assert.ok(wait, JSON.stringify(told));
  assert.equal(told.text.slice(wait.at, wait.to), 'binder wait 2');
});

async function viaMcp(t: TestContext, s: Served): Promise<Client> {
  const serving = await startHttp(s.keeper, { host: '127.0.0.1', port: 0, behindProxy: false, allowHosts: [] }, { log: () => {} });
  t.after(() => serving.close());
  const c = new Client({ name: 'test', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${serving.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${s.tokens.Claude!}` } },
  }));
  t.after(() => c.close());
  return c;
}

test('MCP over HTTP says what binder-mcp says: steps as tool calls, someone\'s text as written', async (t) => {
  const s = await hostile(t);
  const remote = await viaMcp(t, s);
  // binder-mcp, asking the same keeper as the same agent.
  const local = new Client({ name: 'test', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ ask: async (op, args) => ({ outcome: 'answered', ...await s.keeper.act(op, args, claude) }) });
  await Promise.all([server.connect(b), local.connect(a)]);
  t.after(() => local.close());
  const text = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  const calls: [string, Record<string, unknown>][] = [
    ['get', { id: 1 }], ['show', { list: 'batches' }], ['search', { text: 'parsing' }], ['ready', {}],
    ['move', { id: 2, state: 'Doing' }], ['take', { next: 'batches' }], ['lists', {}],
  ];
  for (const [name, args] of calls) {
    const over = (await remote.callTool({ name, arguments: args })) as CallToolResult;
    const there = (await local.callTool({ name, arguments: args })) as CallToolResult;
    assert.equal(text(over), text(there), name);
    assert.equal(over.isError, there.isError, name);
    assert.doesNotMatch(text(over), RAW_CONTROL, name);
  }
  const got = text((await remote.callTool({ name: 'get', arguments: { id: 1 } })) as CallToolResult);
  assert.ok(got.includes(SHOWN), got);
  assert.ok(got.includes('see binder take --next batches'), `a note's words are not rewritten:\n${got}`);
  assert.ok(!got.includes('\u00a0'), got);
  const taken = text((await remote.callTool({ name: 'take', arguments: { next: 'batches' } })) as CallToolResult);
  assert.match(taken, /`wait \{"on": "batches"\}`/, taken);
  const moved = text((await remote.callTool({ name: 'move', arguments: { id: 2, state: 'Doing' } })) as CallToolResult);
  assert.match(moved, /^Not done: .*`wait \{"on": "?2"?\}` returns when one does\.$/);
});

test('the stream of changes: each change\'s line as safe as brief says it, values\' "binder " as written', async (t) => {
  const s = await served(t);
  const serving = await startHttp(s.keeper, { host: '127.0.0.1', port: 0, behindProxy: false, allowHosts: [] }, { log: () => {} });
  t.after(() => serving.close());
  await s.call('GET', '/api/brief');
  const stop = new AbortController();
  t.after(() => stop.abort());
  const res = await fetch(`${serving.url}/api/changes`, { headers: { authorization: `Bearer ${s.tokens.Claude!}` }, signal: stop.signal });
  assert.equal(res.status, 200);
  let body = '';
  const reading = (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        body += decoder.decode(value, { stream: true });
      }
    } catch {
      // Closed by the test.
    }
  })();
  await s.store.add('batches', { title: TITLE }, ann);
  await until(() => body.includes('event: change'), 10_000);
  stop.abort();
  await reading;
  assert.doesNotMatch(body, RAW_CONTROL);
  const data = body.split('\n').find((l) => l.startsWith('data: '))!.slice('data: '.length);
  const change = JSON.parse(data) as { title: string; line: string };
  assert.equal(change.title, TITLE, 'the data is exact');
  assert.equal(change.line, `#1 ${SHOWN} (batches): added by Ann in Proposed`);
});
