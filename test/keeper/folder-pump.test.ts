/** The folder pump's reading and answering: only what was appended, each ask done once, every line judged. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import {
  appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync, writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { useProc } from '../../src/keeper/folder-bind.js';
import Database from 'better-sqlite3';
import { MIGRATIONS, type Store } from '../../src/store/index.js';
import { createFolderPump, DISK_FULL_TEXT, READ_MAX, TOO_LATE_TEXT, NO_TIME_TEXT, type PumpDeps } from '../../src/keeper/folder-pump.js';
import { bytesRead, fileKey } from '../../src/keeper/folder-files.js';
import { ANSWERS_FILE, ASKS_FILE, LINE_MAX } from '../../src/keeper/protocol.js';
import type { SideConfig } from '../../src/keeper/keeper-types.js';
import { tempDir, until } from '../helpers/temp.js';
import { pumpStore, type CountedStore } from './pump-store.js';

const START = Date.parse('2030-01-02T03:04:05.000Z');

/** A store made by hand, a fake `perform` that records what it did, and a pump over one or more folders. */
function setup(t: TestContext, more: Partial<PumpDeps> & { folders?: number } = {}) {
  const root = tempDir(t, 'binder-pump-');
  const db = new Database(join(root, 'store.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  for (const migration of MIGRATIONS) db.exec(migration);
  db.exec('CREATE TABLE done (dir TEXT, op TEXT, args TEXT)');
  const clock = { now: START };
  const logs: string[] = [];
  const sides: SideConfig[] = Array.from({ length: more.folders ?? 1 }, (_, i) => ({
    dir: join(root, `agent${i}`, '.binder'),
    who: { id: `agent:a${i}`, kind: 'agent', name: `A${i}` },
  }));
  const record = db.prepare('INSERT INTO done (dir, op, args) VALUES (?, ?, ?)');
  const deps: PumpDeps = {
    store: pumpStore(db),
    now: () => clock.now,
    sides: () => sides,
    perform: async (op, args, who, want) => {
      record.run(who.id, op, JSON.stringify(args));
      return { ok: op !== 'refuse', text: `did ${op}`, ...(want === 'json' ? { data: { op, n: 1 } } : {}) };
    },
    log: (line) => logs.push(line),
    ...more,
  };
  const pump = createFolderPump(deps);
  t.after(async () => {
    await pump.close();
    db.close();
  });
  const dir = sides[0]!.dir;
  return {
    root, db, pump, clock, logs, sides, dir, deps,
    /** The folder's key in the ledger: its directory's identity. */
    key: (at = dir) => fileKey(statSync(at)),
    transactions: () => (deps.store as CountedStore).transactions(),
    done: (op?: string) => (db.prepare(`SELECT count(*) AS n FROM done ${op ? 'WHERE op = ?' : ''}`).get(...(op ? [op] : [])) as { n: number }).n,
    line: (id: string, op = 'add', extra: Record<string, unknown> = {}) =>
      `${JSON.stringify({ id, at: new Date(clock.now).toISOString(), op, args: { title: id }, ...extra })}\n`,
    append: (text: string | Buffer, at = dir) => appendFileSync(join(at, ASKS_FILE), text),
    answers: (at = dir) => {
      const path = join(at, ANSWERS_FILE);
      if (!existsSync(path)) return [] as Record<string, unknown>[];
      return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    },
  };
}

test('an ask appended is done and answered once; the answer line has its shape', async (t) => {
  const s = setup(t);
  await s.pump.pump(); // makes the folder
  assert.ok(statSync(s.dir).isDirectory(), 'a folder that did not exist is made');
  s.append(s.line('a1', 'add'));
  assert.equal(await s.pump.pump(), 1);
  assert.equal(s.done(), 1);
  const answers = s.answers();
  assert.deepEqual(answers, [{ ask: 'a1', at: new Date(START).toISOString(), ok: true, text: 'did add' }]);
  assert.equal(statSync(join(s.dir, ANSWERS_FILE)).mode & 0o777, 0o640, 'readable by the folder\'s owner and group, written by the keeper alone');
  assert.equal(statSync(s.dir).mode & 0o777, 0o700, 'a folder the keeper made is its user\'s alone');
  assert.equal(await s.pump.pump(), 0, 'nothing new: nothing done');
  assert.equal(s.done(), 1);
  assert.equal(s.answers().length, 1);
  const [status] = s.pump.folders();
  assert.equal(status!.answered, 1);
  assert.equal(status!.lastAsk, START);
  assert.equal(status!.problem, null);
  assert.equal(status!.agent, 'agent:a0');
  // Kept under the folder's binding: its directory's identity, not its path.
  const folder = statSync(s.dir);
  const row = s.db.prepare('SELECT asks_offset, asks_ino FROM folder_marks WHERE dir = ?').get(fileKey(folder)) as { asks_offset: number; asks_ino: string };
  assert.equal(row.asks_offset, statSync(join(s.dir, ASKS_FILE)).size);
  const st = statSync(join(s.dir, ASKS_FILE));
  assert.equal(row.asks_ino, fileKey(st));
});

test('the answers file and the heartbeat are readable by the folder\'s owner and group whatever the keeper\'s umask, by nobody else', async (t) => {
  const before = process.umask(0o077);
  t.after(() => process.umask(before));
  const s = setup(t);
  await s.pump.start();
  s.append(s.line('u1'));
  await s.pump.pump();
  await s.pump.close();
  for (const name of [ANSWERS_FILE, 'keeper.json']) assert.equal(statSync(join(s.dir, name)).mode & 0o777, 0o640, name);
});

test('several asks read together are done in one transaction and answered in one more', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.append(Array.from({ length: 50 }, (_, i) => s.line(`g${i}`)).join(''));
  const before = s.transactions();
  assert.equal(await s.pump.pump(), 50);
  assert.equal(s.transactions() - before, 2);
  assert.equal(s.answers().length, 50);
});

test('a thousand asks in one write are all answered, a share a pass, and want:json carries data', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.append(Array.from({ length: 1000 }, (_, i) => s.line(`k${i}`, 'show', i % 2 ? { want: 'json' } : {})).join(''));
  const passes: number[] = [];
  while (passes.reduce((a, b) => a + b, 0) < 1000 && passes.length < 20) passes.push(await s.pump.pump());
  assert.deepEqual(passes, [128, 128, 128, 128, 128, 128, 128, 104]);
  const answers = s.answers();
  assert.equal(answers.length, 1000);
  assert.equal(new Set(answers.map((a) => a.ask)).size, 1000);
  assert.deepEqual(answers[1]!.data, { op: 'show', n: 1 });
  assert.equal('data' in answers[0]!, false);
});

