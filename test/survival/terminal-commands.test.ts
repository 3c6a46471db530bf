/**
 * The commands in a terminal: `binder` (the agent's), `binder admin` (a person's) and `binder
 * serve --no-tui` (the keeper's lines), each run in a pseudo-terminal (`script` from util-linux)
 * over a binder of hostile records, the bytes they wrote to it read back: the records' text is
 * there, made safe, and no byte of any control, escape sequence, bidi override or payload is.
 * Skipped, saying why, only where `script` is absent.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.js';
import { agentWho, personWho } from '../../src/keeper/keeper.js';
import { BINDER } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';
import { ATTACKS_PER_TEXT, HOSTILE_NAME, agentRecords, hostileLine, leaks } from './terminal-kit.js';

const hasScript = spawnSync('script', ['--version']).status === 0;
const why = 'script (util-linux) is not installed here; the terminal test of the commands needs it';
const ann = personWho('ann');
const agent = agentWho('Bot');

const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;
/** A word for the shell: `…$EVIL` or `…$EVIL_NAME` at its end is the variable, whole; the rest is quoted. */
const shellWord = (word: string): string => {
  const found = /^(.*)\$(EVIL(?:_NAME)?)$/s.exec(word);
  return found ? `${found[1] ? quote(found[1]) : ''}"$${found[2]}"` : quote(word);
};

/** Runs `commands` one after the other in one pseudo-terminal; resolves with every byte written to it. */
function inTerminal(commands: string[][], env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const line = commands.map((argv) => `echo '<<${argv.slice(2).join(' ').replace(/'/g, '').slice(0, 60)}>>'; ${argv.map(shellWord).join(' ')}`).join('; ');
  return new Promise((done) => {
    const child = spawn('script', ['-qfec', line, '/dev/null'], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString('utf8'); });
    child.on('close', () => done(out));
  });
}

/** The part of `bytes` one command wrote, after its `<<…>>` line. */
const partOf = (bytes: string, label: string): string => bytes.split(`<<${label}`)[1]?.split('<<')[0] ?? '';

/** `bytes` cut at each command's `<<…>>` line: the --json ones and the others. */
function byKind(bytes: string): { json: string; text: string } {
  const parts = bytes.split('<<').slice(1);
  return {
    json: parts.filter((p) => /^[^>]*--json>>/.test(p)).join('\n'),
    text: parts.filter((p) => !/^[^>]*--json>>/.test(p)).join('\n'),
  };
}

async function setup(t: TestContext) {
  const root = mkdtempSync(join(tmpdir(), 'binder-survival-pty-'));
  const storeDir = join(root, 'store');
  const dir = join(root, 'work', '.binder');
  mkdirSync(dir, { recursive: true });
  const store = openStore(storeDir);
  const list = (await store.createList({ template: 'batches' }, ann)).id;
  await store.editList(list, { fields: [{ name: 'Branch', type: 'text' }, { name: 'Reviewer', type: 'person' }] }, ann);
  await store.addSide(dir, 'Bot', ann);
  await store.grant(list, agent.id, 'write', ann);
  const texts = await agentRecords(store, agent, list);
  await store.close();
  const ends: (() => unknown)[] = [];
  t.after(async () => {
    for (const end of ends.reverse()) await end();
    rmSync(root, { recursive: true, force: true });
  });
  return { root, storeDir, dir, list, texts, ends };
}

test('binder, binder admin and binder serve in a terminal: hostile records shown made safe, 0 bytes of them written', { skip: hasScript ? false : why, timeout: 120_000 }, async (t) => {
  const s = await setup(t);
  const node = process.execPath;
  const env = { BINDER_STORE: s.storeDir, EVIL: hostileLine('Argv'), EVIL_NAME: HOSTILE_NAME, BINDER_DIR: '', CI: '' };

  // The keeper, in a terminal of its own: its lines quote the agents' refusals.
  const keeper = spawn('script', ['-qfec', `${quote(node)} ${quote(BINDER)} serve --no-tui --store ${quote(s.storeDir)}`, '/dev/null'], {
    cwd: s.root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let served = '';
  keeper.stdout.on('data', (c: Buffer) => { served += c.toString('utf8'); });
  const stopped = new Promise((done) => keeper.on('close', done));
  s.ends.push(async () => { keeper.kill('SIGTERM'); await stopped; });
  await until(() => served.includes('Stop with Ctrl-C'), 15_000, 'the keeper to start');

  const work = join(s.root, 'work');
  const agentCommands: string[][] = [
    ['lists'], ['show', s.list], ['get', '1'], ['search', 'evil'], ['brief'], ['ready'], ['get', '1', '--json'], ['show', s.list, '--json'],
    // Refusals that quote what they were given.
    ['move', '1', '$EVIL'], ['add', s.list, 'x', '--state', '$EVIL'], ['edit', '1', '--field', 'nope=$EVIL'],
  ].map((argv) => [node, BINDER, ...argv]);
  // `$EVIL` is the shell's: the hostile line reaches the command as one word.
  const asAgent = await inTerminal(agentCommands, env, work);
  const personCommands: string[][] = [
    ['lists'], ['show', s.list], ['get', '1'], ['search', 'evil'], ['brief'], ['ready'], ['get', '1', '--json'], ['search', 'note', '--json'],
    ['move', '1', '$EVIL'], ['edit', '1', '--owner', '$EVIL_NAME'],
  ].map((argv) => [node, BINDER, 'admin', '--as', 'ann', ...argv]);
  const asPerson = await inTerminal(personCommands, env, s.root);
  await until(() => served.includes('refused'), 10_000, 'the keeper\'s lines');
  keeper.kill('SIGTERM');
  await stopped;

  for (const [face, bytes] of [['binder', asAgent], ['binder admin', asPerson]] as const) {
    const { json, text } = byKind(bytes);
    assert.ok(json.length > 0 && text.length > 0);
    assert.deepEqual(leaks(text), [], `${face} wrote hostile bytes to the terminal`);
    assert.deepEqual(leaks(json, new Set(), { payloads: false }), [], `${face} --json wrote hostile bytes to the terminal`);
  }
  assert.deepEqual(leaks(served), [], 'binder serve wrote hostile bytes to the terminal');
  // What was shown is the records' text, made safe — not nothing.
  // Whole: an owner ending in an open OSC once made every line after it vanish.
  for (const [face, shown] of [['binder', partOf(asAgent, 'get 1>>')], ['binder admin', partOf(asPerson, 'admin --as ann get 1>>')]] as const) {
    for (const part of ['owners @person:xqq', 'Branch: branch {q0', 'Reviewer: person:xqq', 'Notes (2):', 'Evil note', 'Second note', 'Attached:', 'History (4):']) {
      assert.ok(shown.includes(part), `${face} get shows ${part}:\n${shown}`);
    }
  }
  for (const [face, bytes] of [['binder', asAgent], ['binder admin', asPerson]] as const) {
    assert.ok(bytes.includes('Evil note') && bytes.includes('{q0') && bytes.includes('branch {q0'), `${face} showed the record's text`);
    assert.ok(bytes.includes('\\u001b'), `${face} --json escaped the sequences, and printed them so`);
    assert.match(bytes, /Not done: "Argv \{q0/, `${face} quoted what it was given, made safe`);
  }
  t.diagnostic(`${agentCommands.length + personCommands.length} commands and the keeper's lines in a terminal, over ${s.texts} hostile texts (up to ${ATTACKS_PER_TEXT} attacks each): 0 hostile bytes written`);
});
