/** `binder` in-process against a minimal keeper: every verb's command line to its exact ask line. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runBinder, type BinderIO } from '../../src/agent/cli.js';
import { AGENT_OPERATIONS, OPERATIONS, adminWords, onlyAPerson } from '../../src/keeper/operations.js';
import { VERSION } from '../../src/version.js';
import { tempDir } from '../helpers/temp.js';
import { DISK_FULL_TEXT, FAILED_TEXT } from '../../src/keeper/folder-pump.js';
import { cannedAnswer, miniKeeper } from './mini-keeper.js';

interface Ran { code: number; out: string; err: string }

async function run(folder: string, argv: string[]): Promise<Ran> {
  let out = '';
  let err = '';
  const io: BinderIO = {
    out: (s) => { out += s; },
    err: (s) => { err += s; },
    env: { BINDER_WAIT_MS: '5000' },
    cwd: folder,
  };
  const code = await runBinder(['--dir', folder, ...argv], io);
  return { code, out, err };
}

// Each verb of the catalog, with the command line that uses it and the ask it must make.
const CASES: [string[], string, Record<string, unknown>][] = [
  [[], 'lists', {}],
  [['lists'], 'lists', {}],
  [['show', 'Batches'], 'show', { list: 'Batches' }],
  [['show', 'Batches', '--state', 'Doing', '--mine', '--archived', '--offset', '50'], 'show', { list: 'Batches', state: 'Doing', mine: true, archived: true, offset: 50 }],
  [['get', '#12'], 'get', { id: '#12' }],
  [['get', '12'], 'get', { id: '12' }],
  [['get', '12', '--notes', '5', '--history', '0', '--offset', '30'], 'get', { id: '12', notes: 5, history: 0, offset: 30 }],
  [['search', 'dark', 'mode'], 'search', { text: 'dark mode' }],
  [['search', 'dark mode', '--archived'], 'search', { text: 'dark mode', archived: true }],
  [['add', 'Batches', 'Dark', 'mode'], 'add', { list: 'Batches', title: 'Dark mode' }],
  [['add', 'Batches', 'Dark mode', '--state', 'Doing', '--due', '2026-11-04 09:00', '--owner', 'me', '--owner', 'agent:other',
    '--note', 'login page only', '--field', 'size=S', '--field', 'url=https://x.test/?a=b'],
  'add', { list: 'Batches', title: 'Dark mode', state: 'Doing', due: '2026-11-04 09:00', owners: ['me', 'agent:other'],
    note: 'login page only', fields: { size: 'S', url: 'https://x.test/?a=b' } }],
  [['edit', '12', '--title', 'Dark mode, all pages', '--due', 'none', '--owner', 'none', '--field', 'size='],
    'edit', { id: '12', title: 'Dark mode, all pages', due: '', owners: [], fields: { size: '' } }],
  [['edit', '#12', '--due', '2026-12-01', '--owner', 'me'], 'edit', { id: '#12', due: '2026-12-01', owners: ['me'] }],
  [['move', '12', 'Doing'], 'move', { id: '12', state: 'Doing' }],
  [['note', '12', 'tests', 'pass', '--', '--json'], 'note', { id: '12', text: 'tests pass --json' }],
  [['attach', '12', 'branch', 'site:dark-mode', 'the', 'work'], 'attach', { id: '12', kind: 'branch', ref: 'site:dark-mode', title: 'the work' }],
  [['attach', '12', 'link', 'https://x.test'], 'attach', { id: '12', kind: 'link', ref: 'https://x.test' }],
  [['detach', '12', 'site:dark-mode'], 'detach', { id: '12', what: 'site:dark-mode' }],
  [['archive', '12'], 'archive', { id: '12' }],
  [['restore', '#12'], 'restore', { id: '#12' }],
  [['take', '12', '--for', '2h'], 'take', { id: '12', for: '2h' }],
  [['take', '--next', 'Batches'], 'take', { next: 'Batches' }],
  [['release', '12', '--note', 'done: see the branch'], 'release', { id: '12', note: 'done: see the branch' }],
  [['needs', '20', '12', '#14'], 'needs', { id: '20', others: '12 #14' }],
  [['needs', '20', '12', '--remove'], 'needs', { id: '20', others: '12', remove: true }],
  [['ready'], 'ready', {}],
  [['ready', '--blocked'], 'ready', { blocked: true }],
  [['ready', 'Batches'], 'ready', { list: 'Batches' }],
  [['brief'], 'brief', {}],
  [['wait'], 'wait', {}],
  [['wait', '#12', '--timeout', '90s'], 'wait', { on: '#12', timeout: '90s' }],
];

test('every verb of the catalog is a command, and its command line makes exactly its ask', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  const covered = new Set(CASES.map(([, op]) => op));
  assert.deepEqual([...covered].sort(), AGENT_OPERATIONS.map((op) => op.name).sort(), 'a case for every agent verb');

  for (const [argv, op, args] of CASES) {
    const before = keeper.asks.length;
    const ran = await run(folder, argv);
    assert.equal(ran.code, 0, `${argv.join(' ')}: ${ran.err}`);
    assert.equal(keeper.asks.length, before + 1, `${argv.join(' ')} made one ask`);
    const ask = keeper.asks.at(-1)!;
    assert.equal(ask.op, op, argv.join(' '));
    assert.deepEqual({ ...ask.args }, args, argv.join(' '));
    assert.equal(ask.want, undefined);
    assert.match(ask.id, /^[0-9a-f-]{36}$/);
    assert.ok(Math.abs(Date.parse(ask.at) - Date.now()) < 60_000, 'at is an ISO time of now');
  }
});

test('a field named __proto__ stays a field', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  assert.equal((await run(folder, ['edit', '12', '--field', '__proto__=x'])).code, 0);
  assert.equal(JSON.stringify(keeper.asks.at(-1)!.args), '{"id":"12","fields":{"__proto__":"x"}}');
});

test('what the command line does not understand asks nothing and exits 64', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  const wrong = [
    ['shwo', 'Batches'], ['show'], ['show', 'Batches', '--stat', 'Doing'], ['get', '12', '13'],
    ['add', 'Batches'], ['attach', '12', 'parcel', 'x'], ['edit', '12', '--field', 'size'],
    ['show', 'Batches', '--offset', 'ten'], ['archive', '12', '--restore'], ['move', '12'],
    ['get', 'abc'], ['get', '0'], ['move', 'x12', 'Doing'], ['note', '#', 'tests pass'], ['take', 'abc'], ['release', '1.5'],
    ['show', 'Batches', '--offset', '-1'], ['show', 'Batches', '--offset=-1'], ['get', '12', '--offset', '-3'], ['get', '12', '--notes', '201'],
  ];
  for (const argv of wrong) {
    const ran = await run(folder, argv);
    assert.equal(ran.code, 64, `${argv.join(' ')} → ${ran.code} ${ran.err}`);
    assert.ok(ran.err.length > 0, `${argv.join(' ')} says what is wrong`);
    assert.equal(ran.out, '');
  }
  assert.equal(keeper.asks.length, 0);
  assert.match((await run(folder, ['shwo'])).err, /Did you mean show\?/);
  assert.match((await run(folder, ['show', 'B', '--stat', 'x'])).err, /Did you mean --state\?/);
  assert.match((await run(folder, ['attach', '12', 'parcel', 'x'])).err, /message, file, asset, branch, link, record/);
});

test('--json asks for data and prints it as one JSON document, control characters escaped', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  const lists = await run(folder, ['--json']);
  assert.equal(lists.code, 0);
  assert.equal(keeper.asks.at(-1)!.want, 'json');
  assert.deepEqual(JSON.parse(lists.out), [{ id: 'batches', title: 'Batches', records: 3, access: 'write' }]);

  const get = await run(folder, ['get', '12', '--json']);
  assert.equal(get.code, 0);
  assert.equal(get.out.trim().split('\n').length, 1);
  assert.doesNotMatch(get.out, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, 'no raw control character');
  assert.deepEqual(JSON.parse(get.out), { id: 12, title: 'Dark \u001b[31mmode\u009b' }, 'the same value once parsed');
});

test('the keeper\'s text is made safe whatever stdout is: no control byte but the line feed', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  const shown = await run(folder, ['get', '12']);
  assert.equal(shown.code, 0);
  assert.equal(shown.out, '#12 Dark mode\nred  note\n');
});

test('a refusal exits 1 with the keeper\'s sentence after "Not done: " on stderr', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  const ran = await run(folder, ['move', '12', 'Done']);
  assert.equal(ran.code, 1);
  assert.equal(ran.out, '');
  assert.equal(ran.err, 'Not done: #12 is not approved: a person approves it before it passes Approved.\n');
});

test('help and version ask nothing', async (t) => {
  const folder = tempDir(t);
  mkdirSync(join(folder, 'sub'));
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  const help = await run(folder, ['--help']);
  assert.equal(help.code, 0);
  for (const op of AGENT_OPERATIONS) {
    assert.ok(help.out.includes(op.example), `the whole help shows ${op.example}`);
    const one = await run(folder, [op.name, '--help']);
    assert.equal(one.code, 0);
    assert.ok(one.out.replace(/\s+/g, ' ').includes(op.describe), `${op.name} --help says what it does`);
    assert.ok(one.out.includes(`Example:\n  ${op.example}`), `${op.name} --help shows its example`);
    assert.ok(one.out.includes('--json') && one.out.includes('--dir'), `${op.name} --help shows --json and --dir`);
  }
  assert.ok(!(await run(folder, ['archive', '--help'])).out.includes('--restore'), 'a hidden argument is not shown');
  assert.deepEqual(await run(folder, ['--version']), { code: 0, out: `${VERSION}\n`, err: '' });
  assert.equal(keeper.asks.length, 0);
});

test('the keeper\'s own refusals (a failure, a full disk) are said after one "Not done: ", never two', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, (ask) => ({ ok: false, text: ask.op === 'add' ? DISK_FULL_TEXT : FAILED_TEXT }));
  t.after(() => keeper.stop());
  const full = await run(folder, ['add', 'Batches', 'Dark mode']);
  assert.equal(full.code, 1);
  assert.equal(full.err, 'Not done: The disk that holds the binder is full: nothing was changed; ask again once a person has made room.\n');
  const failed = await run(folder, ['lists']);
  assert.equal(failed.err, 'Not done: The keeper failed on this ask and kept nothing of it; tell a person.\n');
});

test('--ask-id gives the ask its id (asking again with it is answered from the keeper\'s record); a malformed one asks nothing', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  assert.equal((await run(folder, ['--ask-id', 'retry-7', 'add', 'Batches', 'Dark mode'])).code, 0);
  assert.equal((await run(folder, ['add', 'Batches', 'Dark mode', '--ask-id=retry-8'])).code, 0);
  assert.equal((await run(folder, ['--ask-id', 'retry-9'])).code, 0, 'with no verb, lists');
  assert.deepEqual(keeper.asks.map((ask) => [ask.id, ask.op]), [['retry-7', 'add'], ['retry-8', 'add'], ['retry-9', 'lists']]);
  for (const bad of ['', 'x'.repeat(129), 'two words', 'semi;colon', '\u001b[31m']) {
    const ran = await run(folder, ['--ask-id', bad, 'lists']);
    assert.equal(ran.code, 64, `${JSON.stringify(bad)} → ${ran.code}`);
    assert.match(ran.err, /--ask-id/);
  }
  assert.equal(keeper.asks.length, 3, 'nothing more was asked');
});

test('every record argument is checked on the command line: not a number, exit 64 at once, nothing asked', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  let checked = 0;
  for (const op of AGENT_OPERATIONS) {
    const words = Object.values(op.args).filter((arg) => arg.positional && !arg.hidden);
    if (!words.some((arg) => arg.kind === 'record')) continue;
    const argv = [op.name, ...words.map((arg) => (arg.kind === 'record' ? 'abc' : arg.choices?.[0] ?? 'x'))];
    const ran = await run(folder, argv);
    assert.equal(ran.code, 64, `${argv.join(' ')} → ${ran.code} ${ran.err}`);
    assert.match(ran.err, /Give a record's number: 12 or #12\./);
    checked++;
  }
  assert.ok(checked >= 10, `${checked} verbs take a record`);
  assert.equal(keeper.asks.length, 0);
});

test('a person\'s verb typed here says whose it is and how to have it done: exit 1, nothing asked', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  for (const op of OPERATIONS) {
    if (op.agents) continue;
    for (const argv of [[...adminWords(op), '3'], [op.name, '3', '--json']]) {
      const ran = await run(folder, argv);
      assert.equal(ran.code, 1, `binder ${argv.join(' ')} → ${ran.code} ${ran.err}`);
      assert.equal(ran.out, '');
      assert.equal(ran.err, `Not done: ${onlyAPerson(op)}\n`);
      assert.ok(ran.err.includes(`binder admin ${adminWords(op).join(' ')}.`));
    }
  }
  assert.match((await run(folder, ['approve', '3'])).err, /^Not done: Only a person can approve a record or withdraw its approval: ask one to do it on their screen \(binder tui\) or with binder admin approve\.$/m);
  assert.match((await run(folder, ['side', 'add', 'x', 'Ann'])).err, /with binder admin side add\./);
  assert.equal(keeper.asks.length, 0);
});