test('an agent that writes thousands of asks at once has them done a share a pass: another folder\'s ask is answered in the first', async (t) => {
  const s = setup(t, { folders: 2 });
  await s.pump.pump();
  const [flood, other] = [s.sides[0]!.dir, s.sides[1]!.dir];
  s.append(Array.from({ length: 5000 }, (_, i) => s.line(`f${i}`, 'show')).join(''), flood);
  s.append(s.line('mine', 'add'), other);
  assert.equal(await s.pump.pump(), 129, 'the flood\'s share, and the other\'s ask');
  assert.deepEqual(s.answers(other).map((a) => a.ask), ['mine']);
  assert.equal(s.answers(flood).length, 128);
});

test('a partial last line waits until it is complete', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  const whole = s.line('p1');
  s.append(whole.slice(0, 20));
  assert.equal(await s.pump.pump(), 0);
  assert.equal(s.answers().length, 0);
  s.append(whole.slice(20, -1));
  assert.equal(await s.pump.pump(), 0);
  s.append('\n');
  assert.equal(await s.pump.pump(), 1);
  assert.deepEqual(s.answers().map((a) => a.ask), ['p1']);
  assert.deepEqual(s.logs, [], 'a line read in pieces is no garbage');
});

test('a replaced asks file is read from its start, and so is a truncated one', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.append(s.line('r1') + s.line('r2'));
  assert.equal(await s.pump.pump(), 2);
  // Replaced: another inode, shorter than the offset reached.
  const next = join(s.dir, 'next.jsonl');
  writeFileSync(next, s.line('r3'));
  renameSync(next, join(s.dir, ASKS_FILE));
  assert.equal(await s.pump.pump(), 1);
  // Replaced by a longer file: still read from 0.
  writeFileSync(next, s.line('r4') + s.line('r5') + s.line('r6'));
  renameSync(next, join(s.dir, ASKS_FILE));
  assert.equal(await s.pump.pump(), 3);
  // Truncated in place, then written again.
  truncateSync(join(s.dir, ASKS_FILE), 0);
  s.append(s.line('r7'));
  assert.equal(await s.pump.pump(), 1);
  // Truncated, then written past where it was read before the pump looks, in lines of the same
  // length: the bytes before the place are not those read there, so it is read from its start.
  truncateSync(join(s.dir, ASKS_FILE), 0);
  s.append(s.line('r8') + s.line('r9'));
  assert.equal(await s.pump.pump(), 2);
  // The same by a keeper that never read this file (no bytes of it in memory): the place is
  // not at a line's end, so the file is read from its start.
  const other = createFolderPump(s.deps);
  t.after(() => other.close());
  truncateSync(join(s.dir, ASKS_FILE), 0);
  s.append(s.line('r10-longer') + s.line('r11-longer'));
  assert.equal(await other.pump(), 2);
  assert.equal(await s.pump.pump(), 0);
  assert.deepEqual(s.answers().map((a) => a.ask), ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8', 'r9', 'r10-longer', 'r11-longer']);
});

