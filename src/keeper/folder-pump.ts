/**
 * The keeper's folder pump: reads what agents appended to their folders' asks.jsonl, does each
 * ask exactly once inside the store's transaction, and appends its answer to answers.jsonl.
 * Wakes on file events with a safety poll; compacts the folder's files past the answer window.
 * It must never do an ask twice, answer one twice, block on a folder, or trust what it reads.
 */
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import type { Database, Transaction } from 'better-sqlite3';
import type { Who } from '../store/types.js';
import type { FolderStatus, SideConfig } from './keeper-types.js';
import { ANSWERS_FILE, ASKS_FILE, HEARTBEAT_MS, LINE_MAX, TOO_LATE_MS, type Answer } from './protocol.js';
import { terminalSafe } from './terminal-safe.js';
import {
  FolderProblem, checkFolder, closeFile, fileKey, lookAt, openToAppend, openToRead, readAt, removeIfSame,
  refuseUnlessPlain, removeStaleTemps, renameIn, replaceFile, sizeOf, writeAll, type OpenFile,
} from './folder-files.js';
import { writeHeartbeat } from './heartbeat.js';

export interface PumpDeps {
  /** The store's connection (tables `folder_marks` and `asks` exist). */
  db: Database;
  /** BEGIN IMMEDIATE, nestable (the store's). */
  transaction<T>(fn: () => T): T;
  now(): number;
  /** The folders to keep: asked again at each pass. */
  sides(): SideConfig[];
  /** Does the ask (inside the pump's transaction) and says the answer; never throws. */
  perform(op: string, args: unknown, who: Who, want: 'json' | undefined): Answer;
  /** One diagnostic line. */
  log(line: string): void;
  /**
   * Test hook: called once asks were done and committed, before their answers are appended
   * (a process that exits here is a keeper killed between doing and answering).
   */
  crashAfterCommit?: () => void;
  /** Test hook: called once answers were appended, before that is committed. */
  crashAfterAppend?: () => void;
  /** The safety poll's period in ms (about a second unless a test says otherwise). */
  pollMs?: number;
  /** fs.watch, replaceable by a test to play a system where it fails. */
  watch?: typeof fsWatch;
}

export interface FolderPump {
  /** One synchronous pass over every folder: returns the asks answered. */
  pump(): number;
  /** Watches each folder, polls about every second, beats every HEARTBEAT_MS. */
  start(): void;
  /** Stops everything and says `stopped` in each folder's heartbeat. */
  close(): void;
  folders(): FolderStatus[];
  onAnswer(fn: (side: SideConfig, op: string, answer: Answer) => void): () => void;
}

export const TOO_LATE_TEXT = 'too late: this ask waited more than a minute and was not done; ask again';
export const NO_TIME_TEXT = 'not understood: the ask has no time (at)';
export const NO_OP_TEXT = 'not understood: the ask names no operation (op)';
export const FAILED_TEXT = 'not done: the keeper failed on this ask and kept nothing of it; tell a person';
/** The asks file, renamed aside by compaction and read to its end before it is removed. */
export const OLD_ASKS_FILE = `${ASKS_FILE}.old`;

/** Bytes read from one file per pass: a longer backlog is taken over several passes. */
export const READ_MAX = 1024 * 1024;
const POLL_MS = 1000;
/** An undelivered answer older than this is appended by whichever keeper sees it. */
const RECOVER_AFTER_MS = 2000;
/** The renamed asks file is removed once nothing came to it for this long. */
const DRAIN_QUIET_MS = 1000;
/** …or this long, even with a partial line left in it that never ended. */
const DRAIN_GIVE_UP_MS = 10_000;
/** A renamed asks file this old (by its mtime) was left by a keeper that stopped: read it again. */
const ORPHAN_AFTER_MS = 10_000;
const WATCH_RETRY_MS = 30_000;
/** Asks are remembered a week: an id replayed after that is taken as a new ask. */
export const KEEP_ASKS_MS = 7 * 24 * 3600 * 1000;
/** While scanning answers, a line longer than this is not an answer of ours. */
const ANSWER_SCAN_LINE_MAX = 16 * 1024 * 1024;

