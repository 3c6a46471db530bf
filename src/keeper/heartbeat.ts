/**
 * The keeper's heartbeat in each folder it keeps (`keeper.json`): written whole by a new file
 * renamed over, read back by the asking side to know at once whether anyone keeps the folder.
 * It must never write through a link, nor read anything but a small regular file.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { HEARTBEAT_FILE, HEARTBEAT_MS, type Heartbeat } from './protocol.js';
import { VERSION } from '../version.js';
import { replaceFile } from './folder-files.js';
import type { OpenFolder } from './folder-bind.js';

/** A heartbeat is a few fields; anything larger is not one. */
const HEARTBEAT_MAX = 4096;

/** Writes the heartbeat into the folder. Throws a FolderProblem when the folder will not take it. */
export function writeHeartbeat(folder: OpenFolder, now: number, stopped: boolean): void {
  const beat: Heartbeat = { keeper: 'binder', version: VERSION, beat: new Date(now).toISOString(), every: HEARTBEAT_MS, stopped };
  replaceFile(folder, HEARTBEAT_FILE, Buffer.from(`${JSON.stringify(beat)}\n`, 'utf8'), 0o640);
}

/** The heartbeat in `dir`, or null when there is none to believe (absent, a link, not a file, garbage). */
export function readHeartbeat(dir: string): Heartbeat | null {
  const path = join(dir, HEARTBEAT_FILE);
  try {
    const seen = lstatSync(path);
    if (!seen.isFile() || seen.size > HEARTBEAT_MAX) return null;
  } catch {
    return null;
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    if (!fstatSync(fd).isFile()) return null;
    const buffer = Buffer.alloc(HEARTBEAT_MAX + 1);
    const size = readSync(fd, buffer, 0, buffer.length, 0);
    if (size > HEARTBEAT_MAX) return null;
    return asHeartbeat(JSON.parse(buffer.subarray(0, size).toString('utf8')));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function asHeartbeat(value: unknown): Heartbeat | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const own = (key: string): unknown => (Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined);
  const keeper = own('keeper');
  const version = own('version');
  const beat = own('beat');
  const every = own('every');
  const stopped = own('stopped');
  if (keeper !== 'binder' || typeof version !== 'string' || typeof beat !== 'string' || Number.isNaN(Date.parse(beat))) return null;
  if (typeof every !== 'number' || !(every > 0) || typeof stopped !== 'boolean') return null;
  return { keeper, version, beat, every, stopped };
}
