/**
 * Nothing raw reaches a terminal through a pipe either: `binder get 1 | cat`, `| less -R`, a
 * `script` session or an agent's tool that shows its output to a person are terminals too. Over a
 * binder of hostile records, every face run with its output piped — `binder`, `binder admin`,
 * `binder serve`'s log and `binder-mcp`'s texts — writes no control byte but the line feed (and
 * tab), on stdout and stderr; `--json` stays exact. And no value — a note, a field, a ref, an
 * owner — can start a line of its own: a note that writes `\rAttached:\r  a9 link …` shows no
 * attachment and no history that the record does not have.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openStore } from '../../src/store/index.js';
import { agentWho, personWho } from '../../src/keeper/keeper.js';
import { BINDER_MCP, binderAsync, serveKeeper } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';
import { HOSTILE_NAME, agentRecords, hostileLine, leaks } from './terminal-kit.js';

const ann = personWho('ann');
const agent = agentWho('Bot');

/** Lines a hostile value tries to fake, each after a carriage return or a line feed. */
const FAKE = ['Attached:', '  a9 link https://fake.example', 'History (99):', '  2026-01-01 00:00 root approve (approved)'];
const faking = (prefix: string, at: string): string => `${prefix}${at}${FAKE.join(at)}`;

/** Any byte a terminal would act on: every C0 control but the line feed and tab, DEL, C1, bidi controls. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function controlsIn(text: string): string[] {
  const found = CONTROL.exec(text);
  return found ? [`${JSON.stringify(found[0])} near ${JSON.stringify(text.slice(Math.max(0, found.index - 20), found.index + 20))}`] : [];
}

/** Lines of `text` that only a faked value could have made. */
function fakeLines(text: string): string[] {
  const lines = text.split('\n');
  const bad = lines.filter((line) => /^ {2}a9 link/.test(line) || /^ {2}2026-01-01 00:00 root approve/.test(line) || /^History \(99\):/.test(line));
  const attached = lines.filter((line) => line.startsWith('Attached:')).length;
  return attached > 1 ? [...bad, `${attached} lines start with Attached:`] : bad;
}

async function setup(t: TestContext) {
  const root = mkdtempSync(join(tmpdir(), 'binder-pipes-'));
  const storeDir = join(root, 'store');
  const dir = join(root, 'work', '.binder');
  mkdirSync(dir, { recursive: true });
  const store = openStore(storeDir);
  const list = (await store.createList({ template: 'batches' }, ann)).id;
  await store.editList(list, { fields: [{ name: 'Branch', type: 'text' }, { name: 'Reviewer', type: 'person' }] }, ann);
  await store.addSide(dir, 'Bot', ann);
  await store.grant(list, agent.id, 'write', ann);
  await agentRecords(store, agent, list);
  // A record whose every value an agent writes tries to fake lines of it, with \r, \n and \r\n.
  const faked = await store.add(list, {
    title: 'Faked lines',
    note: faking('ok', '\r'),
    fields: { branch: faking('main', '\n') },
    owners: ['person:x\r\nAttached:\r\n  a9 link https://fake.example'],
  }, agent);
  await store.note(faked.id, faking('second', '\n'), agent);
  await store.attach(faked.id, { kind: 'link', ref: faking('https://ok.example', '\r'), title: 'the ref fakes lines' }, agent);
  // Record 1 (its title hostile) waits on the faked one: `ready --blocked` and `get` name both.
  await store.needs(1, [String(faked.id)], agent);
  await store.close();
  // A CSV whose column names and cells are hostile: the import shows its mapping and what it left out.
  writeFileSync(join(root, 'hostile.csv'), `title,${hostileLine('Column').replace(/,/g, ' ')}\r\n"${faking('Row', '\r')}",x\r\n`);
  t.after(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));
  return { root, storeDir, dir, list, faked: faked.id, work: join(root, 'work') };
}

