/**
 * Random command lines into `binder` and `binder admin`: in-process (many) and as the real
 * commands (a few). Never an exception nor exit 70, never a stack trace, an exit code among
 * the documented ones, every refusal a sentence after "Not done: ", and nothing changed in the
 * binder by a command that was refused or not understood.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { openStore } from '../../src/store/index.js';
import { createKeeper } from '../../src/keeper/keeper.js';
import { admin } from '../../src/app/admin.js';
import { OPERATIONS } from '../../src/keeper/operations.js';
import { readCommandLine } from '../../src/agent/command-line.js';
import { runBinder } from '../../src/agent/cli.js';
import { BINDER } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';
import { HIDDEN, LEDGER, ann, dumpStore, fuzzSeed, layBinder, notASentence } from './fuzz-kit.js';

const VERBS: readonly string[] = OPERATIONS.map((o) => o.name).filter((name) => name !== 'wait');

/** Words a command line is made of: verbs, flags, values of the laid binder, and junk. */
function argvOf(storeDir: string): fc.Arbitrary<string[]> {
  const word = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...VERBS, 'side', 'add', 'remove', 'help') },
    {
      weight: 6,
      arbitrary: fc.constantFrom(
        '--json', '--help', '-h', '-V', '--version', '--state', '--mine', '--archived', '--offset', '--note', '--owner',
        '--field', '--due', '--title', '--template', '--lang', '--withdraw', '--restore', '--view', '--add-state',
        '--rename-state', '--move-state', '--gate', '--add-field', '--next', '--for', '--as', '--by', '--who', '--', '-', '--x',
        'batches', 'Batches', 'tasks', 'customers', HIDDEN.id, '1', '#1', '2', '3', '#4', '-1', '0', 'a=b', 'priority=High',
        '=b', 'fr', 'en', 'blank', 'write', 'read', 'none', 'me', 'Bot', 'Approved', 'Doing', 'link', 'https://e.example',
        '2026-11-04', '30m', storeDir,
      ),
    },
    { weight: 2, arbitrary: fc.string({ maxLength: 10 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }).map((s) => s.replace(/\u0000/g, '')) },
  );
  // Mostly a verb first, so that asks are made; `wait` would wait, and `serve` and `tui` would keep
  // the binder: neither is a command line to fuzz here.
  const first = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...VERBS, 'side') }, { weight: 1, arbitrary: word });
  const loose = fc.tuple(first, fc.array(word, { maxLength: 4 })).map(([verb, rest]) => [verb, ...rest]);
  return fc.oneof(loose, wellFormed(word))
    .filter((words) => !['wait', 'serve', 'tui'].includes(words[0] ?? ''));
}

/** A verb with its positional words in place and a few of its flags: the lines most likely to be asked. */
function wellFormed(word: fc.Arbitrary<string>): fc.Arbitrary<string[]> {
  return fc.constantFrom(...OPERATIONS.filter((o) => o.name !== 'wait')).chain((op) => {
    const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const positional = Object.values(op.args).filter((a) => a.positional && !a.hidden);
    const flags = Object.entries(op.args).filter(([, a]) => !a.positional && !a.hidden);
    const flag = flags.length
      ? fc.constantFrom(...flags).chain(([name, a]): fc.Arbitrary<string[]> => (a.kind === 'flag'
        ? fc.constant([`--${a.flag ?? kebab(name)}`])
        : fc.oneof(fc.constantFrom(...(a.choices ?? ['x'])), word).map((v) => [`--${a.flag ?? kebab(name)}`, v])))
      : fc.constant([] as string[]);
    const verb = op.name.startsWith('side-') ? ['side', op.name.slice(5)] : [op.name];
    return fc.tuple(fc.tuple(...positional.map((a) => (a.choices ? fc.constantFrom(...a.choices) : word))), fc.array(flag, { maxLength: 2 }))
      .map(([values, given]) => [...verb, ...values, ...given.flat()]);
  });
}