test('a replayed id is never done again; a line written before its id was taken is not answered again, even with changed args', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.append(s.line('same') + s.line('same', 'add', { args: { title: 'other' } }));
  assert.equal(await s.pump.pump(), 1);
  s.append(s.line('same', 'move'));
  assert.equal(await s.pump.pump(), 0);
  // Rewritten whole from 0 (a rotation): nothing in it is done twice either.
  truncateSync(join(s.dir, ASKS_FILE), 0);
  s.append(s.line('same'));
  assert.equal(await s.pump.pump(), 0);
  assert.equal(s.done(), 1);
  assert.equal(s.answers().length, 1);
  assert.ok(s.logs.some((l) => /already taken/.test(l)), 'a replay is said on the log');
});

test('an ask asked again with its id (an asker that got no answer) gets the answer recorded for it again, and is never done twice', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.append(s.line('first', 'add', { want: 'json' }));
  assert.equal(await s.pump.pump(), 1);
  // Asked again later, as `binder --ask-id first …` does: the answer given then, appended again now.
  s.clock.now += 30_000;
  s.append(s.line('first', 'add', { args: { title: 'changed' } }));
  assert.equal(await s.pump.pump(), 0, 'nothing new was done');
  assert.equal(s.done(), 1);
  const [one, two] = s.answers();
  assert.deepEqual({ ...two, at: one!.at }, one, 'the same answer, data and all');
  assert.equal(two!.at, new Date(s.clock.now).toISOString(), 'dated when given again');
  // Long after, its answer forgotten: told that it was taken before, still not done again.
  s.clock.now += 2 * 60_000;
  await s.pump.pump();
  s.append(s.line('first'));
  await s.pump.pump();
  const last = s.answers().at(-1)!;
  assert.equal(last.ask, 'first');
  assert.equal(last.ok, false);
  assert.match(String(last.text), /Asked before: an ask with this id was taken from this folder/);
  assert.equal(s.done(), 1);
  // Asked again in the same write as the first time: answered once.
  s.append(s.line('twice') + s.line('twice'));
  await s.pump.pump();
  assert.equal(s.answers().filter((a) => a.ask === 'twice').length, 1);
});

test('an ask older than a minute is answered too late and never done; one without a time is not understood', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.append(`${JSON.stringify({ id: 'old', at: new Date(START - 61_000).toISOString(), op: 'add', args: {} })}\n`);
  s.append(`${JSON.stringify({ id: 'notime', op: 'add', args: {} })}\n`);
  s.append(`${JSON.stringify({ id: 'badtime', at: 'yesterday', op: 'add', args: {} })}\n`);
  s.append(`${JSON.stringify({ id: 'fine', at: new Date(START - 59_000).toISOString(), op: 'add', args: {} })}\n`);
  assert.equal(await s.pump.pump(), 4);
  assert.equal(s.done(), 1);
  const texts = Object.fromEntries(s.answers().map((a) => [a.ask, a.text]));
  assert.equal(texts.old, TOO_LATE_TEXT);
  assert.equal(texts.notime, NO_TIME_TEXT);
  assert.equal(texts.badtime, NO_TIME_TEXT);
  assert.equal(texts.fine, 'did add');
  const recorded = s.db.prepare('SELECT count(*) AS n FROM asks').get() as { n: number };
  assert.equal(recorded.n, 4, 'too late is recorded like any other answer');
});

