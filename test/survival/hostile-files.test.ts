/**
 * Promise 5: hostile folder files, against a real `binder serve`. asks.jsonl or answers.jsonl as a
 * link (to the keeper's own binder.db, to /dev/zero, to a file outside), a hard link to a file
 * outside, a FIFO, a directory, a socket, the folder itself a link, and files swapped for links
 * while the keeper reads. Nothing is read or written outside the folder (asks planted outside are
 * never done, files outside never change, no byte of them shows anywhere), the keeper never hangs,
 * says each problem once on its stderr, and serves the other folders.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync, linkSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, symlinkSync, unlinkSync, writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { until } from '../helpers/temp.js';
import { ANSWERS_FILE, ASKS_FILE, HEARTBEAT_FILE } from '../../src/keeper/protocol.js';
import { ann, answerTo, appendAsk, askLine, count, integrity, makeBinder, residentBytes, startKeeper, survivalDir } from './harness.js';
import { dbOf } from '../helpers/sqlite-db.js';

/** Each trap: its folder's name, how it is set, and what the keeper must say of it. */
const TRAPS = {
  'asks-to-store': /asks\.jsonl is a symbolic link/,
  'asks-to-zero': /asks\.jsonl is a symbolic link/,
  'asks-outside': /asks\.jsonl is a symbolic link/,
  'answers-to-store': /answers\.jsonl is a symbolic link/,
  'answers-outside': /answers\.jsonl is a symbolic link/,
  'asks-hardlink': /asks\.jsonl has other names \(a hard link\)/,
  'answers-hardlink': /answers\.jsonl has other names \(a hard link\)/,
  'asks-fifo': /asks\.jsonl is not a regular file \(a FIFO or a socket\)|asks\.jsonl is a FIFO/,
  'answers-fifo': /answers\.jsonl is a FIFO/,
  'asks-dir': /asks\.jsonl is a directory/,
  'asks-socket': /asks\.jsonl is not a regular file/,
  'folder-link': /is a symbolic link: the keeper never follows one; give the folder's real path/,
} as const;
type Trap = keyof typeof TRAPS;