/** What a command printed on stderr says when refused, if it is a refusal. */
function refusalOf(err: string): string | null {
  const found = /^Not done: ([\s\S]*)\n$/.exec(err);
  return found ? found[1]! : null;
}

function noStack(text: string, what: string): void {
  assert.doesNotMatch(text, /\n\s+at |\b(Type|Range|Reference)Error\b/, `${what} printed a stack trace: ${text.slice(0, 400)}`);
}

interface Binder { storeDir: string; dir: string; root: string; figures: Record<string, number> }

async function setup(t: TestContext): Promise<Binder & { store: ReturnType<typeof openStore>; keeper: ReturnType<typeof createKeeper> }> {
  const root = tempDir(t, 'binder-fuzz-argv-');
  const storeDir = join(root, 'store');
  const store = openStore(storeDir);
  store.db.pragma('synchronous = OFF');
  await layBinder(store);
  const dir = join(root, 'work', '.binder');
  mkdirSync(dir, { recursive: true });
  await store.addSide(dir, 'Bot', ann);
  const keeper = createKeeper({ store, log: () => {} });
  t.after(async () => {
    await keeper.close();
    await store.close();
  });
  return { root, storeDir, store, dir, keeper, figures: {} };
}

test('fuzz: random argv into binder (in-process): the command line is read or refused, never thrown', async (t) => {
  const root = tempDir(t, 'binder-fuzz-argv-');
  const seed = fuzzSeed();
  let runs = 0;
  await fc.assert(fc.asyncProperty(argvOf(join(root, 'store')), async (argv) => {
    runs++;
    let out = '';
    let err = '';
    const line = await readCommandLine(argv, { out: (s) => { out += s; }, err: (s) => { err += s; } });
    // 1: a person's verb, refused with whose it is (as the keeper would refuse it).
    if (line.kind === 'done') {
      assert.ok([0, 1, 64].includes(line.code), `exit ${line.code} for ${JSON.stringify(argv)}`);
      if (line.code === 1) assert.match(err, /^Not done: Only a person can /, err);
    } else assert.ok(VERBS.includes(line.op) && OPERATIONS.find((o) => o.name === line.op)!.agents, `${line.op} is an agent's verb`);
    noStack(out + err, 'binder');
  }), { numRuns: 1500, seed, includeErrorInReport: true });
  t.diagnostic(`seed ${seed}: ${runs} command lines read`);
});

test('fuzz: random argv into binder against a keeper (in-process): documented exits, sentences, no change when refused', async (t) => {
  const s = await setup(t);
  await s.keeper.start();
  const seed = fuzzSeed();
  const codes = new Map<number, number>();
  await fc.assert(fc.asyncProperty(argvOf(s.storeDir), async (argv) => {
    const before = dumpStore(s.store.db, LEDGER);
    let out = '';
    let err = '';
    const code = await runBinder(argv, {
      out: (text) => { out += text; }, err: (text) => { err += text; },
      env: { BINDER_DIR: s.dir, BINDER_WAIT_MS: '10000' }, cwd: s.root,
    });
    codes.set(code, (codes.get(code) ?? 0) + 1);
    noStack(out + err, 'binder');
    // 2: a --dir from the fuzz that names no folder.
    assert.ok([0, 1, 64].includes(code) || (code === 2 && argv.some((w) => w.startsWith('--dir'))), `exit ${code} for ${JSON.stringify(argv)}: ${err}`);
    if (code === 1) {
      const said = refusalOf(err);
      assert.ok(said !== null, `a refusal is "Not done: " and a sentence: ${JSON.stringify(err)}`);
      assert.deepEqual(notASentence(said, argv), [], said);
    }
    if (code !== 0) assert.equal(dumpStore(s.store.db, LEDGER), before, `${JSON.stringify(argv)} changed the binder and exited ${code}`);
  }), { numRuns: 200, seed, includeErrorInReport: true });
  t.diagnostic(`seed ${seed}: exits ${JSON.stringify(Object.fromEntries(codes))}`);
  assert.ok((codes.get(0) ?? 0) > 0 && (codes.get(64) ?? 0) > 0, 'asks done and command lines not understood were both tried');
});

