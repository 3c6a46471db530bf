/** Nothing piles up: the folder's files and the ledger of asks are compacted past the answer window, losing nothing waited for. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, closeSync, existsSync, ftruncateSync, openSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/store/index.js';
import { createFolderPump, KEEP_ASKS_MS, OLD_ASKS_FILE } from '../../src/keeper/folder-pump.js';
import { bytesRead } from '../../src/keeper/folder-files.js';
import { ANSWERS_FILE, ASKS_FILE, TOO_LATE_MS } from '../../src/keeper/protocol.js';
import { tempDir } from '../helpers/temp.js';
import { pumpStore } from './pump-store.js';

function setup(t: TestContext) {
  const root = tempDir(t, 'binder-compact-');
  const db = new Database(join(root, 'store.db'));
  db.pragma('journal_mode = WAL');
  for (const migration of MIGRATIONS) db.exec(migration);
  db.exec('CREATE TABLE done (op TEXT)');
  const clock = { now: Date.parse('2030-05-06T07:08:09.000Z') };
  const dir = join(root, 'agent', '.binder');
  const logs: string[] = [];
  const pump = createFolderPump({
    store: pumpStore(db),
    now: () => clock.now,
    sides: () => [{ dir, who: { id: 'agent:c', kind: 'agent', name: 'C' } }],
    perform: async (op) => {
      db.prepare('INSERT INTO done (op) VALUES (?)').run(op);
      return { ok: true, text: `did ${op}` };
    },
    log: (line) => logs.push(line),
  });
  t.after(async () => {
    await pump.close();
    db.close();
  });
  return {
    db, dir, clock, pump, logs,
    line: (id: string) => `${JSON.stringify({ id, at: new Date(clock.now).toISOString(), op: 'add', args: { title: `title of ${id}` } })}\n`,
    append: (text: string) => appendFileSync(join(dir, ASKS_FILE), text),
    answered: () =>
      existsSync(join(dir, ANSWERS_FILE))
        ? readFileSync(join(dir, ANSWERS_FILE), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { ask: string }).ask)
        : [],
    /** Every byte of every file in the folder, as text. */
    everything: () => readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8')).join('\n'),
    done: () => (db.prepare('SELECT count(*) AS n FROM done').get() as { n: number }).n,
    later: (ms: number) => {
      clock.now += ms;
    },
  };
}

test('past the window no text of an old ask or answer is left in the folder, and the ledger forgets answers', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.append(s.line('old-one') + s.line('old-two'));
  assert.equal(await s.pump.pump(), 2);
  assert.match(s.everything(), /old-one/);
  s.later(TOO_LATE_MS + 1000);
  await s.pump.pump();
  assert.ok(existsSync(join(s.dir, OLD_ASKS_FILE)), 'the asks file was renamed aside');
  assert.equal(existsSync(join(s.dir, ASKS_FILE)), false);
  assert.deepEqual(s.answered(), [], 'old answers are gone');
  s.later(1500);
  await s.pump.pump();
  assert.equal(existsSync(join(s.dir, OLD_ASKS_FILE)), false, 'and removed once nothing more came');
  assert.doesNotMatch(s.everything(), /old-one|old-two|title of/);
  const kept = s.db.prepare('SELECT count(*) AS n FROM asks WHERE answer IS NOT NULL').get() as { n: number };
  assert.equal(kept.n, 0, 'the ledger keeps the ids, not the answers');
  // A new ask after all that is read from a new file, and answered.
  s.append(s.line('new-one'));
  assert.equal(await s.pump.pump(), 1);
  assert.deepEqual(s.answered(), ['new-one']);
  // And the replay of an old id is still known.
  s.append(s.line('old-one'));
  assert.equal(await s.pump.pump(), 0);
  assert.equal(s.done(), 3);
});

test('an answer still waited for survives compaction; older ones go', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.append(s.line('early'));
  await s.pump.pump();
  s.later(TOO_LATE_MS - 10_000);
  s.append(s.line('recent'));
  await s.pump.pump();
  s.later(11_000); // early's answer is past the window, recent's is 11 s old
  await s.pump.pump();
  assert.deepEqual(s.answered(), ['recent']);
  assert.ok(existsSync(join(s.dir, ASKS_FILE)), 'the asks file stays while its newest ask is recent');
  // After compaction the keeper knows the new file: a pass does not read it.
  const before = bytesRead[ANSWERS_FILE] ?? 0;
  s.append(s.line('after'));
  await s.pump.pump();
  assert.equal(bytesRead[ANSWERS_FILE] ?? 0, before);
  assert.deepEqual(s.answered(), ['recent', 'after']);
});

test('an agent that never pauses a minute still has its old asks compacted away', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  for (let i = 0; i < 8; i++) {
    s.append(s.line(`busy-${i}`));
    assert.equal(await s.pump.pump(), 1);
    s.later(30_000);
    await s.pump.pump();
  }
  s.later(1500);
  await s.pump.pump();
  assert.doesNotMatch(s.everything(), /busy-0|busy-1"/);
  assert.equal(s.done(), 8);
});

