/**
 * The asking side's reads and writes in its folder: append one ask, read the keeper's heartbeat,
 * read the answers appended since a mark. The folder may be in a less trusted party's hands, so
 * nothing here follows a link, blocks on a FIFO, or writes into anything but a regular file.
 */
import { accessSync, closeSync, constants, fstatSync, lstatSync, openSync, readSync, writeSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { ANSWERS_FILE, ASKS_FILE, HEARTBEAT_FILE, type Heartbeat } from '../keeper/protocol.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
/** A heartbeat is a few fields; anything larger is not one. */
const HEARTBEAT_MAX = 4096;
/** One answer may carry a whole list as data, but not without bound. */
const ANSWER_LINE_MAX = 16 * 1024 * 1024;
/** Bytes read from the answers file per call; the caller comes back for the rest. */
const READ_MAX = 4 * 1024 * 1024;

export type Written = { written: true } | { written: false; why: string };

/**
 * The folder's answers file as it is now (null: absent), or why no answer could be read from it:
 * a link, a directory or anything but a regular file with one name is never written by a keeper.
 */
export function answersLook(folder: string): { seen: Stats | null } | { problem: string } {
  const path = join(folder, ANSWERS_FILE);
  let seen;
  try {
    seen = lstatSync(path);
  } catch {
    return { seen: null };
  }
  const what = seen.isSymbolicLink() ? 'is a link' : !seen.isFile() ? 'is not a regular file' : seen.nlink > 1 ? 'has several links' : null;
  if (what) return { problem: `${path} ${what}; a keeper writes answers only into a plain file, so no answer could come. Nothing was asked; ask a person to look at this folder.` };
  try {
    accessSync(path, constants.R_OK);
  } catch {
    return { problem: `${path} cannot be read by you (permission denied), so no answer could reach you. Nothing was asked; ask a person to look at this folder.` };
  }
  return { seen };
}

/** Whether anything stands at keeper.json: where nothing does, no keeper that beats has kept the folder. */
export function heartbeatThere(folder: string): boolean {
  try {
    lstatSync(join(folder, HEARTBEAT_FILE));
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Appends one ask line (ending with its newline) to the folder's asks file, in one write, refusing links and non-files. */
export function appendAsk(folder: string, line: string): Written {
  const path = join(folder, ASKS_FILE);
  const refused = (what: string): Written => ({
    written: false,
    why: `${path} ${what}; Binder writes an ask only into a plain file. Ask a person to look at this folder.`,
  });
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK, 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') return refused('is a link');
    if (code === 'ENXIO' || code === 'EISDIR') return refused('is not a regular file');
    if (code === 'EACCES' || code === 'EPERM') {
      return { written: false, why: `${path} cannot be written by you (permission denied): an agent asks through its own folder. Nothing was asked.` };
    }
    return refused(`cannot be written (${code ?? 'unknown error'})`);
  }
  try {
    const file = fstatSync(fd);
    if (!file.isFile()) return refused('is not a regular file');
    // A keeper reads no file with several links: an ask written there would wait for nobody.
    if (file.nlink > 1) return refused('has several links');
    const bytes = Buffer.from(line, 'utf8');
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
    return { written: true };
  } catch (error) {
    return refused(`cannot be written (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`);
  } finally {
    closeSync(fd);
  }
}

/** Opens a regular file for reading without following a link or blocking; null otherwise. */
function openPlain(path: string): number | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (fstatSync(fd).isFile()) return fd;
  } catch {
    /* closed below */
  }
  closeSync(fd);
  return null;
}

/** The keeper's heartbeat in the folder, or null when there is none to believe. */
export function readHeartbeat(folder: string): Partial<Heartbeat> | null {
  // Opened as a plain file only (no link, no FIFO), and read no further than a heartbeat's size.
  const fd = openPlain(join(folder, HEARTBEAT_FILE));
  if (fd === null) return null;
  try {
    const buffer = Buffer.alloc(HEARTBEAT_MAX + 1);
    const size = readSync(fd, buffer, 0, buffer.length, 0);
    if (size > HEARTBEAT_MAX) return null;
    const beat: unknown = JSON.parse(buffer.subarray(0, size).toString('utf8'));
    return beat && typeof beat === 'object' && !Array.isArray(beat) ? (beat as Partial<Heartbeat>) : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The answers file read from where it stood when made: each `read()` gives the complete lines
 * appended since. A file replaced (another inode) or shrunk (compacted) is read again from 0.
 * A partial last line waits for its end.
 */
export class AnswersSince {
  private inode: number | null = null;
  private offset = 0;
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private skipping = false;
  /** More bytes were there than one read takes. */
  more = false;

  /** `seen`: the file's lstat taken just before (null: absent), else taken here. */
  constructor(private readonly path: string, seen?: Stats | null) {
    try {
      const now = seen === undefined ? lstatSync(path) : seen;
      if (now?.isFile()) {
        this.inode = now.ino;
        this.offset = now.size;
      }
    } catch {
      /* no answers yet: any file that appears is read from 0 */
    }
  }

  read(): string[] {
    this.more = false;
    const fd = openPlain(this.path);
    if (fd === null) return [];
    const lines: string[] = [];
    try {
      const { ino, size } = fstatSync(fd);
      if (ino !== this.inode || size < this.offset) {
        this.inode = ino;
        this.offset = 0;
        this.dropPartial(false);
      }
      const end = Math.min(size, this.offset + READ_MAX);
      const chunk = Buffer.alloc(Math.min(64 * 1024, Math.max(end - this.offset, 0)));
      while (this.offset < end) {
        const got = readSync(fd, chunk, 0, Math.min(chunk.length, end - this.offset), this.offset);
        if (got <= 0) break;
        this.offset += got;
        this.take(chunk.subarray(0, got), lines);
      }
      this.more = this.offset < size;
    } catch {
      /* read again at the next wake */
    } finally {
      closeSync(fd);
    }
    return lines;
  }

  private take(bytes: Buffer, lines: string[]): void {
    let start = 0;
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, start)) {
      const piece = bytes.subarray(start, at);
      if (!this.skipping) lines.push(Buffer.concat([...this.partial, piece]).toString('utf8'));
      this.dropPartial(false);
      start = at + 1;
    }
    if (start < bytes.length && !this.skipping) {
      const rest = Buffer.from(bytes.subarray(start));
      this.partial.push(rest);
      this.partialBytes += rest.length;
      if (this.partialBytes > ANSWER_LINE_MAX) this.dropPartial(true);
    }
  }

  private dropPartial(skipToNextLine: boolean): void {
    this.partial = [];
    this.partialBytes = 0;
    this.skipping = skipToNextLine;
  }
}
