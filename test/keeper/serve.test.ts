/**
 * `binder serve --no-tui` as a person runs it: says where the store is and what it reads, a line
 * per ask, stops cleanly on SIGTERM leaving a stopped heartbeat, French with --lang fr.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BINDER, binder, binderAsync, serveKeeper } from '../helpers/processes.js';
import { tempDir, until } from '../helpers/temp.js';

test('serve says what it keeps, logs each ask, and stops cleanly', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const store = join(root, 'store');
  const folder = join(root, 'w', '.binder');
  mkdirSync(folder, { recursive: true });
  assert.equal(binder(['admin', '--store', store, 'create-list', 'Batches', '--template', 'batches']).code, 0);
  assert.equal(binder(['admin', '--store', store, 'grant', 'batches', 'Helper', 'write']).code, 0);
  const keeper = await serveKeeper(t, ['--store', store, '--side', `${folder}=Helper`]);
  assert.match(keeper.out(), new RegExp(`Binder kept in ${join(store, 'binder.db').replace(/[.]/g, '\\.')}`));
  assert.match(keeper.out(), /Reading .*\.binder as Helper \(agent:helper\)/);
  const r = await binderAsync(['add', 'Batches', 'From the helper', '--dir', folder]);
  assert.equal(r.code, 0, r.err);
  await until(() => /Helper add done: Added #\d+/.test(keeper.out()), 5_000, 'the ask line');
  assert.equal(await keeper.stop(), 0);
  assert.match(keeper.out(), /Binder no longer kept\./);
  const beat = JSON.parse(readFileSync(join(folder, 'keeper.json'), 'utf8')) as { stopped: boolean };
  assert.equal(beat.stopped, true);
  const after = await binderAsync(['lists', '--dir', folder]);
  assert.equal(after.code, 3, 'nobody keeps it now, said at once');
});

test('a stop asked while the keeper starts (its first pass over 3,000 asks) is a clean stop, never a kill', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const store = join(root, 'store');
  const folder = join(root, 'w', '.binder');
  mkdirSync(folder, { recursive: true });
  assert.equal(binder(['admin', '--store', store, 'create-list', 'Batches', '--template', 'batches']).code, 0);
  assert.equal(binder(['admin', '--store', store, 'side', 'add', folder, 'Helper']).code, 0);
  assert.equal(binder(['admin', '--store', store, 'grant', 'batches', 'Helper', 'write']).code, 0);
  const at = Date.now();
  const ask = (i: number): string => JSON.stringify({
    id: `ask-${i}`, at: new Date(at).toISOString(), op: 'add', args: { list: 'batches', title: `Asked ${i}` }, until: new Date(at + 120_000).toISOString(),
  });
  writeFileSync(join(folder, 'asks.jsonl'), `${Array.from({ length: 3000 }, (_, i) => ask(i)).join('\n')}\n`);
  const p = spawn(process.execPath, [BINDER, 'serve', '--no-tui', '--store', store], { cwd: dirname(store), stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => p.kill('SIGKILL'));
  let out = '';
  p.stdout.on('data', (c) => { out += c; });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => p.on('close', (code, signal) => resolve({ code, signal })));
  // Its first sign of life is the heartbeat, written as it starts: stopped then, it must still stop cleanly.
  const heartbeat = join(folder, 'keeper.json');
  await until(() => existsSync(heartbeat), 15_000, 'the heartbeat');
  p.kill('SIGTERM');
  assert.deepEqual(await ended, { code: 0, signal: null }, 'killed by SIGTERM while it started, before it listened for it');
  assert.match(out, /Binder no longer kept\./);
  assert.equal((JSON.parse(readFileSync(heartbeat, 'utf8')) as { stopped: boolean }).stopped, true);
});

test('serve speaks French with --lang fr, and refuses another language', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const store = join(root, 'store');
  const folder = join(root, 'w', '.binder');
  const child = await import('node:child_process');
  const { BINDER } = await import('../helpers/processes.js');
  const p = child.spawn(process.execPath, [BINDER, 'serve', '--no-tui', '--store', store, '--side', `${folder}=Aide`, '--lang', 'fr']);
  let out = '';
  p.stdout.on('data', (c) => { out += c; });
  t.after(() => p.kill('SIGKILL'));
  await until(() => out.includes('Arrêt : Ctrl-C.'), 15_000, 'the French start');
  assert.match(out, /Binder tenu dans/);
  assert.match(out, /Lit .* pour Aide/);
  p.kill('SIGTERM');
  assert.equal(binder(['serve', '--no-tui', '--store', store, '--lang', 'de']).code, 64);
});

test('a log line is cut at whole characters, on one line, and says it was cut', async () => {
  const { clip } = await import('../../src/app/serve.js');
  assert.equal(clip('short', 10), 'short');
  assert.equal(clip('a'.repeat(200), 160), `${'a'.repeat(159)}…`);
  assert.equal(clip('😀'.repeat(5), 3), '😀😀…', 'never half a character');
  assert.equal(clip('one\ntwo\r\nthree\u001b[2J', 40), 'one⏎two⏎three', 'a line break shown, not obeyed');
  assert.doesNotMatch(clip('x\n'.repeat(100), 160), /\n/);
});

test('serve --http with no folder registered reads none: it makes no .binder where it was started', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const p = spawn(process.execPath, [BINDER, 'serve', '--no-tui', '--store', join(root, 'store'), '--http', '127.0.0.1:0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => p.kill('SIGKILL'));
  let out = '';
  p.stdout.on('data', (c) => { out += c; });
  const ended = new Promise<number | null>((resolve) => p.on('close', (code) => resolve(code)));
  await until(() => out.includes('Stop with Ctrl-C'), 15_000, 'the keeper to start');
  assert.doesNotMatch(out, /Reading /, 'no folder read');
  assert.equal(existsSync(join(root, '.binder')), false, 'no .binder made in the folder it was started from');
  p.kill('SIGTERM');
  assert.equal(await ended, 0);
});