test('an ask whose asker has stopped waiting (its until) is answered too late and never done', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  const iso = (ms: number) => new Date(ms).toISOString();
  // Made 25 s ago by an asker that waited 20 s: it already told its agent that nothing was done.
  s.append(s.line('gave-up', 'add', { at: iso(START - 25_000), until: iso(START - 5_000) }));
  // Within the margin before its until: the answer might come after the asker stopped.
  s.append(s.line('at-the-edge', 'add', { at: iso(START - 19_500), until: iso(START + 500) }));
  s.append(s.line('in-time', 'add', { at: iso(START - 15_000), until: iso(START + 5_000) }));
  // A short wait (400 ms) keeps a quarter of it as its margin, not a whole second.
  s.append(s.line('short', 'add', { at: iso(START - 200), until: iso(START + 200) }));
  // An until far off does not stretch the 60 s rule; a broken one is as if unsaid.
  s.append(s.line('far', 'add', { at: iso(START - 61_000), until: iso(START + 600_000) }));
  s.append(s.line('broken', 'add', { at: iso(START - 30_000), until: 'soon' }));
  assert.equal(await s.pump.pump(), 6);
  const texts = Object.fromEntries(s.answers().map((a) => [a.ask, a.text]));
  assert.deepEqual(texts, {
    'gave-up': TOO_LATE_TEXT, 'at-the-edge': TOO_LATE_TEXT, 'in-time': 'did add', short: 'did add', far: TOO_LATE_TEXT, broken: 'did add',
  });
  assert.equal(s.done(), 3);
});

test('an ask dated more than a few seconds ahead of the keeper\'s clock is refused, saying the asker\'s clock is ahead, with or without until', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  const iso = (ms: number) => new Date(ms).toISOString();
  // Written while no keeper ran, an hour ahead, with no until: the 60 s rule alone would let it wait.
  s.append(s.line('hour-ahead', 'add', { at: iso(START + 3_600_000) }));
  s.append(s.line('ahead-until', 'add', { at: iso(START + 30_000), until: iso(START + 50_000) }));
  // A second or two of difference between two clocks is not the asker's fault.
  s.append(s.line('slightly', 'add', { at: iso(START + 2_000) }));
  assert.equal(await s.pump.pump(), 3);
  const said = Object.fromEntries(s.answers().map((a) => [a.ask, a]));
  assert.equal(said['hour-ahead']!.ok, false);
  assert.match(String(said['hour-ahead']!.text), /clock is ahead/);
  assert.match(String(said['hour-ahead']!.text), /3600 s/);
  assert.equal(said['ahead-until']!.ok, false);
  assert.match(String(said['ahead-until']!.text), /clock is ahead/);
  assert.equal(said.slightly!.text, 'did add');
  assert.equal(s.done(), 1, 'only the ask within the few seconds was done');
  // Nor is it done later, when the keeper's clock reaches it.
  s.clock.now += 3_600_000;
  await s.pump.pump();
  assert.equal(s.done(), 1);
});

test('a pass of asks that only read commits without waiting for the disk; one that may change commits synced', async (t) => {
  const levels: string[] = [];
  const s = setup(t, {
    perform: async (op) => {
      levels.push(`${op} ${String(s.db.pragma('synchronous', { simple: true }))}`);
      return { ok: true, text: `did ${op}` };
    },
  });
  await s.pump.pump();
  s.append(s.line('r1', 'show') + s.line('r2', 'get'));
  assert.equal(await s.pump.pump(), 2);
  s.append(s.line('w1', 'show') + s.line('w2', 'add'));
  assert.equal(await s.pump.pump(), 2);
  s.append(s.line('n1', 'no-such-op'));
  assert.equal(await s.pump.pump(), 1);
  // 1 is NORMAL, 2 is FULL: the reads alone go unsynced, and the level is put back after.
  assert.deepEqual(levels, ['show 1', 'get 1', 'show 2', 'add 2', 'no-such-op 1']);
  assert.equal(s.db.pragma('synchronous', { simple: true }), 2);
});

test('lines without a usable id, garbage and invalid UTF-8 are skipped with a line on the log', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  const at = new Date(START).toISOString();
  s.append(`${JSON.stringify({ at, op: 'add' })}\n`);
  s.append(`${JSON.stringify({ id: '', at, op: 'add' })}\n`);
  s.append(`${JSON.stringify({ id: 'x'.repeat(129), at, op: 'add' })}\n`);
  s.append(`${JSON.stringify({ id: 42, at, op: 'add' })}\n`);
  s.append('not json at all\n[1,2,3]\n"a string"\n\n');
  s.append(Buffer.concat([Buffer.from('{"id":"bad\xff'), Buffer.from([0xff, 0xfe]), Buffer.from('","at":"x"}\n')]));
  s.append(s.line('good'));
  assert.equal(await s.pump.pump(), 1);
  assert.deepEqual(s.answers().map((a) => a.ask), ['good']);
  assert.ok(s.logs.some((l) => /4 ask lines skipped: no usable id/.test(l)), s.logs.join('\n'));
  assert.ok(s.logs.some((l) => /skipped: not JSON/.test(l)));
  assert.ok(s.logs.some((l) => /skipped: not a JSON object/.test(l)));
  assert.ok(s.logs.some((l) => /skipped: not UTF-8/.test(l)));
  assert.equal(await s.pump.pump(), 0);
});

