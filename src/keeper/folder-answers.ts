/**
 * The keeper's ledger in the store (tables `asks` and `folder_marks`, keyed by the folder's
 * binding, its directory's identity, never by its path) and the answers file kept in step with
 * it: answers appended inside the transaction that records them, answers a stopped keeper
 * appended found again, the file compacted past the answer window. Every function here that
 * writes is given the ledger of the store's write transaction; none may append an answer that is
 * already there.
 */
import { fstatSync } from 'node:fs';
import type { Ledger, MarkRow } from '../store/index.js';
import { ANSWERS_FILE, TOO_LATE_MS } from './protocol.js';
import {
  FolderProblem, closeFile, openToAppend, openToRead, readAt, replaceFile, sizeOf, writeAll, type OpenFile,
} from './folder-files.js';
import type { OpenFolder } from './folder-bind.js';
import { ANSWERS_READ_MAX, READ_MAX, answerOf, answerTime, eachLine } from './folder-lines.js';

/** The answers file's mode: the folder's owner and group read it (the agent, whoever it runs as), nobody else. */
export const ANSWERS_MODE = 0o640;

export type { MarkRow };
export type { Ledger };
export const NO_MARK: MarkRow = { asks_ino: '', asks_offset: 0, asks_skipping: 0, answers_ino: '', answers_offset: 0, last_ask: 0, compacted: 0 };

/** The folder's mark, or NO_MARK (that very object) when it has none yet. */
export const markOf = async (ledger: Ledger, dir: string): Promise<MarkRow> => (await ledger.mark(dir)) ?? NO_MARK;

/** Where an answers file was left: its identity and its size. */
export interface AnswersMark { ino: string; offset: number }

/** Marks delivered every undelivered ask of `dir` whose answer is in `file` between `from` and `to`. */
async function findAppended(ledger: Ledger, dir: string, file: OpenFile, from: number, to: number, waiting: Set<string>): Promise<Set<string>> {
  const found = new Set<string>();
  if (waiting.size === 0) return found;
  eachLine(file, from, Math.min(to, from + ANSWERS_READ_MAX), (line) => {
    const ask = answerOf(line);
    if (ask !== null && waiting.has(ask)) found.add(ask);
  });
  for (const id of found) await ledger.told(dir, id);
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
 * meanwhile are not marked: they are written again. Returns where the file was left, or null when
 * nothing was written.
 */
export async function appendAnswers(
  ledger: Ledger, folder: OpenFolder, ids: readonly string[], recovery: boolean, now: number, kept: OpenFile | null = null, again: readonly string[] = [],
): Promise<AnswersMark | null> {
  const key = folder.key;
  const untold = await ledger.untold(key);
  const wanted = new Set(ids);
  const rows = untold.filter((row) => wanted.has(row.id));
  if (rows.length === 0 && again.length === 0) return null;
  const at = await markOf(ledger, key);
  // Readable by the agent through the folder's group when it runs as another user.
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
        found = await findAppended(ledger, key, reader, from, size, new Set(untold.map((row) => row.id)));
      }
      // A line a stopped keeper left unfinished must not swallow the first of ours.
      if (size > 0 && readAt(reader, size - 1, 1)[0] !== 10) lead = '\n';
    }
    const fresh = rows.filter((row) => !found.has(row.id));
    const lines = [...fresh.map((row) => row.answer), ...again];
    if (lines.length) writeAll(file, Buffer.from(`${lead}${lines.join('\n')}\n`, 'utf8'));
    // Removed or replaced (renamed over) since it was opened: what was written there is lost.
    const after = fstatSync(file.fd);
    if (after.nlink === 0) throw removedWhileWritten(folder);
    for (const row of fresh) await ledger.told(key, row.id);
    await ledger.setAnswers(key, file.key, after.size, now);
    return { ino: file.key, offset: after.size };
  } finally {
    if (file !== kept) closeFile(file);
    closeFile(reader);
  }
}

const removedWhileWritten = (folder: OpenFolder): FolderProblem =>
  new FolderProblem(`${folder.dir}/${ANSWERS_FILE} was removed while answers were written to it: they are written again`);