/** Every regular file under `dir`, links not followed. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const seen = lstatSync(path);
    if (seen.isDirectory()) out.push(...filesUnder(path));
    else if (seen.isFile()) out.push(path);
  }
  return out;
}

test('links, hard links, FIFOs, directories, sockets and swaps in a folder: nothing read or written outside it, no hang, one line each, the others served', { timeout: 90_000 }, async (t) => {
  const root = survivalDir(t, 'binder-hostile-files-');
  const { storeDir, store, dirs } = await makeBinder(root, 1);
  t.after(() => store.close());
  const good = dirs[0]!;
  const dbPath = join(storeDir, 'binder.db');
  // A person's own record, in a list no agent sees: its title must never show in a folder.
  const SECRET_TITLE = 'KEEPERS-OWN-9f2c';
  const privateList = await store.createList({ template: 'people', title: 'Private' }, ann);
  await store.add(privateList.id, { title: SECRET_TITLE }, ann);

  const outside = join(root, 'outside');
  mkdirSync(outside);
  const plant = (file: string, ids: string[]) => writeFileSync(join(outside, file), ids.map((id) => askLine(id, 'add', { list: 'tasks', title: id })).join(''));
  plant('bait-asks', ['bait-1', 'bait-2']);
  plant('bait-hard', ['bait-hard-1']);
  mkdirSync(join(outside, 'real'));
  writeFileSync(join(outside, 'real', ASKS_FILE), askLine('bait-folder', 'add', { list: 'tasks', title: 'bait-folder' }));
  for (const name of ['secret', 'secret-hard', 'secret-swap']) writeFileSync(join(outside, name), `SECRET-${name}-5d1e\n`);
  const outsideBefore = new Map(filesUnder(outside).map((path) => [path, { text: readFileSync(path, 'utf8'), mtime: statSync(path).mtimeMs }]));

  const trapDir = (trap: Trap | 'swap') => join(root, trap, '.binder');
  const traps = Object.keys(TRAPS) as Trap[];
  for (const [i, trap] of [...traps, 'swap' as const].entries()) {
    const dir = trapDir(trap);
    if (trap === 'folder-link') {
      mkdirSync(join(root, trap));
      symlinkSync(join(outside, 'real'), dir);
    } else {
      mkdirSync(dir, { recursive: true });
    }
    await store.addSide(dir, `Trap ${i}`, ann);
    await store.grant('tasks', `Trap ${i}`, 'write', ann);
  }
  const at = (trap: Trap, file: string) => join(trapDir(trap), file);
  symlinkSync(dbPath, at('asks-to-store', ASKS_FILE));
  symlinkSync('/dev/zero', at('asks-to-zero', ASKS_FILE));
  symlinkSync(join(outside, 'bait-asks'), at('asks-outside', ASKS_FILE));
  symlinkSync(dbPath, at('answers-to-store', ANSWERS_FILE));
  symlinkSync(join(outside, 'secret'), at('answers-outside', ANSWERS_FILE));
  linkSync(join(outside, 'bait-hard'), at('asks-hardlink', ASKS_FILE));
  linkSync(join(outside, 'secret-hard'), at('answers-hardlink', ANSWERS_FILE));
  execFileSync('mkfifo', [at('asks-fifo', ASKS_FILE), at('answers-fifo', ANSWERS_FILE)]);
  mkdirSync(at('asks-dir', ASKS_FILE));
  const server = createServer();
  await new Promise<void>((done) => server.listen(at('asks-socket', ASKS_FILE), done));
  t.after(() => server.close());
  symlinkSync(dbPath, at('asks-dir', HEARTBEAT_FILE));
  // Asks that may only be taken once their answers can be written: never, while the trap stays.
  for (const trap of ['answers-to-store', 'answers-outside', 'answers-hardlink', 'answers-fifo'] as const) {
    appendAsk(trapDir(trap), `held-${trap}`, 'add', { list: 'tasks', title: `held-${trap}` });
  }

  const keeper = await startKeeper(storeDir);
  t.after(() => keeper.kill());
  let peak = residentBytes(keeper.pid) ?? 0;
  const answerGood = async (id: string): Promise<number> => {
    const asked = Date.now();
    appendAsk(good, id, 'add', { list: 'tasks', title: id });
    assert.equal((await answerTo(good, id, 10_000)).ok, true);
    peak = Math.max(peak, residentBytes(keeper.pid) ?? 0);
    return Date.now() - asked;
  };
  const latencies = [await answerGood('good-1')];
  await until(() => traps.every((trap) => TRAPS[trap].test(keeper.err())), 10_000, 'every trap said');

  // Swaps while the keeper reads: asks.jsonl a file with an ask of its own, then a link to asks
  // planted outside; answers.jsonl a file, then a link to a file outside. Renames, as fast as can be.
  const swap = trapDir('swap');
  let swaps = 0;
  let legit = 0;
  const swapUntil = Date.now() + 1500;
  while (Date.now() < swapUntil) {
    writeFileSync(join(swap, 'asks.tmp'), askLine(`swap-${legit++}`, 'add', { list: 'tasks', title: 'swap' }));
    renameSync(join(swap, 'asks.tmp'), join(swap, ASKS_FILE));
    writeFileSync(join(swap, 'answers.tmp'), '');
    renameSync(join(swap, 'answers.tmp'), join(swap, ANSWERS_FILE));
    symlinkSync(join(outside, 'bait-asks'), join(swap, 'asks.tmp'));
    renameSync(join(swap, 'asks.tmp'), join(swap, ASKS_FILE));
    symlinkSync(join(outside, 'secret-swap'), join(swap, 'answers.tmp'));
    renameSync(join(swap, 'answers.tmp'), join(swap, ANSWERS_FILE));
    swaps += 4;
    if (swaps % 400 === 0) {
      latencies.push(await answerGood(`good-during-${swaps}`));
      peak = Math.max(peak, residentBytes(keeper.pid) ?? 0);
    }
  }
  latencies.push(await answerGood('good-2'));

  // Once a trap is removed, its folder is served, and the ask that waited is answered once.
  unlinkSync(at('answers-fifo', ANSWERS_FILE));
  assert.equal((await answerTo(trapDir('answers-fifo'), 'held-answers-fifo', 10_000)).ok, true);
  assert.equal(keeper.exited(), false, 'the keeper is still running');
  assert.equal(await keeper.stop(), 0, keeper.err());

  // Nothing planted outside was done; nothing outside changed or appeared.
  const titles = dbOf(store).prepare('SELECT title FROM records').pluck().all() as string[];
  assert.deepEqual(titles.filter((title) => title.startsWith('bait')), [], 'no ask planted outside was read');
  assert.equal(count(store, "SELECT count(*) FROM asks WHERE id LIKE 'bait%'"), 0);
  for (const trap of ['answers-to-store', 'answers-outside', 'answers-hardlink'] as const) {
    assert.equal(titles.includes(`held-${trap}`), false, `${trap}: an ask whose answer cannot be written safely is not done`);
  }
  const outsideAfter = filesUnder(outside);
  assert.deepEqual(outsideAfter.sort(), [...outsideBefore.keys()].sort(), 'no file appeared outside');
  for (const [path, before] of outsideBefore) {
    assert.equal(readFileSync(path, 'utf8'), before.text, `${path} unchanged`);
    assert.equal(statSync(path).mtimeMs, before.mtime, `${path} not written`);
  }
  assert.equal(integrity(store), 'ok', 'the store, linked to from folders, is whole');

  // No byte of anything outside, nor of the store, in any folder or in what the keeper said.
  const markers = ['SECRET-', SECRET_TITLE, 'SQLite format 3', 'bait-'];
  const places = [...[...traps, 'swap' as const].filter((trap) => trap !== 'folder-link').map(trapDir), good]
    .flatMap((dir) => filesUnder(dir))
    // Not the asks (written by the agent) nor the hard links planted: they are the outside files.
    .filter((path) => !path.endsWith(ASKS_FILE) && !path.endsWith('asks.jsonl.old') && lstatSync(path).nlink === 1);
  let leaked = 0;
  const where: string[] = [];
  const look = (place: string, text: string, marks: string[]) => {
    for (const marker of marks) {
      const found = text.split(marker).length - 1;
      leaked += found;
      if (found) where.push(`${marker} in ${place}`);
    }
  };
  for (const path of places) look(path, readFileSync(path, 'latin1'), markers);
  look('the keeper\'s stdout', keeper.out(), markers.slice(0, 3));
  look('the keeper\'s stderr', keeper.err(), markers.slice(0, 3));
  assert.equal(leaked, 0, `bytes leaked: ${where.join('; ')}`);
  assert.equal(existsSync(join(outside, 'real', ANSWERS_FILE)), false, 'nothing written through a linked folder');

  // Each standing problem said once on stderr, though the keeper met it at every pass.
  const lines = keeper.err().split('\n').filter(Boolean);
  for (const trap of traps) {
    const said = lines.filter((line) => line.includes(`/${trap}/`) && TRAPS[trap].test(line));
    assert.equal(said.length, 1, `${trap}: ${said.join(' | ')}`);
  }
  t.diagnostic(JSON.stringify({
    attacks: traps.length + 1, swaps, swapAsksTaken: count(store, 'SELECT count(*) FROM asks WHERE dir = ?', swap), folders: traps.length + 2, goodAnswers: latencies.length,
    slowestGoodAnswerMs: Math.max(...latencies), keeperPeakRss: peak, leaked, stderrLines: lines.length,
  }));
});
