/**
 * The keeper's ledger in the store (tables `asks` and `folder_marks`, keyed by the folder's
 * binding, its directory's identity, never by its path) and the answers file kept in step with
 * it: answers appended under the write lock, answers a stopped keeper appended found again, the
 * file compacted past the answer window. Every function here that writes must run inside the
 * store's write transaction; none may append an answer that is already there.
 */
import { fstatSync } from 'node:fs';
import type { Database } from 'better-sqlite3';
import { ANSWERS_FILE, TOO_LATE_MS } from './protocol.js';
import {
  FolderProblem, closeFile, openToAppend, openToRead, readAt, replaceFile, sizeOf, writeAll, type OpenFile,
} from './folder-files.js';
import type { OpenFolder } from './folder-bind.js';
import { READ_MAX, answerOf, answerTime, eachLine } from './folder-lines.js';

/** The answers file's mode: the agent reads it, whoever it runs as. */
export const ANSWERS_MODE = 0o644;

/** Where the keepers of this store stand in one folder's files. */
export interface MarkRow {
  asks_ino: string;
  asks_offset: number;
  asks_skipping: number;
  answers_ino: string;
  answers_offset: number;
  last_ask: number;
  compacted: number;
}
export const NO_MARK: MarkRow = { asks_ino: '', asks_offset: 0, asks_skipping: 0, answers_ino: '', answers_offset: 0, last_ask: 0, compacted: 0 };

export type Ledger = ReturnType<typeof createLedger>;

export function createLedger(db: Database) {
  const markOf = db.prepare<[string], MarkRow>(
    'SELECT asks_ino, asks_offset, asks_skipping, answers_ino, answers_offset, last_ask, compacted FROM folder_marks WHERE dir = ?');
  // Rows a keeper kept by the folder's path (before folders were bound) go to its binding.
  const adoptions = ['asks', 'folder_marks', 'waits'].map((table) => [
    db.prepare<[string, string]>(`UPDATE OR IGNORE ${table} SET dir = ? WHERE dir = ?`),
    db.prepare<[string]>(`DELETE FROM ${table} WHERE dir = ?`),
  ] as const);
  return {
    /** Takes what the ledger kept under the folder's path `dir` as its binding `key`'s. */
    adopt: (dir: string, key: string): void => {
      for (const [move, drop] of adoptions) {
        move.run(key, dir);
        drop.run(dir);
      }
    },
    /** The folder's mark, or NO_MARK (that very object) when it has none yet. */
    mark: (dir: string): MarkRow => markOf.get(dir) ?? NO_MARK,
    /** Where asks.jsonl is read from next; a new mark's compaction clock starts at `since`. */
    setAsks: db.prepare<[string, string, number, number, number, number]>(
      `INSERT INTO folder_marks (dir, asks_ino, asks_offset, asks_skipping, last_ask, compacted) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (dir) DO UPDATE SET asks_ino = excluded.asks_ino, asks_offset = excluded.asks_offset,
         asks_skipping = excluded.asks_skipping, last_ask = excluded.last_ask`),
    setAnswers: db.prepare<[string, string, number, number]>(
      `INSERT INTO folder_marks (dir, answers_ino, answers_offset, compacted) VALUES (?, ?, ?, ?)
       ON CONFLICT (dir) DO UPDATE SET answers_ino = excluded.answers_ino, answers_offset = excluded.answers_offset`),
    setCompacted: db.prepare<[number, string]>('UPDATE folder_marks SET compacted = ? WHERE dir = ?'),
    known: db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM asks WHERE dir = ? AND id = ?'),
    /** An ask taken: when, and its answer line while it is kept (null for a wait held, or once forgotten). */
    recorded: db.prepare<[string, string], { at: number; answer: string | null; delivered: number }>(
      'SELECT at, answer, delivered FROM asks WHERE dir = ? AND id = ?'),
    take: db.prepare<[string, string, number, string]>('INSERT INTO asks (dir, id, at, answer, delivered) VALUES (?, ?, ?, ?, 0)'),
    // An ask taken with no answer yet (one held open until something changes) is not ready: left alone.
    untold: db.prepare<[string], { id: string; answer: string }>(
      // By the index of undelivered asks: by the key, every ask of the folder this week would be read.
      'SELECT id, answer FROM asks INDEXED BY asks_undelivered WHERE delivered = 0 AND dir = ? AND answer IS NOT NULL'),
    untoldSince: db.prepare<[number], { dir: string; id: string }>(
      'SELECT dir, id FROM asks WHERE delivered = 0 AND at <= ? AND answer IS NOT NULL'),
    told: db.prepare<[string, string]>('UPDATE asks SET delivered = 1 WHERE dir = ? AND id = ?'),
    /** Answers delivered and past the window: only the id is kept, to know a replay. */
    forget: db.prepare<[number]>('UPDATE asks SET answer = NULL WHERE delivered = 1 AND answer IS NOT NULL AND at < ?'),
    drop: db.prepare<[number]>('DELETE FROM asks WHERE at < ?'),
  };
}

