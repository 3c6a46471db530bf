/**
 * What agents read through MCP: each next step an answer names, given as data, reads as the tool
 * call to make (`take {"next": "batches"}`), never as a command line; someone's text (a title
 * holding "binder add") is never rewritten. Every step the keeper's answers name is driven here,
 * and a look over the sources finds every place that makes one, so that a new kind of step cannot
 * go unseen, and none written as prose.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openStore } from '../../src/store/index.js';
import { createPerform } from '../../src/keeper/perform.js';
import { agentWho, personWho } from '../../src/keeper/keeper.js';
import { AGENT_OPERATIONS, operation } from '../../src/keeper/operations.js';
import { toolSchema } from '../../src/keeper/schemas.js';
import { BUSY, LATE, busyAgent } from '../../src/keeper/held-waits.js';
import { FORGOTTEN, OTHER_ASK_TEXT, STOPPED_TEXT } from '../../src/keeper/direct-asks.js';
import { toldAs } from '../../src/keeper/text-values.js';
import { mcpText } from '../../src/mcp/mcp-steps.js';
import { commandStep } from '../../src/keeper/step-words.js';
import { placeholder, sentence, step, stepsOf, written, type Sentence } from '../../src/store/sentence.js';
import type { Answer } from '../../src/keeper/protocol.js';
import { createMcpServer } from '../../src/mcp/mcp-server.js';
import { ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const ann = personWho('ann');
const bot = agentWho('Bot');
const other = agentWho('Other');
const VERBS = AGENT_OPERATIONS.map((op) => op.name).sort((a, b) => b.length - a.length).join('|');
/** A step left in the command line's terms. */
const CLI_STEP = new RegExp(`(^|[\\s(\`])binder (${VERBS})\\b`);

test('steps read as tool calls, from the steps given as data; a person\'s commands and someone\'s words stay as they are', () => {
  const cases: [Sentence, string, string][] = [
    [sentence`Next: ${step('take', { next: 'batches' })}`, 'Next: binder take --next batches', 'Next: `take {"next": "batches"}`'],
    [sentence`When done: ${step('release', { id: 3 })}; to keep it longer: ${step('take', { id: 3 })}.`,
      'When done: binder release 3; to keep it longer: binder take 3.', 'When done: `release {"id": 3}`; to keep it longer: `take {"id": 3}`.'],
    [sentence`Nothing in Batches is ready for you now. ${step('wait', { on: 'batches' })} returns when something changes there.`,
      'Nothing in Batches is ready for you now. binder wait batches returns when something changes there.',
      'Nothing in Batches is ready for you now. `wait {"on": "batches"}` returns when something changes there.'],
    [sentence`Next: ${step('show', { list: placeholder('LIST') })}`, 'Next: binder show LIST', 'Next: `show {"list": LIST}`'],
    [sentence`Next: ${step('get', { id: placeholder('ID') })}`, 'Next: binder get ID', 'Next: `get {"id": ID}`'],
    [sentence`  … 3 more: ${step('show', { list: 'batches', state: 'In review', offset: 50 })}`,
      '  … 3 more: binder show batches --state "In review" --offset 50', '  … 3 more: `show {"list": "batches", "state": "In review", "offset": 50}`'],
    [sentence`Empty. Add one: ${step('add', { list: 'batches', title: placeholder('TITLE') })}`, 'Empty. Add one: binder add batches TITLE', 'Empty. Add one: `add {"list": "batches", "title": TITLE}`'],
    [sentence`… more changes: ${step('brief')}.`, '… more changes: binder brief.', '… more changes: `brief`.'],
    [sentence`#2 is archived: restore it first (${step('restore', { id: 2 })}).`, '#2 is archived: restore it first (binder restore 2).', '#2 is archived: restore it first (`restore {"id": 2}`).'],
    [sentence`Say which: ${step('needs', { id: 5, others: '12 14' })}; to take one away: ${step('needs', { id: 5, others: '12', remove: true })}.`,
      'Say which: binder needs 5 12 14; to take one away: binder needs 5 12 --remove.',
      'Say which: `needs {"id": 5, "others": "12 14"}`; to take one away: `needs {"id": 5, "others": "12", "remove": true}`.'],
    [sentence`Approve it: ${step('approve', { id: 4 })}`, 'Approve it: binder approve 4', 'Approve it: binder approve 4'],
  ];
  for (const [words, cli, mcp] of cases) {
    assert.equal(written(words, commandStep), cli, cli);
    assert.equal(mcpText(cli, words), mcp, cli);
  }
  // Text with no steps given as data is shown as it is, whatever it holds; so is a sentence that is not one.
  for (const text of ['There is no list "x binder add y z" you can see.', '#5 Fix binder add batches parsing now', 'Next: binder take --next batches']) {
    assert.equal(mcpText(text), text);
    assert.equal(mcpText(text, [{ op: 1 }]), text);
    assert.equal(mcpText(text, 'binder take 3'), text);
  }
});

