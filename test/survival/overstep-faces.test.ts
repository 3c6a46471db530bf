/**
 * Agents cannot overstep through any face, against a real keeper (`binder serve --no-tui`):
 * the `binder` command (a person's verbs are refused there, saying whose they are: exit 1, nothing
 * asked; forged flags are not understood: exit 64),
 * MCP (`binder-mcp` over stdio: a person's tools do not exist, calling one is an error and asks
 * nothing), and raw ask lines appended to the folder with forged identities (answered refused).
 * The binder is compared whole before and after; a hidden list is told to no face.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openStore } from '../../src/store/index.js';
import { OPERATIONS, personOperation } from '../../src/keeper/operations.js';
import { readCommandLine } from '../../src/agent/command-line.js';
import { ANSWERS_FILE, ASKS_FILE } from '../../src/keeper/protocol.js';
import { BINDER, BINDER_MCP, serveKeeper, type Serving } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';
import { FORGED, HIDDEN, LEDGER, ann, dumpStore, layBinder, leaksHidden, notASentence, withoutEchoes, type Laid } from './fuzz-kit.js';

const PERSON_OPS: readonly string[] = OPERATIONS.filter((o) => !o.agents).map((o) => o.name);

interface Kept { root: string; dir: string; storeDir: string; laid: Laid; dump(): string; asksSize(): number; ends: (() => unknown)[]; said(): string }

/**
 * A binder laid out, its agent's folder registered, and a real keeper keeping it. At the test's
 * end, whatever was pushed on `ends` stops first (last pushed first), then the keeper, then
 * the folder goes: nothing may still write in it when it is removed.
 */
async function keptBinder(t: TestContext): Promise<Kept> {
  const root = mkdtempSync(join(tmpdir(), 'binder-overstep-faces-'));
  const storeDir = join(root, 'store');
  const dir = join(root, 'work', '.binder');
  mkdirSync(dir, { recursive: true });
  const store = openStore(storeDir);
  const ends: (() => unknown)[] = [];
  let keeping: Serving | undefined;
  t.after(async () => {
    for (const end of ends.reverse()) await end();
    await keeping?.stop();
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });
  const laid = await layBinder(store);
  await store.addSide(dir, 'Bot', ann);
  keeping = await serveKeeper(t, ['--store', storeDir, '--quiet']);
  const asks = join(dir, ASKS_FILE);
  return {
    root, dir, storeDir, laid, ends,
    said: () => `${keeping?.out() ?? ''}${keeping?.err() ?? ''}`,
    dump: () => dumpStore(store.db, LEDGER),
    asksSize: () => (existsSync(asks) ? statSync(asks).size : 0),
  };
}

/** The `binder` command as an agent runs it, from its work folder. */
function binder(args: string[], cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const env = { ...process.env };
    delete env.BINDER_DIR;
    const child = spawn(process.execPath, [BINDER, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('close', (code) => done({ code, out, err }));
  });
}

test('the binder command: a person\'s verbs are refused (1), forged flags not understood (64); nothing is asked, nothing changes', async (t) => {
  const k = await keptBinder(t);
  const work = join(k.root, 'work');
  const [first] = k.laid.batches;
  const lines: string[][] = [
    ['approve', `${first}`], ['approve', `${first}`, '--withdraw'], ['delete', `${first}`], ['delete', `#${k.laid.hidden}`],
    ['edit-note', `${first}`, `${k.laid.annNote}`, 'rewritten'], ['templates'], ['create-list', 'Mine', '--template', 'batches'],
    ['edit-list', 'batches', '--ungate', 'Approved'], ['grant', 'tasks', 'Bot', 'write'], ['grant', HIDDEN.id, 'Bot', 'read'],
    ['archive-list', 'batches'], ['delete-list', 'batches'], ['sides'], ['side', 'add', join(k.root, 'x'), 'Ann'], ['side', 'remove', 'Bot'],
    ['side-add', join(k.root, 'x'), 'Ann'], ['admin-approve', `${first}`],
  ];
  const forgedFlags = [[], ['--as', 'ann'], ['--by', 'person:ann'], ['--who', 'ann'], ['--person', 'ann']];
  const agentLies: string[][] = [
    ['add', 'Batches', 'x', '--as', 'ann'], ['add', 'Batches', 'x', '--by', 'ann'], ['move', `${first}`, 'Approved', '--as', 'ann'],
    ['--as', 'ann', 'move', `${first}`, 'Approved'], ['note', `${first}`, 'x', '--person', 'ann'],
  ];
  const before = k.dump();
  const asked = k.asksSize();
  const all = [...lines.flatMap((line) => forgedFlags.map((lie) => [...line, ...lie])), ...agentLies];
  // A person's verb is refused with whose it is (1), whatever flags come with it; the rest is not understood (64).
  const expected = (argv: string[]): number => (personOperation(argv) ? 1 : 64);
  // Every line read as the command reads it; each person's verb, and the lies, run as the real command too.
  for (const argv of all) {
    let said = '';
    const read = await readCommandLine(argv, { out: () => {}, err: (text) => { said += text; } });
    assert.deepEqual(read, { kind: 'done', code: expected(argv) }, `binder ${argv.join(' ')}`);
    if (expected(argv) === 1) assert.match(said, /^Not done: Only a person can /, said);
  }
  const real = [...lines, ...agentLies, ...forgedFlags.slice(1).map((lie) => [...lines[0]!, ...lie])];
  for (let at = 0; at < real.length; at += 4) {
    await Promise.all(real.slice(at, at + 4).map(async (argv) => {
      const r = await binder(argv, work);
      assert.equal(r.code, expected(argv), `binder ${argv.join(' ')} exited ${r.code}: ${r.err}`);
      assert.equal(r.out, '');
    }));
  }
  const tried = all.length + real.length;
  assert.equal(k.asksSize(), asked, 'something was asked');
  assert.equal(k.dump(), before, 'the binder changed');
  // The same folder and keeper do answer an agent's own verb: the refusals above were the verbs'.
  const done = await binder(['add', 'Batches', 'proof the keeper answers'], work);
  assert.equal(done.code, 0, done.err);
  t.diagnostic(`${tried} command lines of a person's verbs or forged identities (${real.length} as real processes): 0 asked, 0 done`);
});