test('every face with its output piped: no control byte but the line feed, --json exact, no value on a line of its own', { timeout: 120_000 }, async (t) => {
  const s = await setup(t);
  const keeper = await serveKeeper(t, ['--store', s.storeDir]);
  const env = { BINDER_DIR: '', BINDER_STORE: s.storeDir };
  const evil = hostileLine('Argv');
  const agentLines = [
    ['lists'], ['show', s.list], ['get', '1'], ['get', String(s.faked)], ['search', 'evil'], ['search', 'second'], ['brief'], ['ready'],
    ['move', '1', evil], ['add', s.list, 'x', '--state', evil], ['edit', '1', '--field', `nope=${evil}`], ['show', evil],
    ['ready', '--blocked'], ['needs', '1', String(s.faked)],
  ];
  const personLines = [
    ['lists'], ['show', s.list], ['get', '1'], ['get', String(s.faked)], ['search', 'evil'], ['brief'],
    ['move', '1', evil], ['edit', '1', '--owner', HOSTILE_NAME], ['show', evil], ['ready', '--blocked'],
    // A binder moved out and in: the words around the data, and the file names they quote.
    ['import', join(s.root, 'hostile.csv'), '--into', s.list, '--yes'], ['import', join(s.root, 'hostile.csv')],
    ['export', '--out', join(s.root, `out ${HOSTILE_NAME}.json`)], ['backup', join(s.root, `copy ${HOSTILE_NAME}.db`)], ['check'],
  ].map((argv) => ['admin', '--as', 'ann', ...argv]);

  let faces = 0;
  for (const argv of [...agentLines, ...personLines]) {
    const r = await binderAsync(argv, { cwd: s.work, env });
    const what = `binder ${argv.join(' ').slice(0, 60)}`;
    assert.ok(r.code === 0 || r.code === 1, `${what} exited ${r.code}: ${r.err}`);
    for (const [stream, text] of [['stdout', r.out], ['stderr', r.err]] as const) {
      assert.deepEqual(controlsIn(text), [], `${what}: a control byte on ${stream}`);
      assert.deepEqual(leaks(text), [], `${what}: hostile bytes on ${stream}`);
      assert.deepEqual(fakeLines(text), [], `${what}: a value made lines of its own on ${stream}:\n${text}`);
    }
    faces++;
  }
  // What was shown is the records' text, made safe — not nothing.
  const got = await binderAsync(['get', String(s.faked)], { cwd: s.work, env });
  for (const part of ['Branch: main\n  Attached:\n', 'owners @person:x⏎Attached:⏎', 'Notes (2):', ': ok\n    Attached:\n', 'link https://ok.example⏎Attached:⏎', 'History (3):']) {
    assert.ok(got.out.includes(part), `get shows ${part}:\n${got.out}`);
  }

  // --json is exact: the hostile text comes back whole once parsed, its controls \u-escaped.
  const store = openStore(s.storeDir);
  t.after(() => store.close());
  const whole = await store.get(1, ann);
  for (const argv of [['get', '1', '--json'], ['admin', '--as', 'ann', 'get', '1', '--json']]) {
    const r = await binderAsync(argv, { cwd: s.work, env });
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(controlsIn(r.out), [], `${argv.join(' ')}: --json wrote a raw control byte`);
    const data = JSON.parse(r.out) as { record: { title: string; fields: Record<string, string>; owners: string[] } };
    assert.equal(data.record.title, whole.record.title);
    assert.deepEqual(data.record.fields, whole.record.fields);
    assert.deepEqual(data.record.owners, whole.record.owners);
  }

  // MCP: the texts an agent's tool may show a person.
  const mcpEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'BINDER_DIR') mcpEnv[key] = value;
  const client = new Client({ name: 'pipes', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BINDER_MCP, '--dir', s.dir], env: mcpEnv, stderr: 'pipe' }));
  t.after(() => client.close());
  const calls: [string, Record<string, unknown>][] = [
    ['lists', {}], ['show', { list: s.list }], ['get', { id: 1 }], ['get', { id: s.faked }], ['search', { text: 'evil' }],
    ['brief', {}], ['ready', {}], ['move', { id: '1', state: evil }], ['show', { list: evil }],
  ];
  for (const [name, args] of calls) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    assert.ok(text.length > 0, name);
    assert.deepEqual(controlsIn(text), [], `MCP ${name}: a control byte`);
    assert.deepEqual(leaks(text), [], `MCP ${name}: hostile bytes`);
    assert.deepEqual(fakeLines(text), [], `MCP ${name}: a value made lines of its own:\n${text}`);
    faces++;
  }

  // The keeper's own lines, piped: one per answer, each on its line.
  await until(() => keeper.out().includes('refused'), 10_000, 'the keeper\'s lines');
  await keeper.stop();
  for (const [stream, text] of [['stdout', keeper.out()], ['stderr', keeper.err()]] as const) {
    assert.deepEqual(controlsIn(text), [], `binder serve: a control byte on ${stream}`);
    assert.deepEqual(leaks(text), [], `binder serve: hostile bytes on ${stream}`);
    assert.deepEqual(fakeLines(text), [], `binder serve: a value made lines of its own on ${stream}`);
  }
  t.diagnostic(`${faces} command lines and MCP calls, and the keeper's log, all piped: 0 control bytes, 0 faked lines`);
});