/** Marks delivered every undelivered ask of `dir` whose answer is in `file` between `from` and `to`. */
function findAppended(ledger: Ledger, dir: string, file: OpenFile, from: number, to: number, waiting: Set<string>): Set<string> {
  const found = new Set<string>();
  if (waiting.size === 0) return found;
  eachLine(file, from, to, (line) => {
    const ask = answerOf(line);
    if (ask !== null && waiting.has(ask)) found.add(ask);
  });
  for (const id of found) ledger.told.run(dir, id);
  return found;
}

/**
 * Appends the answers of asks `ids` of one folder that are still undelivered, and marks them
 * delivered — through `kept`, the answers file opened before the asks were taken, when there is
 * one. When the file is not as the last append left it and other asks wait for
 * delivery (`recovery`, or more undelivered asks than `ids`), a keeper may have appended their
 * answers and stopped before committing: those are looked for from the mark to the end, and only
 * marked. `again`: answers given again to asks asked again (not in the ledger's keeping: a keeper
 * stopped before they are written does not write them). Answers written into a file removed
 * meanwhile are not marked: they are written again.
 */
export function appendAnswers(
  ledger: Ledger, folder: OpenFolder, ids: readonly string[], recovery: boolean, now: number, kept: OpenFile | null = null, again: readonly string[] = [],
): void {
  const key = folder.key;
  const untold = ledger.untold.all(key);
  const wanted = new Set(ids);
  const rows = untold.filter((row) => wanted.has(row.id));
  if (rows.length === 0 && again.length === 0) return;
  const at = ledger.mark(key);
  // Readable by the agent even when it runs as another user: the folder's own mode guards it.
  const file = kept ?? openToAppend(folder, ANSWERS_FILE, ANSWERS_MODE);
  let reader: OpenFile | null = null;
  try {
    const size = sizeOf(file);
    let found = new Set<string>();
    let lead = '';
    if (file.key !== at.answers_ino || size !== at.answers_offset) {
      reader = openToRead(folder, ANSWERS_FILE);
      if (!reader || reader.key !== file.key) throw new FolderProblem(`${folder.dir}/${ANSWERS_FILE} changed while answers were being written to it`);
      if (recovery || untold.length > rows.length) {
        const from = file.key === at.answers_ino && size >= at.answers_offset ? at.answers_offset : 0;
        found = findAppended(ledger, key, reader, from, size, new Set(untold.map((row) => row.id)));
      }
      // A line a stopped keeper left unfinished must not swallow the first of ours.
      if (size > 0 && readAt(reader, size - 1, 1)[0] !== 10) lead = '\n';
    }
    const fresh = rows.filter((row) => !found.has(row.id));
    const lines = [...fresh.map((row) => row.answer), ...again];
    if (lines.length) writeAll(file, Buffer.from(`${lead}${lines.join('\n')}\n`, 'utf8'));
    // Removed or replaced (renamed over) since it was opened: what was written there is lost.
    const after = fstatSync(file.fd);
    if (after.nlink === 0) throw new FolderProblem(`${folder.dir}/${ANSWERS_FILE} was removed while answers were written to it: they are written again`);
    for (const row of fresh) ledger.told.run(key, row.id);
    ledger.setAnswers.run(key, file.key, after.size, now);
  } finally {
    if (file !== kept) closeFile(file);
    closeFile(reader);
  }
}

