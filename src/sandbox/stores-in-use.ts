/**
 * The stores that running binder processes of this user hold open, found in /proc: a keeper
 * started from another shell may have been given a store (`--store`, BINDER_STORE,
 * XDG_DATA_HOME) that the shell running `binder sandbox` does not name, and that store must be
 * hidden as well. The open file is the proof, whatever the flags and the environment said.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname } from 'node:path';

const STORE_FILE = /\/binder\.db(-wal|-shm|-journal)?$/;

/** Folders holding a `binder.db` that a binder process this user can inspect has open. */
export function storesInUse(proc = '/proc'): string[] {
  const found = new Set<string>();
  let pids: string[];
  try { pids = readdirSync(proc).filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid); } catch { return []; }
  for (const pid of pids) {
    let words: string[];
    try { words = readFileSync(`${proc}/${pid}/cmdline`, 'utf8').split('\0'); } catch { continue; }
    if (!words.some((word) => /(^|\/)binder(\.js)?$/.test(word))) continue;
    let fds: string[];
    try { fds = readdirSync(`${proc}/${pid}/fd`); } catch { continue; }
    for (const fd of fds) {
      let target: string;
      try { target = readlinkSync(`${proc}/${pid}/fd/${fd}`); } catch { continue; }
      if (STORE_FILE.test(target)) found.add(dirname(target.replace(/ \(deleted\)$/, '')));
    }
  }
  return [...found];
}