test('__proto__ and constructor in an ask pollute nothing, and ids of those names are asks like any', async (t) => {
  const seen: unknown[] = [];
  const t2 = setup(t, {
    perform: async (op, args) => {
      seen.push(args);
      return { ok: true, text: `did ${op}` };
    },
  });
  await t2.pump.pump();
  const at = new Date(START).toISOString();
  t2.append('{"id":"__proto__","at":"' + at + '","op":"add","args":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}}},"__proto__":{"polluted":3}}\n');
  t2.append('{"id":"constructor","at":"' + at + '","op":"note","args":{"title":"x"},"constructor":{"polluted":4}}\n');
  t2.append('{"id":"hasOwnProperty","at":"' + at + '","op":"get","args":[]}\n');
  t2.append('{"id":"__proto__","at":"' + at + '","op":"add","args":{}}\n');
  assert.equal(await t2.pump.pump(), 3);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(t2.answers().map((a) => a.ask), ['__proto__', 'constructor', 'hasOwnProperty']);
  assert.equal(Object.getPrototypeOf(seen[0]), Object.prototype, 'args stay a plain object');
  assert.ok(Object.hasOwn(seen[0] as object, '__proto__'), 'a __proto__ key stays a plain key of the args');
  assert.deepEqual(seen[2], {}, 'args that are not an object are {}');
});

test('an over-long line is never held: at most ~1 MiB read per pass', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  const path = join(s.dir, ASKS_FILE);
  // 100 MB on one line with no newline yet, written in pieces.
  const fd = openSync(path, 'a');
  const piece = Buffer.alloc(4 * 1024 * 1024, 0x61);
  for (let i = 0; i < 25; i++) writeSync(fd, piece);
  closeSync(fd);
  let passes = 0;
  const before = bytesRead[ASKS_FILE] ?? 0;
  while (passes < 200) {
    const start = bytesRead[ASKS_FILE] ?? 0;
    await s.pump.pump();
    passes++;
    assert.ok((bytesRead[ASKS_FILE] ?? 0) - start <= READ_MAX, 'one pass reads at most READ_MAX');
    const row = s.db.prepare('SELECT asks_offset FROM folder_marks WHERE dir = ?').get(s.key()) as { asks_offset: number } | undefined;
    if (row && row.asks_offset >= 100 * 1024 * 1024) break;
  }
  assert.ok(passes >= 100, `the line was taken over many passes (${passes})`);
  assert.ok((bytesRead[ASKS_FILE] ?? 0) - before <= 100 * 1024 * 1024 + READ_MAX * 2);
  // Its end comes, then a good ask: only the good one is answered.
  s.append(`${'b'.repeat(10)}\n${s.line('after')}`);
  await s.pump.pump();
  assert.deepEqual(s.answers().map((a) => a.ask), ['after']);
  assert.equal(s.logs.filter((l) => /longer than/.test(l)).length, 1, s.logs.join('\n'));
  // A complete line just over the limit is dropped too; one at the limit is read.
  const pad = (id: string, size: number) => {
    const line = JSON.stringify({ id, at: new Date(START).toISOString(), op: 'add', args: { pad: '' } });
    return `${line.replace('"pad":""', `"pad":"${'x'.repeat(size - line.length)}"`)}\n`;
  };
  s.append(pad('over', LINE_MAX + 1) + pad('at-limit', LINE_MAX));
  await s.pump.pump();
  assert.deepEqual(s.answers().map((a) => `${a.ask} ${a.ok}`).sort(), ['after true', 'at-limit true', 'over false'], 'the one over is refused, by the id at its start');
  assert.equal(s.done(), 2);
  assert.equal(s.logs.filter((l) => /longer than/.test(l)).length, 2);
});

test('an over-long line whose id can be read from its start is answered with a refusal, never done; one with no id there is dropped', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  const iso = new Date(START).toISOString();
  const long = (id: string, size: number) => {
    const line = JSON.stringify({ id, at: iso, op: 'add', args: { title: '' } });
    return line.replace('"title":""', `"title":"${'x'.repeat(size - line.length)}"`);
  };
  // A complete line over the limit, and one still being written (its end is not there yet).
  s.append(`${long('whole', LINE_MAX + 10)}\n`);
  s.append(`${JSON.stringify({ at: iso, op: 'add', id: 'not-first', args: { title: 'y'.repeat(LINE_MAX) } })}\n`);
  s.append(long('growing', LINE_MAX + 5000));
  assert.equal(await s.pump.pump(), 2);
  const said = Object.fromEntries(s.answers().map((a) => [a.ask, a]));
  assert.deepEqual(Object.keys(said).sort(), ['growing', 'whole']);
  assert.equal(said.whole!.ok, false);
  assert.match(String(said.whole!.text), new RegExp(`${LINE_MAX + 10} bytes.*${LINE_MAX} bytes`));
  assert.match(String(said.growing!.text), new RegExp(`over ${LINE_MAX} bytes`));
  // Its end comes, then a good ask: the long one is not answered again.
  s.append(`${'x'.repeat(LINE_MAX)}"}}\n${s.line('after')}`);
  await s.pump.pump();
  assert.deepEqual(s.answers().map((a) => a.ask).sort(), ['after', 'growing', 'whole']);
  assert.equal(s.done(), 1, 'only the good ask was done');
});

