/**
 * Promise 11: a full disk. The store on a small tmpfs is filled up while `binder serve` keeps it:
 * changes are refused with a clear sentence, once each (a keeper killed while the disk is full
 * included), nothing is corrupted, and the service resumes when space returns. Skipped, with
 * the reason, where a tmpfs cannot be mounted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binderAsync } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';
import { answeredTwice, answerTo, answersIn, appendAsk, count, integrity, makeBinder, startKeeper, type Keeping } from './harness.js';
import { dbOf } from '../helpers/sqlite-db.js';

const FULL = /the disk that holds the binder is full/i;

/** Writes zeros into `path` until the file system says there is no room left; returns the bytes written. */
function fill(path: string): number {
  const fd = openSync(path, 'w');
  let written = 0;
  try {
    for (const size of [65536, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          written += writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

test('a full disk: changes refused with a sentence, once each; nothing corrupted; served again once there is room', { timeout: 90_000 }, async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'binder-full-'));
  const disk = join(root, 'disk');
  mkdirSync(disk);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', disk], { stdio: 'pipe' });
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    const why = String((error as { stderr?: unknown }).stderr ?? error).trim().split('\n')[0];
    t.skip(`a tmpfs cannot be mounted here (${why}): the full-disk test needs root or CAP_SYS_ADMIN`);
    return;
  }
  let made: Awaited<ReturnType<typeof makeBinder>> | null = null;
  let keeper: Keeping | null = null;
  // One hook, in this order: nothing may hold the tmpfs when it is unmounted.
  t.after(async () => {
    await keeper?.kill();
    await made?.store.close();
    try { execFileSync('umount', [disk], { stdio: 'pipe' }); } catch { execFileSync('umount', ['-l', disk]); }
    rmSync(root, { recursive: true, force: true });
  });

  made = await makeBinder(root, 1, join(disk, 'store'));
  const { storeDir, store, dirs } = made;
  const dir = dirs[0]!;
  keeper = await startKeeper(storeDir);
  let n = 0;
  const ask = async (title: string) => {
    const id = `ask-${n++}`;
    appendAsk(dir, id, 'add', { list: 'tasks', title, note: 'n'.repeat(2000) });
    return { id, ...(await answerTo(dir, id, 20_000)) };
  };
  assert.equal((await ask('before')).ok, true);

  const filler = join(disk, 'filler');
  const filled = fill(filler);
  // Asks until the store needs room it has not: the first few may still fit in room SQLite holds.
  let refused: { id: string; text: string } | null = null;
  const fitted: string[] = [];
  for (let i = 0; i < 40 && !refused; i++) {
    const answer = await ask(`while full ${i}`);
    if (answer.ok) fitted.push(`while full ${i}`);
    else refused = answer;
  }
  assert.ok(refused, 'an ask was refused once the disk was full');
  assert.match(refused.text, FULL);
  // While the disk stays full, every change is refused so, and said so to `binder` too.
  for (let i = 0; i < 3; i++) assert.match((await ask(`still full ${i}`)).text, FULL);
  const run = await binderAsync(['add', 'Tasks', 'from binder while full', '--dir', dir]);
  assert.equal(run.code, 1, run.err);
  assert.match(run.err, FULL);
  const first = keeper;
  await until(() => /disk .*full/i.test(first.err()), 5_000, 'the keeper to say the disk is full');
  const firstSaid = first.err();

  // Killed while the disk is full and started again: the asks it refused (and could not record)
  // are not answered again, and a new one is refused once.
  await keeper.kill();
  keeper = await startKeeper(storeDir);
  assert.match((await ask('full after a restart')).text, FULL);

  // Room again: served again, and the asks refused are neither done nor answered again.
  unlinkSync(filler);
  const after = await ask('after');
  assert.equal(after.ok, true, after.text);
  appendAsk(dir, 'last', 'lists', {});
  await answerTo(dir, 'last');
  assert.equal(keeper.exited(), false);
  const said = keeper.err();
  assert.equal(await keeper.stop(), 0, said);
  for (const text of [firstSaid, said]) assert.equal(text.split('\n').filter((line) => /is full/.test(line)).length, 1, `each keeper said it once: ${text}`);
  assert.match(said, /has room again/);

  const titles = dbOf(store).prepare('SELECT title FROM records ORDER BY id').pluck().all() as string[];
  assert.deepEqual(titles, ['before', ...fitted, 'after'], 'only the asks answered done were done');
  assert.deepEqual(answeredTwice(dir), [], 'each ask answered once');
  const answers = answersIn(dir);
  assert.equal(answers.length, n + 2, 'every ask answered (the binder command\'s too)');
  assert.equal(answers.filter((a) => FULL.test(a.text)).length, 6, 'the first refused, the three after it, the binder command\'s, the one after the restart');
  assert.equal(integrity(store), 'ok');
  assert.equal(count(store, 'SELECT count(*) FROM asks'), n + 2, 'the asks refused are in the ledger once there was room');
  t.diagnostic(JSON.stringify({ filledBytes: filled, fittedWhileFull: fitted.length, refused: answers.filter((a) => FULL.test(a.text)).length, asks: n + 2 }));
});