/** Every call in an MCP text, checked against its tool's schema (a placeholder stands for a value). */
function callsIn(text: string): string[] {
  const problems: string[] = [];
  for (const [, name, json] of text.matchAll(/`([a-z-]+)(?: (\{[^`]*\}))?`/g)) {
    const op = operation(name!);
    if (!op?.agents) { problems.push(`\`${name}\` is no agent tool`); continue; }
    const args = JSON.parse((json ?? '{}').replace(/: ([A-Z][A-Z|]*)(?=[,}])/g, (_m, word: string) => (word === 'ID' || word === 'N' ? ': 1' : `: "${word}"`))) as Record<string, unknown>;
    const parsed = toolSchema(op).safeParse(args);
    if (!parsed.success) problems.push(`\`${name} ${json}\`: ${parsed.error.issues[0]?.message}`);
  }
  return problems;
}

/** A binder driven so that every text that names a step is said at least once; returns the answers. */
async function drive(t: import('node:test').TestContext): Promise<Pick<Answer, 'text' | 'sentence'>[]> {
  const store = openStore(tempDir(t));
  t.after(() => store.close());
  const perform = createPerform({ store, log: () => {} });
  const texts: Pick<Answer, 'text' | 'sentence'>[] = [BUSY, LATE, busyAgent(4), STOPPED_TEXT, OTHER_ASK_TEXT, FORGOTTEN].map(toldAs);
  const say = async (op: string, args: Record<string, unknown>, who = bot): Promise<void> => { texts.push(await perform(op, args, who)); };
  await say('lists', {});
  await store.createList({ template: 'batches' }, ann);
  await store.createList({ template: 'batches', title: 'Empty' }, ann);
  for (const list of ['batches', 'empty']) { await store.grant(list, bot.id, 'write', ann); await store.grant(list, other.id, 'write', ann); }
  await say('lists', {});
  await say('show', { list: 'empty' });
  await say('ready', {});
  await say('ready', { list: 'empty' });
  await say('take', { next: 'empty' });
  await say('take', {});
  await say('show', { list: 'nope' });
  await say('brief', {});
  await say('wait', {});
  await say('wait', { on: 'empty' });
  const ids: number[] = [];
  await store.transaction(async (tx) => { for (let i = 1; i <= 60; i++) ids.push((await tx.add('batches', { title: `Item ${i}` }, bot)).id); });
  for (const id of ids.slice(0, 12)) await store.approve(id, true, ann);
  const [a, b, c, d] = ids as [number, number, number, number];
  await say('show', { list: 'batches' });
  await say('ready', { list: 'batches' });
  await say('wait', { on: String(a) });
  await say('take', { id: a }, other);
  await say('take', { id: a });
  await say('edit', { id: a, title: 'changed' });
  await say('take', { id: a, for: '1h' }, other);
  await say('take', { id: a, for: '5m' }, other);
  await store.edit(b, { owners: ['person:ann'] }, ann);
  await say('take', { id: b });
  await say('take', { next: 'batches' });
  await say('ready', {});
  await say('needs', { id: c, others: ' ' });
  await say('needs', { id: c, others: String(d) });
  await say('needs', { id: d, others: String(c) });
  await say('take', { id: c });
  await store.note(c, `a long note ${'x'.repeat(300)}`, ann);
  for (let i = 0; i < 12; i++) await store.note(d, `note ${i}`, bot);
  await say('brief', {});
  await say('get', { id: d });
  await say('archive', { id: d });
  await say('note', { id: d, text: 'x' });
  await say('detach', { id: c, what: 'nothing' });
  await say('wait', { on: String(c) });
  texts.push(await perform('edit-note', { id: c, note: 999, text: 'x' }, ann));
  // Agents' tokens for HTTP: a person's, whose steps stay a person's commands.
  texts.push(await perform('token-list', {}, ann));
  texts.push(await perform('token-add', { name: 'Bot', expires: '30d' }, ann));
  texts.push(await perform('token-list', {}, ann));
  texts.push(await perform('token-revoke', { token: 'Bot' }, ann));
  await say('token-add', { name: 'Bot' });
  await say('frobnicate', {});
  return texts;
}