/**
 * Appends answer lines the store could not record (its disk is full): outside any transaction,
 * and the mark is not moved. A line a stopped keeper left unfinished does not swallow the first.
 */
export function appendUnrecorded(folder: OpenFolder, lines: readonly string[]): void {
  const file = openToAppend(folder, ANSWERS_FILE, ANSWERS_MODE);
  let reader: OpenFile | null = null;
  try {
    const size = file.stat.size;
    let lead = '';
    if (size > 0) {
      reader = openToRead(folder, ANSWERS_FILE);
      if (!reader || reader.key !== file.key) throw new FolderProblem(`${folder.dir}/${ANSWERS_FILE} changed while answers were being written to it`);
      if (readAt(reader, size - 1, 1)[0] !== 10) lead = '\n';
    }
    writeAll(file, Buffer.from(`${lead}${lines.join('\n')}\n`, 'utf8'));
  } finally {
    closeFile(file);
    closeFile(reader);
  }
}

/**
 * Ids answered in the answers file past the mark that the ledger does not know: answers appended
 * unrecorded (the disk was full) by a keeper that then stopped. Only the file's last READ_MAX
 * bytes are looked at, and only when the file is not as the last recorded append left it.
 */
export function answeredUnrecorded(ledger: Ledger, folder: OpenFolder): string[] {
  const file = openToRead(folder, ANSWERS_FILE);
  if (!file) return [];
  try {
    const at = ledger.mark(folder.key);
    const size = file.stat.size;
    if (file.key === at.answers_ino && size === at.answers_offset) return [];
    const from = Math.max(file.key === at.answers_ino && size >= at.answers_offset ? at.answers_offset : 0, size - READ_MAX);
    const ids = new Set<string>();
    eachLine(file, from, size, (line) => {
      const ask = answerOf(line);
      if (ask !== null && !ledger.known.get(folder.key, ask)) ids.add(ask);
    });
    return [...ids];
  } finally {
    closeFile(file);
  }
}

/** Is the answers file of the folder `key` due for compaction (once per answer window)? */
export function answersDue(ledger: Ledger, key: string, now: number): boolean {
  const at = ledger.mark(key);
  return at !== NO_MARK && now - at.compacted >= TOO_LATE_MS;
}

/**
 * Rewrites answers.jsonl with the answers of the last window only (a new file renamed over, so
 * no text of an old answer is left), and moves the mark to it. Inside the write lock.
 */
export function compactAnswers(ledger: Ledger, folder: OpenFolder, now: number): void {
  const key = folder.key;
  if (!answersDue(ledger, key, now)) return;
  const at = ledger.mark(key);
  const file = openToRead(folder, ANSWERS_FILE);
  try {
    if (file) {
      const size = file.stat.size;
      // Answers a stopped keeper appended are known as delivered before the file is rewritten.
      if (file.key !== at.answers_ino || size !== at.answers_offset) {
        const from = file.key === at.answers_ino && size >= at.answers_offset ? at.answers_offset : 0;
        findAppended(ledger, key, file, from, size, new Set(ledger.untold.all(key).map((row) => row.id)));
      }
      const kept: Buffer[] = [];
      let keptBytes = 0;
      eachLine(file, 0, size, (line) => {
        const time = answerTime(line);
        if (time === null || time < now - TOO_LATE_MS) return;
        kept.push(Buffer.from(line), Buffer.from('\n'));
        keptBytes += line.length + 1;
      });
      if (keptBytes !== size) {
        const written = replaceFile(folder, ANSWERS_FILE, Buffer.concat(kept), ANSWERS_MODE);
        ledger.setAnswers.run(key, written.key, written.size, now);
      }
    }
    ledger.setCompacted.run(now, key);
  } finally {
    closeFile(file);
  }
}
