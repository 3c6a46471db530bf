/** `dist/bin/binder.js` as agents run it: exit codes, the heartbeat, the folder search, unsafe files. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from '../../src/version.js';
import { BINDER } from '../helpers/processes.js';
import { folderlessDir, tempDir } from '../helpers/temp.js';
import { cannedAnswer, miniKeeper } from './mini-keeper.js';

interface Ran { code: number | null; out: string; err: string }

/** Runs the command without blocking this process's loop (a keeper may be running in it). */
function binder(args: string[], { cwd, env = {} }: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Ran> {
  const base = { ...process.env };
  delete base.BINDER_DIR;
  delete base.BINDER_WAIT_MS;
  return new Promise((done) => {
    const child = spawn(process.execPath, [BINDER, ...args], { cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('close', (code) => done({ code, out, err }));
  });
}

const asksIn = (folder: string): string[] => {
  try {
    return readFileSync(join(folder, 'asks.jsonl'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

test('done: exit 0 and the answer on stdout; --json gives the data', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  keeper.beat();
  assert.deepEqual(await binder(['--dir', folder], { cwd: folder }), { code: 0, out: 'batches  Batches  3 records  write\n', err: '' });
  const json = await binder(['lists', '--json', '--dir', folder], { cwd: folder });
  assert.equal(json.code, 0);
  assert.deepEqual(JSON.parse(json.out), [{ id: 'batches', title: 'Batches', records: 3, access: 'write' }]);
  assert.equal(keeper.asks.at(-1)!.want, 'json');
});

test('refused: exit 1, "Not done: " and the keeper\'s sentence on stderr', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  const ran = await binder(['move', '#12', 'Done', '--dir', folder], { cwd: folder });
  assert.deepEqual(ran, { code: 1, out: '', err: 'Not done: #12 is not approved: a person approves it before it passes Approved.\n' });
});

test('no folder: exit 2, saying how to get one', async (t) => {
  const here = folderlessDir(t);
  const ran = await binder(['show', 'Batches'], { cwd: here });
  assert.equal(ran.code, 2);
  assert.match(ran.err, /no \.binder folder here or above/);
  assert.match(ran.err, /--dir FOLDER/);
  assert.match(ran.err, /binder serve/);
  assert.match(ran.err, /binder tui/);
  const named = await binder(['--dir', join(here, 'nowhere')], { cwd: here });
  assert.equal(named.code, 2);
  assert.match(named.err, /nowhere/);
  assert.equal(existsSync(join(here, 'nowhere')), false, 'no folder is made');
});

test('nobody keeps it, as the heartbeat says: exit 3 at once, no ask written', { timeout: 30_000 }, async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, () => null);
  t.after(() => keeper.stop());
  for (const beat of [{ stopped: true }, { beat: new Date(Date.now() - 60_000).toISOString(), every: 5000 }]) {
    keeper.beat(beat);
    // A wait far longer than the test's own timeout: only an answer at once passes.
    const ran = await binder(['show', 'Batches', '--dir', folder], { cwd: folder, env: { BINDER_WAIT_MS: '600000' } });
    assert.equal(ran.code, 3, JSON.stringify(beat));
    assert.match(ran.err, /nobody keeps this binder right now/i);
    assert.match(ran.err, /Nothing was changed/);
    assert.deepEqual(asksIn(folder), [], 'the ask was not written');
  }
});

test('no answer in time while a keeper beats: exit 75, not known whether it was done, with the id to ask again with', async (t) => {
  const folder = tempDir(t);
  // A keeper that reads the ask and never answers: it may have done it.
  const keeper = miniKeeper(folder, () => null);
  t.after(() => keeper.stop());
  keeper.beat();
  const ran = await binder(['add', 'Batches', 'Dark mode', '--dir', folder], { cwd: folder, env: { BINDER_WAIT_MS: '400' } });
  assert.equal(ran.code, 75, ran.err);
  assert.doesNotMatch(ran.err, /Nothing was changed/);
  const id = keeper.asks[0]!.id;
  assert.match(ran.err, /Not known whether this was done/);
  assert.ok(ran.err.includes(`--ask-id ${id}`), ran.err);
  assert.match(ran.err, /binder get/);
});

test('a heartbeat there but not readable may be a keeper that did it: no answer in time is exit 75, never "nothing was changed"', async (t) => {
  const folder = tempDir(t);
  mkdirSync(join(folder, 'keeper.json'));
  const ran = await binder(['note', '12', 'hello', '--dir', folder], { cwd: folder, env: { BINDER_WAIT_MS: '300' } });
  assert.equal(ran.code, 75, ran.err);
  assert.doesNotMatch(ran.err, /Nothing was changed/);
});

test('an answers file the asker cannot read: exit 2 at once, nothing asked', { timeout: 30_000 }, async (t) => {
  const folder = tempDir(t);
  const answers = join(folder, 'answers.jsonl');
  writeFileSync(answers, '');
  // Root reads whatever the mode: then binder runs as nobody, in a folder it may write.
  const root = process.getuid?.() === 0;
  chmodSync(answers, root ? 0o600 : 0o000);
  if (root) chmodSync(folder, 0o777);
  const as = root ? { uid: Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout), gid: Number(spawnSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).stdout) } : {};
  const ran = await new Promise<Ran>((done) => {
    const child = spawn(process.execPath, [BINDER, 'note', '12', 'x', '--dir', folder], { cwd: folder, env: { ...process.env, BINDER_WAIT_MS: '600000' }, stdio: ['ignore', 'pipe', 'pipe'], ...as });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('close', (code) => done({ code, out, err }));
  });
  assert.equal(ran.code, 2, ran.err);
  assert.match(ran.err, /answers\.jsonl cannot be read by you \(permission denied\)/);
  assert.deepEqual(asksIn(folder), [], 'nothing was asked');
});

test('nobody answers and there is no heartbeat: the ask is written, waited for, then exit 3', async (t) => {
  const folder = tempDir(t);
  const ran = await binder(['note', '12', 'hello', '--dir', folder], { cwd: folder, env: { BINDER_WAIT_MS: '300' } });
  assert.equal(ran.code, 3);
  assert.match(ran.err, /No answer in time: nobody keeps this binder right now/);
  assert.match(ran.err, /Nothing was changed/);
  const asks = asksIn(folder).map((line) => JSON.parse(line));
  assert.equal(asks.length, 1);
  assert.equal(asks[0].op, 'note');
  assert.deepEqual(asks[0].args, { id: '12', text: 'hello' });
});

test('a fresh heartbeat is believed: the ask is made and answered', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  keeper.beat();
  const ran = await binder(['get', '12', '--dir', folder], { cwd: folder });
  assert.equal(ran.code, 0);
  assert.equal(keeper.asks.length, 1);
});