interface MarkRow {
  asks_ino: string;
  asks_offset: number;
  asks_skipping: number;
  answers_ino: string;
  answers_offset: number;
  last_ask: number;
  compacted: number;
}
/** Where a file is read from: its identity, an offset, and whether inside an over-long line. */
interface Place { ino: string; offset: number; skipping: number }
interface Drain { key: string; offset: number; skipping: number; size: number; quietSince: number; quiet: boolean }
interface Ask { id: string; op: string | null; args: unknown; at: number | null; want: 'json' | undefined }
interface Folder {
  side: SideConfig;
  status: FolderStatus;
  /** The problem each part of the work has with this folder now (read, answers, heartbeat, tidy). */
  problems: Map<string, string>;
  /** Lines skipped this pass, by why: one log line each at the end of the pass. */
  skipped: Map<string, number>;
  folderKey: string;
  watcher: FSWatcher | null;
  watchedKey: string;
  watchAfter: number;
  drain: Drain | null;
  fresh: boolean;
}
interface Reading { folder: Folder; old: boolean; seen: Place; next: Place; asks: Ask[] }
interface Taken { folder: Folder; id: string; op: string; answer: Answer }

const NO_MARK: MarkRow = { asks_ino: '', asks_offset: 0, asks_skipping: 0, answers_ino: '', answers_offset: 0, last_ask: 0, compacted: 0 };
const placeOf = (m: MarkRow): Place => ({ ino: m.asks_ino, offset: m.asks_offset, skipping: m.asks_skipping });
const samePlace = (a: Place, b: Place): boolean => a.ino === b.ino && a.offset === b.offset && a.skipping === b.skipping;
const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A key of a parsed line, only if the line itself has it: nothing reaches a prototype. */
const own = (o: object, key: string): unknown => (Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** One ask line, a reason it was skipped, or null for a blank line. */
export function parseAsk(line: Buffer): Ask | string | null {
  let text: string;
  try {
    text = utf8.decode(line);
  } catch {
    return 'not UTF-8 text';
  }
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!isObject(value)) return 'not a JSON object';
  const id = own(value, 'id');
  if (typeof id !== 'string' || id.length < 1 || id.length > 128) return 'no usable id (a string of 1 to 128 characters): it cannot be answered';
  const op = own(value, 'op');
  const args = own(value, 'args');
  const at = own(value, 'at');
  const time = typeof at === 'string' ? Date.parse(at) : NaN;
  return {
    id,
    op: typeof op === 'string' && op !== '' ? op : null,
    args: isObject(args) ? args : {},
    at: Number.isNaN(time) ? null : time,
    want: own(value, 'want') === 'json' ? 'json' : undefined,
  };
}

/**
 * Cuts read bytes into complete lines. Returns the lines, how many bytes were used (a partial
 * last line is left for later), and whether the next read starts inside an over-long line.
 */
export function cutLines(bytes: Buffer, skipping: boolean): { lines: Buffer[]; used: number; skipping: boolean; long: number } {
  const lines: Buffer[] = [];
  let long = 0;
  let at = 0;
  if (skipping) {
    const end = bytes.indexOf(10);
    if (end === -1) return { lines, used: bytes.length, skipping: true, long };
    at = end + 1;
  }
  while (at < bytes.length) {
    const end = bytes.indexOf(10, at);
    if (end === -1) {
      if (bytes.length - at > LINE_MAX) return { lines, used: bytes.length, skipping: true, long: long + 1 };
      break;
    }
    if (end - at > LINE_MAX) long++;
    else lines.push(bytes.subarray(at, end));
    at = end + 1;
  }
  return { lines, used: at, skipping: false, long };
}