test('1,000,000 answered lines already in answers.jsonl are not read by a pass', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  const path = join(s.dir, ANSWERS_FILE);
  const fd = openSync(path, 'a', 0o600);
  const at = new Date(START).toISOString();
  let chunk = '';
  for (let i = 0; i < 1_000_000; i++) {
    chunk += `${JSON.stringify({ ask: `old-${i}`, at, ok: true, text: 'Added #1.' })}\n`;
    if (chunk.length > 1 << 20) {
      writeSync(fd, chunk);
      chunk = '';
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
  const size = statSync(path).size;
  // The first answer into a file the keeper did not write last looks at its last byte (a newline?).
  let before = bytesRead[ANSWERS_FILE] ?? 0;
  s.append(s.line('new-0'));
  assert.equal(await s.pump.pump(), 1);
  assert.ok((bytesRead[ANSWERS_FILE] ?? 0) - before <= 1, 'at most its last byte was read');
  before = bytesRead[ANSWERS_FILE] ?? 0;
  for (let i = 1; i < 5; i++) {
    s.append(s.line(`new-${i}`));
    assert.equal(await s.pump.pump(), 1);
  }
  assert.equal(bytesRead[ANSWERS_FILE] ?? 0, before, 'then not one byte of the answers file is read');
  const tail = readFileSync(path).subarray(size).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).ask);
  assert.deepEqual(tail, ['new-0', 'new-1', 'new-2', 'new-3', 'new-4']);
});

test('other folders are served when one is broken, and each folder answers its own', async (t) => {
  const s = setup(t, { folders: 3 });
  await s.pump.pump();
  const [a, b, c] = s.sides.map((side) => side.dir) as [string, string, string];
  writeFileSync(join(b, 'elsewhere'), '');
  renameSync(b, `${b}-real`);
  symlinkSync(`${b}-real`, b);
  s.append(s.line('in-a'), a);
  appendFileSync(join(`${b}-real`, ASKS_FILE), s.line('in-b'));
  s.append(s.line('in-c'), c);
  assert.equal(await s.pump.pump(), 2);
  assert.deepEqual(s.answers(a).map((x) => x.ask), ['in-a']);
  assert.deepEqual(s.answers(c).map((x) => x.ask), ['in-c']);
  assert.equal(existsSync(join(`${b}-real`, ANSWERS_FILE)), false);
  const status = s.pump.folders().find((f) => f.dir === b)!;
  assert.match(status.problem ?? '', /symbolic link/);
  await s.pump.pump();
  await s.pump.pump();
  assert.equal(s.logs.filter((l) => l.includes(b) && /symbolic link/.test(l)).length, 1, 'a problem is said once, not every pass');
  const done = s.db.prepare('SELECT dir FROM done ORDER BY dir').all() as { dir: string }[];
  assert.deepEqual(done.map((d) => d.dir), ['agent:a0', 'agent:a2'], 'each ask is done as its folder\'s agent');
});