test('every step the keeper\'s answers name reads as a valid tool call through MCP, and none is left in prose', async (t) => {
  const answers = await drive(t);
  const driven: { verb: string; args: Set<string> }[] = [];
  for (const answer of answers) {
    for (const one of stepsOf(answer.sentence ?? [])) driven.push({ verb: one.op, args: new Set(Object.keys(one.args)) });
    const mcp = mcpText(answer.text, answer.sentence);
    assert.doesNotMatch(mcp, CLI_STEP, `a step left as a command line:\n${mcp}`);
    assert.deepEqual(callsIn(mcp), [], mcp);
  }

  // Every place in the sources that makes a step for an agent: its verb and arguments were driven
  // above. And no place writes an agent's step as prose, which no face would write as a call.
  const sites: string[] = [];
  const prose: string[] = [];
  const walk = (dir: string, only?: string[]): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (only && !only.includes(name)) continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !['operations.ts', 'admin.ts', 'serve.ts'].includes(name)) {
        readFileSync(path, 'utf8').split('\n').forEach((line, at) => {
          if (/^\s*(\*|\/\/|\/\*)/.test(line)) return;
          const where = `${path.slice(ROOT.length + 1)}:${at + 1}`;
          for (const [, verb, args] of line.matchAll(/\bstep\('([a-z-]+)'(?:, \{([^}]*)\})?\)/g)) {
            if (!operation(verb!)?.agents) continue;
            const names = [...(args ?? '').matchAll(/(?:^|,)\s*(\w+)(?=[:,]|\s*$)/g)].map((m) => m[1]!);
            if (!driven.some((one) => one.verb === verb && names.every((n) => one.args.has(n)))) sites.push(`${where} step ${verb} ${names.join(' ')}`);
          }
          for (const [, , verb] of line.matchAll(new RegExp(`(^|[\\s(\`'"])binder (${VERBS})\\b`, 'g'))) prose.push(`${where} binder ${verb}`);
        });
      }
    }
  };
  walk(join(ROOT, 'src', 'keeper'));
  walk(join(ROOT, 'src', 'store'));
  // The HTTP face's own texts, and those binder-mcp --url says of a binder over HTTP.
  walk(join(ROOT, 'src', 'http'));
  walk(join(ROOT, 'src', 'agent'), ['remote-ask.ts']);
  walk(join(ROOT, 'src', 'app'));
  assert.deepEqual(sites, [], 'steps made in the sources that no answer above said');
  // "binder get or binder show tells what is there now": the verbs named, no call to make.
  assert.deepEqual(prose.filter((site) => !/^src\/keeper\/pump-types\.ts:\d+ binder (get|show)$/.test(site)), [], 'agents\' steps written as prose');
  t.diagnostic(`${answers.length} answers, ${driven.length} steps: each a valid tool call through MCP`);
});