test('the folder: --dir, else $BINDER_DIR, else the nearest .binder from here up', async (t) => {
  const root = tempDir(t);
  const work = join(root, 'work');
  const deep = join(work, 'src', 'deep');
  mkdirSync(join(deep, '.binder'), { recursive: true });
  mkdirSync(join(work, '.binder'));
  mkdirSync(join(root, 'env'));
  mkdirSync(join(root, 'given'));
  const keepers = Object.entries({
    deep: join(deep, '.binder'), work: join(work, '.binder'), env: join(root, 'env'), given: join(root, 'given'),
  }).map(([name, folder]) => miniKeeper(folder, () => ({ ok: true, text: name })));
  t.after(() => keepers.forEach((k) => k.stop()));

  const said = async (cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    const ran = await binder(args, { cwd, env });
    assert.equal(ran.code, 0, ran.err);
    return ran.out.trim();
  };
  assert.equal(await said(join(work, 'src'), []), 'work', 'the nearest up from a folder without one');
  assert.equal(await said(deep, []), 'deep', 'the nearest wins over one further up');
  assert.equal(await said(deep, [], { BINDER_DIR: join(root, 'env') }), 'env', '$BINDER_DIR before the nearest');
  assert.equal(await said(deep, ['--dir', '../../../given'], { BINDER_DIR: join(root, 'env') }), 'given', '--dir first, from the working directory');
});

test('a mistyped verb or flag: exit 64 with the nearest one, nothing asked', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  const verb = await binder(['shwo', 'Batches', '--dir', folder], { cwd: folder });
  assert.equal(verb.code, 64);
  assert.match(verb.err, /unknown command 'shwo'/);
  assert.match(verb.err, /Did you mean show\?/);
  const option = await binder(['add', 'Batches', 'x', '--owners', 'me', '--dir', folder], { cwd: folder });
  assert.equal(option.code, 64);
  assert.match(option.err, /Did you mean --owner\?/);
  assert.equal(keeper.asks.length, 0);
});