for (const proc of [true, false]) {
  test(`a folder whose path comes to lead to another directory is not read, nor one directory for two agents (${proc ? 'through /proc' : 'where there is no /proc'})`, async (t) => {
    useProc(proc ? null : false);
    t.after(() => useProc(null));
    const s = setup(t, { folders: 2 });
    const [a, b] = s.sides.map((side) => side.dir) as [string, string];
    // A third folder whose path leads, from the start, to a's directory (a link on a parent).
    symlinkSync(dirname(a), join(s.root, 'via-link'));
    s.sides.push({ dir: join(s.root, 'via-link', '.binder'), who: { id: 'agent:a2', kind: 'agent', name: 'A2' } });
    await s.pump.pump();
    const status = (dir: string) => s.pump.folders().find((f) => f.dir === dir)!.problem ?? '';
    assert.match(status(s.sides[2]!.dir), /is the same directory as .*agent0\/\.binder, read for A0/);

    // b's parent swapped for a link to a's: b's path now leads to a's folder.
    renameSync(dirname(b), `${dirname(b)}-real`);
    symlinkSync(dirname(a), dirname(b));
    s.append(s.line('in-a'), a);
    assert.equal(await s.pump.pump(), 1);
    assert.equal(await s.pump.pump(), 0);
    assert.deepEqual(s.answers(a).map((x) => x.ask), ['in-a'], 'answered once, as its own folder\'s');
    assert.deepEqual((s.db.prepare('SELECT dir FROM done').all() as { dir: string }[]).map((d) => d.dir), ['agent:a0']);
    assert.match(status(b), /is not the folder kept for A1 any more: its path leads to another directory.*start the keeper again/);

    // a removed and made again, with an ask in it: another directory, though its inode may be the same.
    rmSync(a, { recursive: true });
    mkdirSync(a);
    s.append(s.line('planted'), a);
    assert.equal(await s.pump.pump(), 0);
    assert.deepEqual(s.answers(a), []);
    assert.match(status(a), /is not the folder kept for A0 any more/);
    assert.equal(s.done(), 1);
    for (const dir of [a, b]) assert.equal(s.logs.filter((l) => l.includes(`${dir} is not the folder`)).length, 1, 'said once');
  });
}

test('onAnswer hears every ask answered; a refusal is an answer with ok false', async (t) => {
  const s = setup(t);
  const heard: string[] = [];
  const off = s.pump.onAnswer((side, op, answer) => heard.push(`${side.who.id} ${op} ${answer.ok}`));
  await s.pump.pump();
  s.append(s.line('o1', 'add') + s.line('o2', 'refuse'));
  await s.pump.pump();
  assert.deepEqual(heard, ['agent:a0 add true', 'agent:a0 refuse false']);
  assert.equal(s.answers()[1]!.ok, false);
  off();
  s.append(s.line('o3'));
  await s.pump.pump();
  assert.equal(heard.length, 2);
});

test('a perform that throws undoes that ask alone and answers it as failed', async (t) => {
  const holder: { db?: Database.Database } = {};
  const s = setup(t, {
    perform: async (op) => {
      holder.db!.prepare("INSERT INTO done (dir, op, args) VALUES ('x', ?, '')").run(op === 'boom' ? 'half' : op);
      if (op === 'boom') throw new Error('a bug');
      return { ok: true, text: 'fine' };
    },
  });
  holder.db = s.db;
  await s.pump.pump();
  s.append(s.line('b1', 'add') + s.line('b2', 'boom') + s.line('b3', 'add'));
  assert.equal(await s.pump.pump(), 3);
  assert.equal(s.done('half'), 0, 'what the failed ask wrote was undone');
  assert.equal(s.done('add'), 2);
  assert.deepEqual(s.answers().map((a) => a.ok), [true, false, true]);
});

test('two keepers on one store: the one that reads bytes already taken by the other drops them', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  const other = new Database(join(s.root, 'store.db'));
  other.pragma('busy_timeout = 5000');
  t.after(() => other.close());
  const otherPump = createFolderPump({
    store: pumpStore(other),
    now: () => s.clock.now,
    sides: () => s.sides,
    perform: async (op, args, who) => {
      other.prepare('INSERT INTO done (dir, op, args) VALUES (?, ?, ?)').run(who.id, op, JSON.stringify(args));
      return { ok: true, text: `did ${op}` };
    },
    log: (line) => s.logs.push(line),
  });
  t.after(() => otherPump.close());
  // The first keeper reads, then the other takes the same bytes before the first one's transaction.
  let first = true;
  const racingStore = pumpStore(s.db);
  const begin = racingStore.transaction;
  racingStore.transaction = (async (fn, o) => {
    if (first) {
      first = false;
      await otherPump.pump();
    }
    return begin(fn, o);
  }) as Store['transaction'];
  const racing = createFolderPump({
    store: racingStore,
    now: () => s.clock.now,
    sides: () => s.sides,
    perform: async () => {
      s.db.prepare("INSERT INTO done (dir, op, args) VALUES ('racing', 'x', '')").run();
      return { ok: true, text: 'racing' };
    },
    log: (line) => s.logs.push(line),
  });
  t.after(() => racing.close());
  await racing.pump(); // first pass: nothing to read yet, but it marks the first transaction as taken
  first = true;
  s.append(s.line('c1') + s.line('c2'));
  await racing.pump();
  assert.equal(s.done(), 2);
  assert.equal(s.done('x'), 0, 'the keeper that lost the race did nothing');
  assert.deepEqual(s.answers().map((a) => a.text), ['did add', 'did add']);
  assert.deepEqual(s.logs.filter((l) => /already taken/.test(l)), [], 'it dropped what it read instead of meeting replays');
});