/** The `ask` of one answer line, or null when it is not one. */
function answerOf(line: Buffer): string | null {
  try {
    const value: unknown = JSON.parse(line.toString('utf8'));
    const ask = isObject(value) ? own(value, 'ask') : undefined;
    return typeof ask === 'string' ? ask : null;
  } catch {
    return null;
  }
}

/** The time of one of our answer lines (they begin `{"ask":…,"at":…`), or null. */
const ANSWER_START = /^\{"ask":"(?:[^"\\]|\\.)*","at":"([^"\\]{1,40})"/;
function answerTime(line: Buffer): number | null {
  const found = ANSWER_START.exec(line.subarray(0, 1024).toString('utf8'));
  const time = found?.[1] ? Date.parse(found[1]) : NaN;
  return Number.isNaN(time) ? null : time;
}

/** Calls `each` with every complete line of `file` between `from` and `to`, read in bounded chunks. */
function eachLine(file: OpenFile, from: number, to: number, each: (line: Buffer) => void): void {
  let carry = Buffer.alloc(0);
  let skipping = false;
  for (let at = from; at < to; ) {
    const chunk = readAt(file, at, Math.min(READ_MAX, to - at));
    if (chunk.length === 0) break;
    at += chunk.length;
    const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
      if (!skipping) each(bytes.subarray(start, end));
      skipping = false;
      start = end + 1;
    }
    carry = Buffer.from(bytes.subarray(start));
    if (carry.length > ANSWER_SCAN_LINE_MAX) {
      carry = Buffer.alloc(0);
      skipping = true;
    }
  }
}

export function createFolderPump(deps: PumpDeps): FolderPump {
  const { db } = deps;
  const sql = {
    mark: db.prepare<[string], MarkRow>(
      'SELECT asks_ino, asks_offset, asks_skipping, answers_ino, answers_offset, last_ask, compacted FROM folder_marks WHERE dir = ?'),
    setAsks: db.prepare<[string, string, number, number, number, number]>(
      `INSERT INTO folder_marks (dir, asks_ino, asks_offset, asks_skipping, last_ask, compacted) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (dir) DO UPDATE SET asks_ino = excluded.asks_ino, asks_offset = excluded.asks_offset,
         asks_skipping = excluded.asks_skipping, last_ask = excluded.last_ask`),
    setAnswers: db.prepare<[string, string, number, number]>(
      `INSERT INTO folder_marks (dir, answers_ino, answers_offset, compacted) VALUES (?, ?, ?, ?)
       ON CONFLICT (dir) DO UPDATE SET answers_ino = excluded.answers_ino, answers_offset = excluded.answers_offset`),
    setCompacted: db.prepare<[number, string]>('UPDATE folder_marks SET compacted = ? WHERE dir = ?'),
    known: db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM asks WHERE dir = ? AND id = ?'),
    take: db.prepare<[string, string, number, string]>('INSERT INTO asks (dir, id, at, answer, delivered) VALUES (?, ?, ?, ?, 0)'),
    untold: db.prepare<[string], { id: string; answer: string | null }>('SELECT id, answer FROM asks WHERE delivered = 0 AND dir = ?'),
    untoldSince: db.prepare<[number], { dir: string; id: string }>('SELECT dir, id FROM asks WHERE delivered = 0 AND at <= ?'),
    told: db.prepare<[string, string]>('UPDATE asks SET delivered = 1 WHERE dir = ? AND id = ?'),
    forget: db.prepare<[number]>('UPDATE asks SET answer = NULL WHERE delivered = 1 AND answer IS NOT NULL AND at < ?'),
    drop: db.prepare<[number]>('DELETE FROM asks WHERE at < ?'),
  };
  // Each ask in a savepoint of its own: a bug in one ask undoes that ask alone.
  const performOne: Transaction<(ask: Ask, who: Who) => Answer> = db.transaction((ask: Ask, who: Who) =>
    deps.perform(ask.op ?? '', ask.args, who, ask.want));
  const mark = (dir: string): MarkRow => sql.mark.get(dir) ?? NO_MARK;

  const folders = new Map<string, Folder>();
  const listeners = new Set<(side: SideConfig, op: string, answer: Answer) => void>();
  let running = false;
  let poll: NodeJS.Timeout | null = null;
  let beat: NodeJS.Timeout | null = null;
  let wake: NodeJS.Immediate | null = null;
  let tidiedAt = -Infinity;
  let sweptAt = -Infinity;
  let recoveredAll = false;

  const say = (line: string): void => deps.log(`binder keeper: ${terminalSafe(line)}`);

  function note(folder: Folder, where: string, problem: string | null): void {
    if ((folder.problems.get(where) ?? null) === problem) return;
    if (problem === null) folder.problems.delete(where);
    else {
      // The same problem met by another part of the work (the folder is a link…) was said already.
      if (![...folder.problems.values()].includes(problem)) say(problem);
      folder.problems.set(where, problem);
    }
    folder.status.problem = folder.problems.values().next().value ?? null;
  }
  /** Runs `work` for one folder; a FolderProblem is noted for that folder, and the others go on. */
  function guard(folder: Folder, where: string, work: () => void): void {
    try {
      work();
      note(folder, where, null);
    } catch (error) {
      if (!(error instanceof FolderProblem)) throw error;
      note(folder, where, error.message);
    }
  }
  function skip(folder: Folder, why: string, count = 1): void {
    folder.skipped.set(why, (folder.skipped.get(why) ?? 0) + count);
  }

  function syncFolders(): Folder[] {
    const seen = new Set<string>();
    for (const side of deps.sides()) {
      if (seen.has(side.dir)) continue;
      seen.add(side.dir);
      const known = folders.get(side.dir);
      if (known) {
        known.side = side;
        known.status.name = side.who.name;
        known.status.agent = side.who.id;
        continue;
      }
      folders.set(side.dir, {
        side, status: { dir: side.dir, name: side.who.name, agent: side.who.id, lastAsk: null, answered: 0, problem: null },
        problems: new Map(), skipped: new Map(), folderKey: '', watcher: null, watchedKey: '', watchAfter: 0, drain: null, fresh: true,
      });
    }
    for (const [dir, folder] of folders) {
      if (seen.has(dir)) continue;
      unwatch(folder);
      folders.delete(dir);
    }
    return [...folders.values()];
  }

  /* ---- reading ---- */

  /** What was appended to `name` since `from`, or null when nothing complete was. */
  function readFrom(folder: Folder, name: string, from: Place): { next: Place; asks: Ask[] } | null {
    const dir = folder.side.dir;
    const file = openToRead(dir, name);
    if (!file) return null;
    try {
      let { offset, skipping } = from;
      if (file.key !== from.ino || file.stat.size < offset) {
        offset = 0;
        skipping = 0;
      }
      const size = file.stat.size;
      if (size <= offset) return null;
      const bytes = readAt(file, offset, Math.min(size - offset, READ_MAX));
      if (size - offset > READ_MAX && running) schedule();
      const cut = cutLines(bytes, skipping === 1);
      if (cut.long) skip(folder, `longer than ${LINE_MAX} bytes`, cut.long);
      const asks: Ask[] = [];
      for (const line of cut.lines) {
        const ask = parseAsk(line);
        if (typeof ask === 'string') skip(folder, ask);
        else if (ask) asks.push(ask);
      }
      if (cut.used === 0) return null;
      return { next: { ino: file.key, offset: offset + cut.used, skipping: cut.skipping ? 1 : 0 }, asks };
    } finally {
      closeFile(file);
    }
  }

  function readFolder(folder: Folder, now: number): Reading[] {
    const readings: Reading[] = [];
    guard(folder, 'read', () => {
      folder.folderKey = checkFolder(folder.side.dir);
      const seen = placeOf(mark(folder.side.dir));
      const fresh = readFrom(folder, ASKS_FILE, seen);
      if (fresh) readings.push({ folder, old: false, seen, ...fresh });
      const drain = folder.drain;
      if (drain) {
        const from: Place = { ino: drain.key, offset: drain.offset, skipping: drain.skipping };
        const late = readFrom(folder, OLD_ASKS_FILE, from);
        if (late && late.next.ino !== drain.key) folder.drain = null; // another file in its place: not ours to read
        else if (late) {
          drain.quietSince = now;
          readings.push({ folder, old: true, seen: from, ...late });
        }
      }
      // Asks whose answers could not be written are not taken: they wait until the folder is fixed.
      if (readings.length) refuseUnlessPlain(folder.side.dir, ANSWERS_FILE);
    });
    if (!folder.problems.has('read')) return readings;
    folder.skipped.clear(); // read again once the folder is fixed, and said then
    return [];
  }

  /* ---- doing ---- */

  function decide(ask: Ask, who: Who, now: number): Answer {
    if (ask.at === null) return { ok: false, text: NO_TIME_TEXT };
    if (now - ask.at > TOO_LATE_MS) return { ok: false, text: TOO_LATE_TEXT };
    if (ask.op === null) return { ok: false, text: NO_OP_TEXT };
    try {
      return performOne(ask, who);
    } catch (error) {
      say(`an ask (${ask.op}) failed in the keeper and was undone: ${error instanceof Error ? error.message : String(error)}`);
      return { ok: false, text: FAILED_TEXT };
    }
  }

  function answerLine(ask: Ask, answer: Answer, now: number): string {
    const line = { ask: ask.id, at: new Date(now).toISOString(), ok: answer.ok === true, text: String(answer.text) };
    if (ask.want === 'json' && answer.data !== undefined) {
      try {
        return JSON.stringify({ ...line, data: answer.data });
      } catch {
        say(`the data of an answer (${ask.op ?? ''}) cannot be written as JSON: answered with its text alone`);
      }
    }
    return JSON.stringify(line);
  }

  /** Does the asks read, in one transaction for every folder. Folders moved by another keeper are returned. */
  function take(readings: Reading[], now: number): { taken: Taken[]; moved: Folder[] } {
    const taken: Taken[] = [];
    const moved: Folder[] = [];
    const replays = new Map<Folder, number>();
    deps.transaction(() => {
      for (const reading of readings) {
        const { folder, next } = reading;
        const dir = folder.side.dir;
        const before = mark(dir);
        if (!reading.old && !samePlace(placeOf(before), reading.seen)) {
          moved.push(folder);
          continue;
        }
        for (const ask of reading.asks) {
          if (sql.known.get(dir, ask.id)) {
            if (!(reading.old && folder.drain?.quiet)) replays.set(folder, (replays.get(folder) ?? 0) + 1);
            continue;
          }
          const answer = decide(ask, folder.side.who, now);
          sql.take.run(dir, ask.id, now, answerLine(ask, answer, now));
          taken.push({ folder, id: ask.id, op: ask.op ?? '', answer });
        }
        if (!reading.old) {
          const lastAsk = reading.asks.length ? now : before.last_ask;
          sql.setAsks.run(dir, next.ino, next.offset, next.skipping, lastAsk, before === NO_MARK ? now : before.compacted);
        }
      }
    });
    for (const [folder, count] of replays) skip(folder, 'an ask with an id already taken from this folder: not done nor answered again', count);
    for (const reading of readings) {
      const drain = reading.folder.drain;
      if (reading.old && drain) Object.assign(drain, { offset: reading.next.offset, skipping: reading.next.skipping });
      if (reading.asks.length && !moved.includes(reading.folder)) reading.folder.status.lastAsk = now;
    }
    return { taken, moved };
  }

  /* ---- answering ---- */

  /**
   * Appends the answers of asks `ids` of one folder that are still undelivered, inside the write
   * lock. When the file is not as our last append left it and other asks wait for delivery, a
   * keeper may have appended their answers and stopped before committing: those are looked for
   * between the mark and the end, and only marked delivered.
   */
  function deliverFolder(folder: Folder, ids: readonly string[], recovery: boolean, now: number): void {
    const dir = folder.side.dir;
    const untold = sql.untold.all(dir);
    const wanted = new Set(ids);
    const rows = untold.filter((row) => wanted.has(row.id));
    if (rows.length === 0) return;
    checkFolder(dir);
    const at = mark(dir);
    const file = openToAppend(dir, ANSWERS_FILE);
    let reader: OpenFile | null = null;
    try {
      const size = file.stat.size;
      const found = new Set<string>();
      let lead = '';
      if (file.key !== at.answers_ino || size !== at.answers_offset) {
        // Not as our last append left it: read it (by a reading descriptor of the same file).
        reader = openToRead(dir, ANSWERS_FILE);
        if (!reader || reader.key !== file.key) throw new FolderProblem(`${dir}/${ANSWERS_FILE} changed while it was being answered into`);
        if (recovery || untold.length > rows.length) {
          const waiting = new Set(untold.map((row) => row.id));
          const from = file.key === at.answers_ino && size >= at.answers_offset ? at.answers_offset : 0;
          eachLine(reader, from, size, (line) => {
            const ask = answerOf(line);
            if (ask !== null && waiting.has(ask)) found.add(ask);
          });
          for (const id of found) sql.told.run(dir, id);
        }
        if (size > 0 && readAt(reader, size - 1, 1)[0] !== 10) lead = '\n';
      }
      const fresh = rows.filter((row) => !found.has(row.id));
      const lines = fresh.flatMap((row) => (row.answer === null ? [] : [row.answer]));
      if (lines.length) writeAll(file, Buffer.from(`${lead}${lines.join('\n')}\n`, 'utf8'));
      for (const row of fresh) sql.told.run(dir, row.id);
      sql.setAnswers.run(dir, file.key, sizeOf(file), now);
    } finally {
      closeFile(file);
      closeFile(reader);
    }
  }

  function deliver(batch: { folder: Folder; ids: string[] }[], recovery: boolean, now: number): void {
    if (batch.length === 0) return;
    deps.transaction(() => {
      for (const { folder, ids } of batch) guard(folder, 'answers', () => deliverFolder(folder, ids, recovery, now));
      deps.crashAfterAppend?.();
    });
  }

  /** Answers recorded but never appended (a keeper stopped in between): all at the first pass, then those older than ~2 s. */
  function recover(now: number): void {
    const rows = sql.untoldSince.all(recoveredAll ? now - RECOVER_AFTER_MS : Number.MAX_SAFE_INTEGER);
    recoveredAll = true;
    const byFolder = new Map<Folder, string[]>();
    for (const row of rows) {
      const folder = folders.get(row.dir);
      if (!folder) continue;
      const ids = byFolder.get(folder) ?? [];
      ids.push(row.id);
      byFolder.set(folder, ids);
    }
    deliver([...byFolder].map(([folder, ids]) => ({ folder, ids })), true, now);
  }

  /* ---- tidying: nothing piles up ---- */

  /** Rewrites answers.jsonl with the answers of the last minute only, under the write lock. */
  function compactAnswers(folder: Folder, now: number): void {
    const dir = folder.side.dir;
    const before = sql.mark.get(dir);
    if (!before || now - before.compacted < TOO_LATE_MS) return;
    deps.transaction(() => {
      const at = sql.mark.get(dir);
      if (!at || now - at.compacted < TOO_LATE_MS) return;
      const file = openToRead(dir, ANSWERS_FILE);
      try {
        if (file && (file.key !== at.answers_ino || file.stat.size !== at.answers_offset)) {
          // Answers a stopped keeper appended must be known as delivered before the file is rewritten.
          const waiting = new Set(sql.untold.all(dir).map((row) => row.id));
          const from = file.key === at.answers_ino && file.stat.size >= at.answers_offset ? at.answers_offset : 0;
          if (waiting.size) eachLine(file, from, file.stat.size, (line) => {
            const ask = answerOf(line);
            if (ask !== null && waiting.has(ask)) sql.told.run(dir, ask);
          });
        }
        let dropped = false;
        const kept: Buffer[] = [];
        if (file) {
          eachLine(file, 0, file.stat.size, (line) => {
            const time = answerTime(line);
            if (time !== null && time >= now - TOO_LATE_MS) kept.push(Buffer.from(line), Buffer.from('\n'));
            else dropped = true;
          });
          if (kept.reduce((n, b) => n + b.length, 0) !== file.stat.size) dropped = true;
        }
        if (file && dropped) {
          const written = replaceFile(dir, ANSWERS_FILE, Buffer.concat(kept), 0o600);
          sql.setAnswers.run(dir, written.key, written.size, now);
        }
        sql.setCompacted.run(now, dir);
      } finally {
        closeFile(file);
      }
    });
  }

  /** Renames asks.jsonl aside once all of it was read and its newest ask is past the window. */
  function setAsksAside(folder: Folder, now: number): void {
    const dir = folder.side.dir;
    const ready = (m: MarkRow | undefined): m is MarkRow => {
      if (!m || m.asks_skipping || now - m.last_ask < TOO_LATE_MS) return false;
      const seen = lookAt(dir, ASKS_FILE);
      return !!seen && seen.isFile() && seen.size > 0 && fileKey(seen) === m.asks_ino && seen.size === m.asks_offset;
    };
    if (folder.drain || !ready(sql.mark.get(dir))) return;
    deps.transaction(() => {
      const at = sql.mark.get(dir);
      if (!ready(at)) return;
      renameIn(dir, ASKS_FILE, OLD_ASKS_FILE);
      folder.drain = { key: at.asks_ino, offset: at.asks_offset, skipping: 0, size: at.asks_offset, quietSince: now, quiet: false };
      sql.setAsks.run(dir, '', 0, 0, at.last_ask, at.compacted);
    });
  }

  /** The renamed asks file: adopted when a stopped keeper left it, removed once nothing more comes. */
  function tendOldAsks(folder: Folder, now: number): void {
    const dir = folder.side.dir;
    const seen = lookAt(dir, OLD_ASKS_FILE);
    const drain = folder.drain;
    if (!drain) {
      if (seen?.isFile() && (folder.fresh || Date.now() - seen.mtimeMs > ORPHAN_AFTER_MS)) {
        // Its asks were taken before, or are read now: the ledger of ids keeps them from being done twice.
        folder.drain = { key: fileKey(seen), offset: 0, skipping: 0, size: -1, quietSince: now, quiet: true };
      }
      return;
    }
    if (!seen?.isFile() || fileKey(seen) !== drain.key) {
      folder.drain = null;
      return;
    }
    if (seen.size !== drain.size) {
      drain.size = seen.size;
      drain.quietSince = now;
      return;
    }
    const quiet = now - drain.quietSince;
    if ((seen.size === drain.offset && quiet >= DRAIN_QUIET_MS) || quiet >= DRAIN_GIVE_UP_MS) {
      removeIfSame(dir, OLD_ASKS_FILE, drain.key);
      folder.drain = null;
    }
  }

  function tidy(list: Folder[], now: number): void {
    recover(now);
    for (const folder of list) {
      guard(folder, 'tidy', () => {
        folder.folderKey = checkFolder(folder.side.dir);
        if (folder.fresh) removeStaleTemps(folder.side.dir);
        tendOldAsks(folder, now);
        setAsksAside(folder, now);
        compactAnswers(folder, now);
      });
      folder.fresh = false;
    }
    if (now - sweptAt >= TOO_LATE_MS) {
      sweptAt = now;
      deps.transaction(() => {
        sql.forget.run(now - TOO_LATE_MS);
        sql.drop.run(now - KEEP_ASKS_MS);
      });
    }
  }

  /* ---- waking ---- */

  function schedule(): void {
    if (!running || wake) return;
    wake = setImmediate(run);
  }
  let lastFailure = '';
  function run(): void {
    wake = null;
    try {
      pump();
      lastFailure = '';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== lastFailure) say(`a pass over the folders failed: ${message}`);
      lastFailure = message;
    }
  }

  function unwatch(folder: Folder): void {
    folder.watcher?.close();
    folder.watcher = null;
  }
  function watchAll(list: Folder[]): void {
    for (const folder of list) {
      if (folder.problems.has('read') || !folder.folderKey) {
        unwatch(folder);
        continue;
      }
      if (folder.watcher && folder.watchedKey === folder.folderKey) continue;
      unwatch(folder);
      if (Date.now() < folder.watchAfter) continue;
      // Where file events fail (some file systems, no inotify left), the safety poll serves alone.
      try {
        const watcher = (deps.watch ?? fsWatch)(folder.side.dir, { persistent: false }, (_event, name) => {
          const file = name === null || name === undefined ? null : String(name);
          if (file === null || file === ASKS_FILE || file === OLD_ASKS_FILE) schedule();
        });
        watcher.on('error', () => {
          if (folder.watcher === watcher) unwatch(folder);
          folder.watchAfter = Date.now() + WATCH_RETRY_MS;
        });
        folder.watcher = watcher;
        folder.watchedKey = folder.folderKey;
      } catch {
        folder.watchAfter = Date.now() + WATCH_RETRY_MS;
      }
    }
  }

  function beatAll(stopped: boolean): void {
    const now = deps.now();
    for (const folder of syncFolders()) {
      guard(folder, 'heartbeat', () => {
        checkFolder(folder.side.dir);
        writeHeartbeat(folder.side.dir, now, stopped);
      });
    }
  }

  /* ---- the pass ---- */

  function pump(): number {
    const now = deps.now();
    let list = syncFolders();
    if (now - tidiedAt >= (deps.pollMs ?? POLL_MS) || !recoveredAll) {
      tidiedAt = now;
      tidy(list, now);
    }
    let answered = 0;
    // A folder moved by another keeper meanwhile is read again; a few rounds, then the next pass.
    for (let round = 0; round < 3 && list.length; round++) {
      const readings = list.flatMap((folder) => readFolder(folder, now));
      if (readings.length === 0) break;
      const { taken, moved } = take(readings, now);
      if (taken.length) deps.crashAfterCommit?.();
      for (const folder of moved) folder.skipped.clear();
      // Only the asks taken now: an ask left undelivered before is the recovery's, which looks in the file first.
      const byFolder = new Map<Folder, string[]>();
      for (const { folder, id } of taken) byFolder.set(folder, [...(byFolder.get(folder) ?? []), id]);
      deliver([...byFolder].map(([folder, ids]) => ({ folder, ids })), false, now);
      for (const { folder, op, answer } of taken) {
        folder.status.answered++;
        for (const listener of listeners) {
          try {
            listener(folder.side, op, answer);
          } catch (error) {
            say(`a listener of answers failed: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      }
      answered += taken.length;
      list = moved;
    }
    if (running) watchAll([...folders.values()]);
    for (const folder of folders.values()) {
      for (const [why, count] of folder.skipped) say(`${folder.side.dir}: ${count} ask line${count === 1 ? '' : 's'} skipped: ${why}`);
      folder.skipped.clear();
    }
    return answered;
  }

  return {
    pump,
    start() {
      if (running) return;
      running = true;
      beatAll(false);
      tidiedAt = -Infinity;
      run();
      poll = setInterval(run, deps.pollMs ?? POLL_MS);
      beat = setInterval(() => beatAll(false), HEARTBEAT_MS);
    },
    close() {
      running = false;
      if (poll) clearInterval(poll);
      if (beat) clearInterval(beat);
      if (wake) clearImmediate(wake);
      poll = beat = wake = null;
      for (const folder of folders.values()) unwatch(folder);
      beatAll(true);
    },
    folders: () => syncFolders().map((folder) => ({ ...folder.status })),
    onAnswer(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