test('an ask appended into the asks file as it is renamed aside is still read and answered', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.append(s.line('first'));
  await s.pump.pump();
  // An agent opened the file before the rename and writes after it: its bytes land in the renamed file.
  const fd = openSync(join(s.dir, ASKS_FILE), 'a');
  t.after(() => closeSync(fd));
  s.later(TOO_LATE_MS + 1000);
  await s.pump.pump();
  assert.ok(existsSync(join(s.dir, OLD_ASKS_FILE)));
  writeSync(fd, s.line('late-comer'));
  s.later(200);
  assert.equal(await s.pump.pump(), 1);
  assert.deepEqual(s.answered(), ['late-comer']);
  // Quiet for a second: removed.
  s.later(1500);
  await s.pump.pump();
  s.later(1500);
  await s.pump.pump();
  assert.equal(existsSync(join(s.dir, OLD_ASKS_FILE)), false);
});

test('a renamed asks file left by a keeper that stopped is read by the next one, without redoing anything', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.append(s.line('done-before'));
  await s.pump.pump();
  s.later(TOO_LATE_MS + 1000);
  await s.pump.pump();
  assert.ok(existsSync(join(s.dir, OLD_ASKS_FILE)));
  // This keeper stops now; an agent's late ask lands in the renamed file.
  appendFileSync(join(s.dir, OLD_ASKS_FILE), s.line('late'));
  const next = createFolderPump({
    store: pumpStore(s.db),
    now: () => s.clock.now,
    sides: () => [{ dir: s.dir, who: { id: 'agent:c', kind: 'agent', name: 'C' } }],
    perform: async (op) => {
      s.db.prepare('INSERT INTO done (op) VALUES (?)').run(op);
      return { ok: true, text: `did ${op}` };
    },
    log: (line) => s.logs.push(line),
  });
  t.after(() => next.close());
  assert.equal(await next.pump(), 1, 'it adopts the renamed file and reads it whole');
  assert.equal(await next.pump(), 0);
  assert.equal(s.done(), 2, 'the ask taken before is not done again');
  s.later(1500);
  await next.pump();
  s.later(1500);
  await next.pump();
  assert.equal(existsSync(join(s.dir, OLD_ASKS_FILE)), false);
  assert.deepEqual(s.logs.filter((l) => /already taken/.test(l)), [], 'reading it again is no replay to report');
});

test('asks a week old are forgotten: an id replayed after that is taken as a new ask', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.append(s.line('weekly'));
  await s.pump.pump();
  s.later(KEEP_ASKS_MS + 60_000);
  await s.pump.pump();
  const rows = s.db.prepare('SELECT count(*) AS n FROM asks').get() as { n: number };
  assert.equal(rows.n, 0);
  s.append(s.line('weekly'));
  assert.equal(await s.pump.pump(), 1);
  assert.equal(s.done(), 2);
});

test('temporary files a stopped keeper left are removed', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  const stale = join(s.dir, '.answers.jsonl.4242.0123456789ab.tmp');
  writeFileSync(stale, '{"ask":"secret"}\n');
  const past = new Date(Date.now() - 3600_000);
  utimesSync(stale, past, past);
  const theirs = join(s.dir, '.answers.jsonl.4242.notours.tmp');
  writeFileSync(theirs, 'x');
  utimesSync(theirs, past, past);
  const next = createFolderPump({
    store: pumpStore(s.db),
    now: () => s.clock.now,
    sides: () => [{ dir: s.dir, who: { id: 'agent:c', kind: 'agent', name: 'C' } }],
    perform: async () => ({ ok: true, text: '' }),
    log: () => {},
  });
  t.after(() => next.close());
  await next.pump();
  assert.equal(existsSync(stale), false);
  assert.equal(existsSync(theirs), true, 'a name not of ours is left alone');
});

test('an answers file an agent swelled (sparse, 20 GB; or of lines dated ahead) is read no further than the keeper writes: compaction ends at once and keeps none of it', { timeout: 60_000 }, async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.append(s.line('mine'));
  await s.pump.pump();
  // 20 GB that take no room on the disk: read whole, minutes of the keeper's time, everyone waiting.
  const fd = openSync(join(s.dir, ANSWERS_FILE), 'r+');
  ftruncateSync(fd, 20 * 1024 ** 3);
  closeSync(fd);
  const before = bytesRead[ANSWERS_FILE] ?? 0;
  s.later(TOO_LATE_MS + 1000);
  await s.pump.pump();
  const read = (bytesRead[ANSWERS_FILE] ?? 0) - before;
  assert.ok(read <= 40 * 1024 * 1024, `read ${read} bytes of it`);
  assert.ok(statSync(join(s.dir, ANSWERS_FILE)).size < 1024 * 1024, 'rewritten small');
  assert.ok(s.logs.some((l) => /answers\.jsonl .*more than the keeper writes/.test(l)), s.logs.join('\n'));

  // Lines shaped as answers, dated years ahead: kept by no compaction.
  const ahead = `${JSON.stringify({ ask: 'x', at: '2099-01-01T00:00:00.000Z', ok: true, text: 'forever' })}\n`;
  appendFileSync(join(s.dir, ANSWERS_FILE), ahead.repeat(1000));
  s.later(TOO_LATE_MS + 1000);
  await s.pump.pump();
  assert.doesNotMatch(readFileSync(join(s.dir, ANSWERS_FILE), 'utf8'), /forever/);
  // And the folder is served as before.
  s.append(s.line('after'));
  assert.equal(await s.pump.pump(), 1);
  assert.deepEqual(s.answered(), ['after']);
});