test('--help says every exit code, 75 among them, and --ask-id', async (t) => {
  const ran = await binder(['--help'], { cwd: tempDir(t) });
  assert.match(ran.out, /--ask-id <ID>/);
  assert.match(ran.out, /75 not known whether it was done/);
});

test('--help and --version', async (t) => {
  const here = tempDir(t);
  const help = await binder(['--help'], { cwd: here });
  assert.equal(help.code, 0);
  assert.match(help.out, /Usage: binder/);
  assert.match(help.out, /binder add Batches "Dark mode" --note "login page only"/);
  const verb = await binder(['move', '--help'], { cwd: here });
  assert.equal(verb.code, 0);
  assert.match(verb.out, /Usage: binder move \[options\] <ID> <STATE>/);
  assert.match(verb.out, /Example:\n {2}binder move 12 Doing/);
  assert.deepEqual(await binder(['--version'], { cwd: here }), { code: 0, out: `${VERSION}\n`, err: '' });
});

test('an asks file that is a link, a FIFO or has several links is never written: exit 2', { timeout: 30_000 }, async (t) => {
  const root = tempDir(t);
  const target = join(root, 'elsewhere.txt');
  writeFileSync(target, 'precious\n');

  const linked = join(root, 'linked');
  mkdirSync(linked);
  symlinkSync(target, join(linked, 'asks.jsonl'));
  const viaLink = await binder(['note', '12', 'x', '--dir', linked], { cwd: root, env: { BINDER_WAIT_MS: '600000' } });
  assert.equal(viaLink.code, 2);
  assert.match(viaLink.err, /is a link/);

  const hard = join(root, 'hard');
  mkdirSync(hard);
  linkSync(target, join(hard, 'asks.jsonl'));
  const viaHardLink = await binder(['note', '12', 'x', '--dir', hard], { cwd: root, env: { BINDER_WAIT_MS: '600000' } });
  assert.equal(viaHardLink.code, 2);
  assert.match(viaHardLink.err, /several links/);
  assert.equal(readFileSync(target, 'utf8'), 'precious\n', 'the target is untouched');

  const fifo = join(root, 'fifo');
  mkdirSync(fifo);
  if (spawnSync('mkfifo', [join(fifo, 'asks.jsonl')]).status === 0) {
    const viaFifo = await binder(['note', '12', 'x', '--dir', fifo], { cwd: root, env: { BINDER_WAIT_MS: '600000' } });
    assert.equal(viaFifo.code, 2);
    assert.match(viaFifo.err, /not a regular file/);
  } else t.diagnostic('mkfifo is missing: the FIFO case was not run');
});

test('an ask over 64 KiB is refused at once: exit 64, its size and the limit, nothing written', { timeout: 30_000 }, async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, cannedAnswer);
  t.after(() => keeper.stop());
  keeper.beat();
  const ran = await binder(['note', '12', 'x'.repeat(70_000), '--dir', folder], { cwd: folder, env: { BINDER_WAIT_MS: '600000' } });
  assert.equal(ran.code, 64, ran.err);
  assert.match(ran.err, /70,\d{3} bytes/);
  assert.match(ran.err, /65,536 bytes/);
  assert.deepEqual(asksIn(folder), [], 'nothing was asked');
  // Just under the limit goes through.
  const fits = await binder(['note', '12', 'x'.repeat(65_000), '--dir', folder], { cwd: folder });
  assert.equal(fits.code, 0, fits.err);
});

test('an answers file that is a link or a directory: exit 2 at once, nothing asked', { timeout: 30_000 }, async (t) => {
  const root = tempDir(t);
  writeFileSync(join(root, 'elsewhere.txt'), '');
  const linked = join(root, 'linked');
  mkdirSync(linked);
  symlinkSync(join(root, 'elsewhere.txt'), join(linked, 'answers.jsonl'));
  const directory = join(root, 'directory');
  mkdirSync(join(directory, 'answers.jsonl'), { recursive: true });
  for (const [folder, said] of [[linked, /answers\.jsonl is a link/], [directory, /answers\.jsonl is not a regular file/]] as const) {
    const ran = await binder(['note', '12', 'x', '--dir', folder], { cwd: root, env: { BINDER_WAIT_MS: '600000' } });
    assert.equal(ran.code, 2, ran.err);
    assert.match(ran.err, said);
    assert.deepEqual(asksIn(folder), [], 'nothing was asked');
  }
});
