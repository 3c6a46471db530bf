/**
 * Where a running keeper answers over HTTP, written beside the store (`serving.json`, readable by
 * its owner alone) so that `binder admin login-link` can give the person a link to the page of
 * the server that keeps this store. Light (node:fs only): `binder admin` reads it. It holds an
 * address and a process id, never a secret.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const SERVING_FILE = 'serving.json';

export interface Serving { url: string; pid: number; started: string }

const fileOf = (storeDir: string): string => join(storeDir, SERVING_FILE);

/** Says where this process answers for the store of `dbPath`; returns what takes it back. */
export function sayServing(dbPath: string, url: string, now = Date.now()): () => void {
  const file = fileOf(dirname(dbPath));
  const fresh = `${file}.${process.pid}`;
  try {
    writeFileSync(fresh, `${JSON.stringify({ url, pid: process.pid, started: new Date(now).toISOString() })}\n`, { mode: 0o600 });
    renameSync(fresh, file);
  } catch {
    // A store folder that cannot be written: the link is made with --url instead.
    return () => {};
  }
  return () => {
    // Another keeper may have started since and said its own address: that one stays.
    if (readServing(dirname(dbPath), () => true)?.pid === process.pid) rmSync(file, { force: true });
  };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Where a keeper that still runs answers for the store in `storeDir`, or null. */
export function readServing(storeDir: string, running: (pid: number) => boolean = alive): Serving | null {
  let said: unknown;
  try {
    said = JSON.parse(readFileSync(fileOf(storeDir), 'utf8'));
  } catch {
    return null;
  }
  const s = said as Partial<Serving> | null;
  if (!s || typeof s.url !== 'string' || !/^https?:\/\/[^\s]+$/.test(s.url) || typeof s.pid !== 'number') return null;
  return running(s.pid) ? { url: s.url, pid: s.pid, started: String(s.started ?? '') } : null;
}