test('fuzz: random argv into binder admin (in-process): documented exits, sentences, no change when refused', async (t) => {
  const s = await setup(t);
  // Whatever the fuzz names as a store or a folder is made under this test's own folder.
  const cwd = process.cwd();
  const storeEnv = process.env.BINDER_STORE;
  process.chdir(s.root);
  process.env.BINDER_STORE = s.storeDir;
  const write = { out: process.stdout.write, err: process.stderr.write };
  t.after(() => {
    process.chdir(cwd);
    if (storeEnv === undefined) delete process.env.BINDER_STORE;
    else process.env.BINDER_STORE = storeEnv;
  });
  const seed = fuzzSeed();
  const codes = new Map<number, number>();
  await fc.assert(fc.asyncProperty(argvOf(s.storeDir), fc.boolean(), async (argv, named) => {
    const before = dumpStore(s.store.db);
    let out = '';
    let err = '';
    process.stdout.write = ((chunk: string | Uint8Array) => { out += String(chunk); return true; }) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array) => { err += String(chunk); return true; }) as typeof process.stderr.write;
    let code: number;
    try {
      code = await admin(named ? ['--store', s.storeDir, ...argv] : argv);
    } finally {
      process.stdout.write = write.out;
      process.stderr.write = write.err;
    }
    codes.set(code, (codes.get(code) ?? 0) + 1);
    noStack(out + err, 'binder admin');
    assert.ok([0, 1, 2, 64].includes(code), `exit ${code} for ${JSON.stringify(argv)}: ${err}`);
    if (code === 1) {
      const said = refusalOf(err);
      assert.ok(said !== null, `a refusal is "Not done: " and a sentence: ${JSON.stringify(err)}`);
      assert.deepEqual(notASentence(said, argv), [], said);
    }
    if (code === 2) assert.deepEqual(notASentence(err.trim(), argv), [], err);
    if (code !== 0) assert.equal(dumpStore(s.store.db), before, `${JSON.stringify(argv)} changed the binder and exited ${code}`);
  }), { numRuns: 800, seed, includeErrorInReport: true });
  t.diagnostic(`seed ${seed}: exits ${JSON.stringify(Object.fromEntries(codes))}`);
  assert.ok((codes.get(0) ?? 0) > 0 && (codes.get(1) ?? 0) > 0 && (codes.get(64) ?? 0) > 0, 'done, refused and not understood were all tried');
});

/** The real command, as an agent or a person runs it. */
function run(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BINDER, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('close', (code) => done({ code, out, err }));
  });
}

test('fuzz: random argv into the real binder and binder admin: documented exits, no stack, sentences', async (t) => {
  const s = await setup(t);
  await s.keeper.start();
  const seed = fuzzSeed();
  const codes: number[] = [];
  await fc.assert(fc.asyncProperty(argvOf(s.storeDir), fc.boolean(), async (argv, asAdmin) => {
    const args = asAdmin ? ['admin', ...argv] : argv;
    const r = await run(args, { BINDER_DIR: s.dir, BINDER_STORE: s.storeDir, BINDER_WAIT_MS: '10000' }, s.root);
    codes.push(r.code ?? -1);
    noStack(r.out + r.err, args.join(' '));
    assert.ok([0, 1, 2, 64].includes(r.code ?? -1), `exit ${r.code} for ${JSON.stringify(args)}: ${r.err}`);
    if (r.code === 1) {
      const said = refusalOf(r.err);
      assert.ok(said !== null, `a refusal is "Not done: " and a sentence: ${JSON.stringify(r.err)}`);
      assert.deepEqual(notASentence(said, argv), [], said);
    }
  }), { numRuns: 16, seed, includeErrorInReport: true });
  t.diagnostic(`seed ${seed}: ${codes.length} processes, exits ${codes.join(' ')}`);
});