test('an ask taken with no answer yet is left alone, and answered by the next poll once its answer is set', async (t) => {
  const s = setup(t);
  await s.pump.pump();
  s.db.prepare("INSERT INTO asks (dir, id, at, answer, delivered) VALUES (?, 'held', ?, NULL, 0)").run(s.key(), START);
  s.append(s.line('other'));
  await s.pump.pump();
  s.clock.now += 5000;
  await s.pump.pump();
  const delivered = () => (s.db.prepare("SELECT delivered FROM asks WHERE id = 'held'").get() as { delivered: number }).delivered;
  assert.deepEqual(s.answers().map((a) => a.ask), ['other']);
  assert.equal(delivered(), 0);
  const line = JSON.stringify({ ask: 'held', at: new Date(s.clock.now).toISOString(), ok: true, text: 'something changed' });
  s.db.prepare("UPDATE asks SET answer = ? WHERE id = 'held'").run(line);
  s.clock.now += 1000;
  await s.pump.pump();
  assert.deepEqual(s.answers().map((a) => a.ask), ['other', 'held']);
  assert.equal(delivered(), 1);
});

test('a full disk: each ask read is refused once, by this keeper, another running or the next, then recorded as answered and never done', async (t) => {
  const s = setup(t);
  const real = s.deps.store.transaction;
  let full = false;
  const changes = () => s.db.prepare('SELECT total_changes()').pluck().get() as number;
  s.deps.store.transaction = ((fn, o) => real(async (tx) => {
    const before = changes();
    const result = await fn(tx);
    // As SQLite does: the commit of a change fails; one that wrote nothing commits.
    if (full && changes() !== before) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    return result;
  }, o)) as Store['transaction'];
  const running = createFolderPump(s.deps);
  t.after(() => running.close());
  await s.pump.pump();
  await running.pump();
  full = true;
  s.append(s.line('f1') + s.line('f2') + s.line('f1'));
  assert.equal(await s.pump.pump(), 0);
  await running.pump();
  s.append(s.line('f3'));
  await running.pump();
  await s.pump.pump();
  const said = () => s.answers().map((a) => `${a.ask} ${a.ok} ${a.text}`);
  assert.deepEqual(said(), ['f1', 'f2', 'f3'].map((id) => `${id} false ${DISK_FULL_TEXT}`), 'each refused once, by one keeper or the other');
  assert.equal(s.logs.filter((l) => /is full/.test(l)).length, 2, 'each keeper said it once');
  // A keeper that starts while the disk is still full finds them answered in the file.
  const next = createFolderPump(s.deps);
  t.after(() => next.close());
  await next.pump();
  assert.equal(s.answers().length, 3);
  full = false;
  s.append(s.line('f4'));
  assert.equal(await next.pump(), 1);
  assert.equal(await s.pump.pump() + await running.pump(), 0);
  assert.deepEqual(s.answers().map((a) => a.ask), ['f1', 'f2', 'f3', 'f4']);
  assert.equal(s.done(), 1, 'only the ask read once there was room was done');
  assert.equal(s.db.prepare('SELECT count(*) FROM asks WHERE delivered = 1').pluck().get(), 4, 'the refusals are recorded');
  assert.ok(s.logs.some((l) => /room again/.test(l)));
});

test('a full disk met before the asks are taken (a folder\'s binding) is said once, as the full disk, not as a pass that failed', async (t) => {
  const s = setup(t);
  const hold = s.deps.store.holdFolder.bind(s.deps.store);
  let full = false;
  let tries = 0;
  s.deps.store.holdFolder = (async (key: string) => {
    tries++;
    if (full) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    return hold(key);
  }) as Store['holdFolder'];
  await s.pump.start();
  full = true;
  // Passes woken by asks appended meanwhile each meet the full disk again.
  for (let i = 0; i < 3; i++) {
    const before = tries;
    s.append(s.line(`f${i}`));
    await until(() => tries > before, 5_000, 'a pass to meet the full disk');
  }
  assert.deepEqual(s.logs.filter((l) => /is full/.test(l)).map((l) => l.replace(/ \(.*/, '')),
    ['binder keeper: the disk that holds the binder is full: asks are refused until a person makes room'], 'said once, as the full disk');
  full = false;
  await until(() => s.answers().length === 3, 5_000, 'the asks answered once there is room');
  assert.ok(s.logs.some((l) => /room again/.test(l)));
});