const textOf = (result: CallToolResult): string => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

test('MCP: a person\'s tools do not exist; calling one by name is an error and asks nothing; forged fields are dropped', async (t) => {
  const k = await keptBinder(t);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'BINDER_DIR') env[key] = value;
  const transport = new StdioClientTransport({ command: process.execPath, args: [BINDER_MCP, '--dir', k.dir], env, cwd: k.root, stderr: 'pipe' });
  const client = new Client({ name: 'overstep', version: '1' });
  await client.connect(transport);
  k.ends.push(() => client.close());

  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  assert.deepEqual(names.filter((name) => PERSON_OPS.includes(name)), [], 'a person\'s operation is offered as a tool');
  assert.ok(names.includes('add') && names.includes('move'));
  const described = JSON.stringify(tools);
  assert.deepEqual(leaksHidden(described), []);

  const [first] = k.laid.batches;
  const before = k.dump();
  const asked = k.asksSize();
  let tried = 0;
  const call = async (name: string, args: Record<string, unknown>): Promise<{ error: boolean; text: string }> => {
    tried++;
    try {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      assert.doesNotMatch(textOf(result), /No answer in time|Nobody keeps/, `the keeper did not answer ${name}; it said:\n${k.said()}`);
      return { error: result.isError === true, text: textOf(result) };
    } catch (error) {
      return { error: true, text: error instanceof Error ? error.message : String(error) };
    }
  };
  for (const name of [...PERSON_OPS, 'side add', 'admin', 'approve ', 'APPROVE']) {
    for (const lie of [{}, FORGED]) {
      const r = await call(name, { ...lie, id: String(first), list: 'batches', agent: 'Bot', access: 'write', template: 'batches', note: k.laid.annNote, text: 'x', dir: k.dir, name: 'Ann' });
      assert.equal(r.error, true, `the tool ${name} was called: ${r.text}`);
    }
  }
  assert.equal(k.asksSize(), asked, 'a person\'s tool asked the keeper');
  assert.equal(k.dump(), before, 'the binder changed');

  // An agent's own tools with a forged identity: done as the agent, never approved, never past the gate.
  const added = await call('add', { list: 'Batches', title: 'through MCP', ...FORGED });
  const id = Number(/#(\d+)/.exec(added.text)?.[1]);
  if (!added.error) {
    const asks = readFileSync(join(k.dir, ASKS_FILE), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { op: string; args: Record<string, unknown> });
    const line = asks.find((a) => a.op === 'add')!;
    assert.deepEqual(Object.keys(line.args).filter((key) => key in FORGED), [], 'a forged field reached the ask');
    const check = openStore(k.storeDir);
    const view = await check.get(id, ann);
    await check.close();
    assert.equal(view.history[0]!.by.id, 'agent:bot');
    assert.equal(view.record.approved, null);
  }
  for (const lie of [{}, FORGED]) {
    const moved = await call('move', { ...lie, id: String(first), state: 'Approved' });
    assert.equal(moved.error, true, moved.text);
    assert.match(moved.text, /not approved/);
  }

  // Reads of the hidden list, against what does not exist.
  const hidden = await call('get', { id: String(k.laid.hidden) });
  const absent = await call('get', { id: '999999' });
  assert.equal(hidden.text.replace(String(k.laid.hidden), 'N'), absent.text.replace('999999', 'N'));
  const shown = await call('show', { list: HIDDEN.id });
  const nowhere = await call('show', { list: 'nowhere-at-all' });
  assert.equal(shown.text.replace(HIDDEN.id, 'L'), nowhere.text.replace('nowhere-at-all', 'L'));
  for (const [name, args] of [['lists', {}], ['search', { text: 'zumbrality plinthwaxe' }], ['search', { text: HIDDEN.title }], ['ready', {}], ['brief', {}]] as const) {
    const r = await call(name, args);
    assert.deepEqual(leaksHidden(withoutEchoes(r.text, args)), [], `${name}: ${r.text}`);
  }
  t.diagnostic(`${tried} MCP calls: a person's tools 0 called, forged fields 0 kept, hidden list 0 words told`);
});

