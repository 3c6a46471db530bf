/**
 * The keeper's file operations inside an agent's folder, which a less trusted party holds: open
 * through the folder's bound directory (folder-bind.ts), without following a link or blocking on
 * a FIFO, then use only a regular file with one name. Nothing here may ever read or write
 * through a path the folder's owner could redirect.
 */
import {
  closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readdirSync, readSync, renameSync, unlinkSync, writeSync, type Stats,
} from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { OpenFolder } from './folder-bind.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** One folder's files cannot be used as they are: `message` says why, for a person's log. */
export class FolderProblem extends Error {
  override readonly name = 'FolderProblem';
}

/** Bytes read per file name, since the process started: for tests that check what a pass reads. */
export const bytesRead: Record<string, number> = Object.create(null);

/** A file opened safely: its descriptor, what fstat said, and its identity (`fileKey`). */
export interface OpenFile {
  fd: number;
  name: string;
  stat: Stats;
  key: string;
}

/**
 * A file's or a directory's identity: `dev:ino:birth`. An inode number is given again at once to
 * the next file made (ext4 does), so its birth time (where the file system keeps one; 0 where it
 * does not) tells a file made again in the place of another from the one that was there.
 */
export const fileKey = (stat: { dev: number; ino: number; birthtimeMs: number }): string => `${stat.dev}:${stat.ino}:${stat.birthtimeMs}`;

const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException)?.code ?? 'unknown error';

function openProblem(folder: OpenFolder, name: string, error: unknown): FolderProblem {
  const code = codeOf(error);
  const path = join(folder.dir, name);
  if (code === 'ELOOP' || code === 'EMLINK') return new FolderProblem(`${path} is a symbolic link: the keeper never follows one; remove it`);
  if (code === 'ENXIO') return new FolderProblem(`${path} is not a regular file (a FIFO or a socket): remove it`);
  if (code === 'EISDIR') return new FolderProblem(`${path} is a directory, not a file: remove it`);
  if (code === 'EACCES' || code === 'EPERM') return new FolderProblem(`${path} cannot be opened: permission denied`);
  return new FolderProblem(`${path} cannot be opened (${code})`);
}

/** Why a file of the folder may not be used, or null when it is a regular file with one name. */
function unusable(stat: Stats, path: string): string | null {
  if (stat.isSymbolicLink()) return `${path} is a symbolic link: the keeper never follows one; remove it`;
  if (stat.isFIFO()) return `${path} is a FIFO, not a file: remove it`;
  if (stat.isDirectory()) return `${path} is a directory, not a file: remove it`;
  if (!stat.isFile()) return `${path} is not a regular file: remove it`;
  // A second name may be outside the folder: what is written here would land there.
  if (stat.nlink > 1) return `${path} has other names (a hard link): the keeper neither reads nor writes it; remove it`;
  return null;
}

/** Refuses `name` when something is there that is not a regular file with one name (absent is fine). */
export function refuseUnlessPlain(folder: OpenFolder, name: string): void {
  const seen = lookAt(folder, name);
  const why = seen && unusable(seen, join(folder.dir, name));
  if (why) throw new FolderProblem(why);
}

/**
 * Only a regular file with one name, opened in the bound directory, is used: anything else is
 * closed and refused.
 */
function plainOnly(fd: number, folder: OpenFolder, name: string): OpenFile {
  let stat: Stats;
  try {
    folder.still();
    stat = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    if (error instanceof FolderProblem) throw error;
    throw new FolderProblem(`${join(folder.dir, name)} cannot be examined (${codeOf(error)})`);
  }
  const why = unusable(stat, join(folder.dir, name));
  if (why) {
    closeSync(fd);
    throw new FolderProblem(why);
  }
  return { fd, name, stat, key: fileKey(stat) };
}

/**
 * A file this keeper just made (O_EXCL): given its mode whatever the umask, since the agent that
 * reads it may be another user (a umask of 077 would make answers nobody else can read).
 */