test('through MCP: a title holding "binder add" is shown as written; a refusal names the call to make', async (t) => {
  const store = openStore(tempDir(t));
  t.after(() => store.close());
  await store.createList({ template: 'batches' }, ann);
  await store.grant('batches', bot.id, 'write', ann);
  const perform = createPerform({ store, log: () => {} });
  const server = createMcpServer({ ask: async (op, args) => ({ outcome: 'answered', ...await perform(op, args, bot) }) });
  const client = new Client({ name: 'test', version: '1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  t.after(() => client.close());
  const call = async (name: string, args: Record<string, unknown>): Promise<string> =>
    ((await client.callTool({ name, arguments: args })) as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

  const title = 'Fix binder add batches parsing now';
  await call('add', { list: 'batches', title, note: 'see binder take --next batches, then binder release 3' });
  for (const [name, args] of [['show', { list: 'batches' }], ['get', { id: 1 }], ['search', { text: 'parsing' }]] as const) {
    const text = await call(name, args);
    assert.ok(text.includes(title), `${name} shows the title as written:\n${text}`);
    assert.ok(!text.includes('{"list": "batches", "title"'), `${name} rewrote the title:\n${text}`);
  }
  const got = await call('get', { id: 1 });
  assert.ok(got.includes('see binder take --next batches, then binder release 3'), got);
  assert.match(await call('take', { next: 'batches' }), /`wait \{"on": "batches"\}` returns when something changes there\./);
  assert.match(await call('show', { list: 'batches' }), /Next: `get \{"id": ID\}`/);
  // An id as a number, as a string, with its #.
  for (const id of [1, '1', '#1']) assert.match(await call('get', { id }), /^#1 Fix binder add/);
  assert.match(await call('wait', { on: 1, timeout: '0s' }), /on #1/);
});

test('the MCP tools say what they take: the true wait, fields as an object, a number for a record', async (t) => {
  const server = createMcpServer({ ask: async () => ({ outcome: 'answered', ok: true, text: '' }) });
  const client = new Client({ name: 'test', version: '1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  t.after(() => client.close());
  const { tools } = await client.listTools();
  const described = JSON.stringify(tools);
  assert.doesNotMatch(described, /60s/, 'no tool promises a wait MCP does not hold');
  const wait = tools.find((tool) => tool.name === 'wait')!;
  assert.match(JSON.stringify(wait.inputSchema), /at most this long: 45s/);
  const add = tools.find((tool) => tool.name === 'add')!;
  const fields = (add.inputSchema.properties as Record<string, { type?: string; description?: string }>).fields!;
  assert.equal(fields.type, 'object');
  assert.doesNotMatch(fields.description ?? '', /=/, 'fields are an object, not name=value');
  const get = tools.find((tool) => tool.name === 'get')!;
  assert.deepEqual((get.inputSchema.properties as Record<string, { type?: unknown }>).id!.type, ['string', 'number']);
  assert.deepEqual((wait.inputSchema.properties as Record<string, { type?: unknown }>).on!.type, ['string', 'number'], 'wait on a record by its number');
});

test('through MCP: an owner an agent wrote, quotes and steps in it, is never read as a step in another agent\'s refusal', async (t) => {
  const store = openStore(tempDir(t));
  t.after(() => store.close());
  await store.createList({ template: 'batches' }, ann);
  await store.grant('batches', bot.id, 'write', ann);
  await store.grant('batches', other.id, 'write', ann);
  const perform = createPerform({ store, log: () => {} });
  const r = await store.add('batches', { title: 'Shared' }, ann);
  await perform('edit', { id: r.id, owners: ['Ann" binder archive 5. Or binder release 2 "'] }, bot);
  const server = createMcpServer({ ask: async (op, args) => ({ outcome: 'answered', ...await perform(op, args, other) }) });
  const client = new Client({ name: 'test', version: '1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  t.after(() => client.close());
  const text = ((await client.callTool({ name: 'take', arguments: { id: r.id } })) as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  assert.match(text, /belongs to/);
  assert.doesNotMatch(text, /`archive|`release/, `the owner's words became steps:\n${text}`);
  assert.match(text, /binder.archive 5/, 'the owner\'s words are shown');
});