test('raw ask lines with forged identities against binder serve: every person\'s operation refused, nothing changed, nothing hidden told', async (t) => {
  const k = await keptBinder(t);
  const [first] = k.laid.batches;
  const args: Record<string, Record<string, unknown>> = {
    approve: { id: first }, delete: { id: first }, 'edit-note': { id: first, note: k.laid.annNote, text: 'rewritten' }, templates: {},
    'create-list': { template: 'batches', title: 'Mine' }, 'edit-list': { list: 'batches', ungate: ['Approved'] },
    grant: { list: HIDDEN.id, agent: 'Bot', access: 'write' }, 'archive-list': { list: 'batches' }, 'delete-list': { list: 'tasks' },
    sides: {}, 'side-add': { dir: join(k.root, 'elsewhere'), name: 'Ann' }, 'side-remove': { name: 'Bot' },
    'token-list': {}, 'token-add': { name: 'Bot' }, 'token-revoke': { token: 'Bot' },
    people: {}, 'set-role': { person: 'ann', role: 'member' }, 'remove-person': { person: 'ann' },
  };
  assert.deepEqual(Object.keys(args).sort(), [...PERSON_OPS].sort());
  const lines: { id: string; op: string; args: Record<string, unknown> }[] = [];
  const asks = join(k.dir, ASKS_FILE);
  const append = (op: string, given: Record<string, unknown>, top: Record<string, unknown> = {}): string => {
    const id = randomUUID();
    appendFileSync(asks, `${JSON.stringify({ id, at: new Date().toISOString(), op, args: given, want: 'json', ...top })}\n`);
    lines.push({ id, op, args: given });
    return id;
  };
  const before = k.dump();
  for (const [op, given] of Object.entries(args)) {
    for (const lie of [{}, FORGED]) {
      // Forged in the arguments, on the line itself, and both.
      append(op, { ...lie, ...given });
      append(op, given, { ...FORGED, side: 'Ann', folder: '/elsewhere', who: { id: 'person:ann', kind: 'person', name: 'ann' } });
    }
  }
  // Writes to the read-only list and past the gate, with forged identities.
  for (const [op, given] of [
    ['add', { list: 'tasks', title: 'x' }], ['move', { id: k.laid.tasks[0], state: 'Doing' }], ['note', { id: k.laid.tasks[0], text: 'x' }],
    ['move', { id: first, state: 'Doing' }], ['add', { list: 'batches', title: 'x', state: 'Approved' }],
  ] as const) append(op, { ...FORGED, ...given }, FORGED);
  const reads = {
    hidden: append('get', { id: k.laid.hidden }), absent: append('get', { id: 999_999 }),
    hiddenList: append('show', { list: HIDDEN.title }), absentList: append('show', { list: 'Nowhere At All' }),
  };
  append('search', { text: 'zumbrality' });
  append('lists', {});
  const answers = join(k.dir, ANSWERS_FILE);
  type Said = { ok: boolean; text: string; data?: unknown };
  const answerOf = (): Map<string, Said> => {
    const found = new Map<string, Said>();
    if (!existsSync(answers)) return found;
    // Only whole lines: the keeper may be appending the last one as it is read.
    const text = readFileSync(answers, 'utf8');
    for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter(Boolean)) {
      const a = JSON.parse(line) as { ask: string; ok: boolean; text: string; data?: unknown };
      found.set(a.ask, a);
    }
    return found;
  };
  const got: Map<string, Said> = await until(() => {
    const all = answerOf();
    return lines.every((l) => all.has(l.id)) ? all : null;
  }, 15_000, 'every raw ask answered') as Map<string, Said>;
  let refused = 0;
  for (const { id, op, args: given } of lines) {
    const a = got.get(id)!;
    if (['search', 'lists'].includes(op)) {
      assert.equal(a.ok, true, a.text);
      assert.deepEqual(leaksHidden(withoutEchoes(`${a.text}${JSON.stringify(a.data ?? null)}`, given)), [], a.text);
      continue;
    }
    assert.equal(a.ok, false, `${op} was done: ${a.text}`);
    assert.deepEqual(notASentence(a.text), [], a.text);
    assert.equal(a.data, undefined);
    refused++;
    if (PERSON_OPS.includes(op)) assert.match(a.text, /^Only a person can /);
  }
  assert.equal(got.get(reads.hidden)!.text.replace(String(k.laid.hidden), 'N'), got.get(reads.absent)!.text.replace('999999', 'N'));
  assert.equal(got.get(reads.hiddenList)!.text.replace(HIDDEN.title, 'L'), got.get(reads.absentList)!.text.replace('Nowhere At All', 'L'));
  assert.equal(k.dump(), before, 'the binder changed');
  t.diagnostic(`${lines.length} raw ask lines: ${refused} refused as they must be, 0 done, 0 changes, 0 words of the hidden list told`);
});