function made(fd: number, mode: number): number {
  try {
    fchmodSync(fd, mode);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Opens a file of the folder for reading; null when there is none. */
export function openToRead(folder: OpenFolder, name: string): OpenFile | null {
  let fd: number;
  try {
    fd = openSync(folder.at(name), constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return null;
    throw openProblem(folder, name, error);
  }
  return plainOnly(fd, folder, name);
}

/** Opens a file of the folder for appending, creating it (mode `mode`, never over anything) when absent. */
export function openToAppend(folder: OpenFolder, name: string, mode = 0o600): OpenFile {
  const path = folder.at(name);
  const flags = constants.O_WRONLY | constants.O_APPEND | NOFOLLOW | NONBLOCK;
  for (let attempt = 0; ; attempt++) {
    try {
      return plainOnly(openSync(path, flags), folder, name);
    } catch (error) {
      if (error instanceof FolderProblem) throw error;
      if (codeOf(error) !== 'ENOENT' || attempt > 2) throw openProblem(folder, name, error);
    }
    try {
      return plainOnly(made(openSync(path, flags | constants.O_CREAT | constants.O_EXCL, mode), mode), folder, name);
    } catch (error) {
      if (error instanceof FolderProblem) throw error;
      // Made by someone else meanwhile: open what is there now, with the same checks.
      if (codeOf(error) !== 'EEXIST') throw openProblem(folder, name, error);
    }
  }
}

/** Up to `length` bytes from `position` (fewer at the end of the file). */
export function readAt(file: OpenFile, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(Math.max(0, length));
  let got = 0;
  try {
    while (got < length) {
      const n = readSync(file.fd, buffer, got, length - got, position + got);
      if (n <= 0) break;
      got += n;
    }
  } catch (error) {
    throw new FolderProblem(`${file.name} cannot be read (${codeOf(error)})`);
  }
  bytesRead[file.name] = (bytesRead[file.name] ?? 0) + got;
  return buffer.subarray(0, got);
}

/** Writes all of `bytes` (appended: the file was opened with O_APPEND). */
export function writeAll(file: OpenFile, bytes: Buffer): void {
  try {
    for (let done = 0; done < bytes.length; ) done += writeSync(file.fd, bytes, done, bytes.length - done);
  } catch (error) {
    throw new FolderProblem(`${file.name} cannot be written (${codeOf(error)})`);
  }
}

/** The file's size now, by its descriptor. */
export function sizeOf(file: OpenFile): number {
  return fstatSync(file.fd).size;
}

export function closeFile(file: OpenFile | null): void {
  if (file) closeSync(file.fd);
}

/** A name for a temporary file of ours in the folder: hidden, unique, recognisable. */
const tempName = (name: string): string => `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
export const TEMP_PATTERN = /^\.(?:answers\.jsonl|keeper\.json)\.\d+\.[0-9a-f]{12}\.tmp$/;

/**
 * Replaces `name` in the folder with `content`, whole: written to a new file of our own
 * (O_EXCL, never through a link), then renamed over. Returns the new file's identity and size.
 */
export function replaceFile(folder: OpenFolder, name: string, content: Buffer, mode: number): { key: string; size: number } {
  const temp = tempName(name);
  const tempPath = folder.at(temp);
  let fd: number;
  try {
    fd = made(openSync(tempPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW | NONBLOCK, mode), mode);
  } catch (error) {
    throw openProblem(folder, temp, error);
  }
  let stat: Stats;
  try {
    folder.still();
    for (let done = 0; done < content.length; ) done += writeSync(fd, content, done, content.length - done);
    stat = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    removeQuietly(tempPath);
    if (error instanceof FolderProblem) throw error;
    throw new FolderProblem(`${join(folder.dir, temp)} cannot be written (${codeOf(error)})`);
  }
  closeSync(fd);
  try {
    renameSync(tempPath, folder.at(name));
  } catch (error) {
    removeQuietly(tempPath);
    const code = codeOf(error);
    const why = code === 'EISDIR' || code === 'ENOTEMPTY' || code === 'EEXIST' ? 'a directory is in its place' : code;
    throw new FolderProblem(`${join(folder.dir, name)} cannot be replaced (${why}): remove what is there`);
  }
  folder.still();
  return { key: fileKey(stat), size: stat.size };
}

/** Renames `from` to `to` in the folder: renaming moves the name, never what a link points to. */
export function renameIn(folder: OpenFolder, from: string, to: string): void {
  folder.still();
  try {
    renameSync(folder.at(from), folder.at(to));
  } catch (error) {
    throw new FolderProblem(`${join(folder.dir, from)} cannot be renamed to ${to} (${codeOf(error)})`);
  }
}

/** What is at `name` in the folder, without following a link; null when nothing is. */
export function lookAt(folder: OpenFolder, name: string): Stats | null {
  try {
    return lstatSync(folder.at(name));
  } catch {
    return null;
  }
}

/** Removes `name` from the folder if it is still the regular file `key`. */
export function removeIfSame(folder: OpenFolder, name: string, key: string): boolean {
  const seen = lookAt(folder, name);
  if (!seen || !seen.isFile() || fileKey(seen) !== key) return false;
  folder.still();
  return removeQuietly(folder.at(name));
}

function removeQuietly(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Removes temporary files of ours left in the folder by a keeper that stopped while writing one. */
export function removeStaleTemps(folder: OpenFolder, olderThanMs = 60_000): void {
  let names: string[];
  try {
    names = readdirSync(folder.path);
  } catch {
    return;
  }
  for (const name of names) {
    if (!TEMP_PATTERN.test(name)) continue;
    const seen = lookAt(folder, name);
    if (seen?.isFile() && Date.now() - seen.mtimeMs > olderThanMs) removeQuietly(folder.at(name));
  }
}