/**
 * Appends `lines` to the answers file `file` only if it is exactly as this keeper's last append
 * left it (`left`): nothing can be there to look for, and the ledger's marks may follow with its
 * next transaction (a keeper stopped before that finds the lines as after any append not marked).
 * Returns where the file is left, or null when it is not as left (nothing written then).
 */
export function appendAsLeft(folder: OpenFolder, file: OpenFile, left: AnswersMark, lines: readonly string[]): AnswersMark | null {
  if (file.key !== left.ino || sizeOf(file) !== left.offset) return null;
  writeAll(file, Buffer.from(`${lines.join('\n')}\n`, 'utf8'));
  const after = fstatSync(file.fd);
  if (after.nlink === 0) throw removedWhileWritten(folder);
  return { ino: file.key, offset: after.size };
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
export async function answeredUnrecorded(ledger: Ledger, folder: OpenFolder): Promise<string[]> {
  const file = openToRead(folder, ANSWERS_FILE);
  if (!file) return [];
  try {
    const at = await markOf(ledger, folder.key);
    const size = file.stat.size;
    if (file.key === at.answers_ino && size === at.answers_offset) return [];
    const from = Math.max(file.key === at.answers_ino && size >= at.answers_offset ? at.answers_offset : 0, size - READ_MAX);
    const ids = new Set<string>();
    eachLine(file, from, size, (line) => {
      const ask = answerOf(line);
      if (ask !== null) ids.add(ask);
    });
    const unknown: string[] = [];
    for (const id of ids) if (!await ledger.recorded(folder.key, id)) unknown.push(id);
    return unknown;
  } finally {
    closeFile(file);
  }
}

/** Is the answers file of the folder `key` due for compaction (once per answer window)? */
export async function answersDue(ledger: Ledger, key: string, now: number): Promise<boolean> {
  const at = await markOf(ledger, key);
  return at !== NO_MARK && now - at.compacted >= TOO_LATE_MS;
}

/**
 * Rewrites answers.jsonl with the answers of the last window only (a new file renamed over, so
 * no text of an old answer is left), and moves the mark to it. Inside the write lock. Only its last
 * ANSWERS_READ_MAX bytes are read, and a line dated past the window ahead is no answer of a
 * keeper's: what an agent adds to its own answers file never makes the keeper read, or keep, more
 * than it wrote. Returns what to say when the file held more than that.
 */
export async function compactAnswers(ledger: Ledger, folder: OpenFolder, now: number): Promise<string | null> {
  const key = folder.key;
  if (!await answersDue(ledger, key, now)) return null;
  const at = await markOf(ledger, key);
  const file = openToRead(folder, ANSWERS_FILE);
  try {
    if (file) {
      const size = file.stat.size;
      // Answers a stopped keeper appended are known as delivered before the file is rewritten.
      if (file.key !== at.answers_ino || size !== at.answers_offset) {
        const from = file.key === at.answers_ino && size >= at.answers_offset ? at.answers_offset : 0;
        await findAppended(ledger, key, file, from, size, new Set((await ledger.untold(key)).map((row) => row.id)));
      }
      const kept: Buffer[] = [];
      let keptBytes = 0;
      // From a line's start: a line cut by the bound is no answer, and is dropped.
      eachLine(file, Math.max(0, size - ANSWERS_READ_MAX), size, (line) => {
        const time = answerTime(line);
        if (time === null || time < now - TOO_LATE_MS || time > now + TOO_LATE_MS) return;
        kept.push(Buffer.from(line), Buffer.from('\n'));
        keptBytes += line.length + 1;
      });
      if (keptBytes !== size) {
        const written = replaceFile(folder, ANSWERS_FILE, Buffer.concat(kept), ANSWERS_MODE);
        await ledger.setAnswers(key, written.key, written.size, now);
      }
      await ledger.setCompacted(key, now);
      return size > ANSWERS_READ_MAX
        ? `${folder.dir}/${ANSWERS_FILE} held ${size.toLocaleString('en')} bytes, more than the keeper writes: only its last ${ANSWERS_READ_MAX / 1024 / 1024} MiB were read, and it was rewritten with the answers of the last minute found there`
        : null;
    }
    await ledger.setCompacted(key, now);
    return null;
  } finally {
    closeFile(file);
  }
}
