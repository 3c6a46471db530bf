/**
 * A person's commands whose reader went away (`binder admin --help | head -1`, `binder admin get 6
 * | head -1`, `binder tui --help`, `binder serve --help`, `binder serve` piped to a reader that
 * quit): the writing ends, never the process with a stack trace. A keeper goes on answering.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.js';
import { agentWho, personWho } from '../../src/keeper/keeper.js';
import { BINDER, binderAsync } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

interface Ended { code: number | null; err: string }

/** `binder ARGS` with its stdout's reader gone before it writes a byte. */
function readerGone(args: string[], then?: () => Promise<void>): Promise<Ended> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BINDER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let err = '';
    child.stderr.on('data', (c) => { err += c; });
    child.on('close', (code) => done({ code, err }));
    if (then) void then().finally(() => child.kill('SIGTERM'));
  });
}

const STACK = /EPIPE|Error|node:events|\n\s+at /;

test('a person\'s command whose reader went away ends quietly, with its own exit code', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const storeDir = join(root, 'store');
  const store = openStore(storeDir);
  const ann = personWho('ann');
  await store.createList({ template: 'batches' }, ann);
  const id = (await store.add('batches', { title: 'A long record' }, ann)).id;
  await store.transaction(async (tx) => { for (let i = 0; i < 300; i++) await tx.note(id, `note ${i} ${'x'.repeat(200)}`, ann); });
  await store.close();
  const lines = [
    ['admin', '--help'], ['admin', 'get', '--help'], ['admin', '--store', storeDir, 'get', String(id), '--notes', '200'],
    ['admin', '--store', storeDir, 'get', String(id), '--json'], ['admin', '--store', storeDir, 'lists'],
    ['tui', '--help'], ['serve', '--help'],
  ];
  for (const argv of lines) {
    const ended = await readerGone(argv);
    assert.equal(ended.code, 0, `binder ${argv.join(' ')} exited ${ended.code}: ${ended.err}`);
    assert.doesNotMatch(ended.err, STACK, `binder ${argv.join(' ')} said: ${ended.err}`);
  }
});

test('binder serve whose log\'s reader went away keeps the binder, then stops cleanly', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const storeDir = join(root, 'store');
  const dir = join(root, 'work', '.binder');
  mkdirSync(dir, { recursive: true });
  const store = openStore(storeDir);
  const ann = personWho('ann');
  await store.createList({ template: 'batches' }, ann);
  await store.addSide(dir, 'Bot', ann);
  await store.grant('batches', agentWho('Bot').id, 'write', ann);
  await store.close();
  let answered = '';
  const ended = await readerGone(['serve', '--no-tui', '--store', storeDir], async () => {
    // The keeper's first lines met the closed pipe; it must still answer an agent.
    const r = await binderAsync(['add', 'Batches', 'still kept'], { cwd: join(root, 'work'), env: { BINDER_DIR: '' } });
    answered = `${r.code} ${r.out}${r.err}`;
  });
  assert.match(answered, /^0 Added #1/);
  assert.equal(ended.code, 0, ended.err);
  assert.doesNotMatch(ended.err, STACK, ended.err);
});
