/**
 * Where an export goes: a file written whole or not at all (a temporary file beside it, renamed
 * over it once complete), readable by its owner only, since an export holds the binder whole; or
 * stdout. Writes are gathered into large pieces. It never leaves a half-written file behind.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeAll } from '../keeper/output.js';
import { terminalSafe } from '../keeper/terminal-safe.js';
import { Refused } from '../store/index.js';

export interface Sink {
  write(text: string): void;
  /** Puts the file in place (or flushes stdout). */
  close(): void;
  /** Drops what was written: the file is not made. */
  drop(): void;
}

const CHUNK = 1 << 20;

const why = (e: unknown): string => (e instanceof Error ? e.message.replace(/^[A-Z]+: /, '') : String(e));

export function fileSink(path: string): Sink {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.part`);
  let fd: number;
  try {
    fd = openSync(temp, 'wx', 0o600);
  } catch (e) {
    throw new Refused(`Binder cannot write ${path}: ${why(e)}.`, `Binder ne peut pas écrire ${path} : ${why(e)}.`);
  }
  let pending: string[] = [];
  let size = 0;
  const flush = (): void => {
    if (size === 0) return;
    writeSync(fd, pending.join(''));
    pending = [];
    size = 0;
  };
  let open = true;
  const end = (keep: boolean): void => {
    if (!open) return;
    open = false;
    try {
      if (keep) {
        flush();
        fsyncSync(fd);
      }
    } finally {
      closeSync(fd);
      if (keep) renameSync(temp, path);
      else rmSync(temp, { force: true });
    }
  };
  return {
    write(text) {
      pending.push(text);
      size += text.length;
      if (size >= CHUNK) flush();
    },
    close: () => end(true),
    drop: () => end(false),
  };
}

/** Stdout, for `export` without --out: a pipe, or a terminal (where agents' text is made safe). */
export function stdoutSink(terminal = process.stdout.isTTY === true): Sink {
  let pending: string[] = [];
  let size = 0;
  const flush = (): void => {
    if (size === 0) return;
    const text = pending.join('');
    writeAll(1, terminal ? terminalSafe(text, { multiline: true }) : text);
    pending = [];
    size = 0;
  };
  return {
    write(text) {
      pending.push(text);
      size += text.length;
      if (size >= CHUNK) flush();
    },
    close: flush,
    drop() { pending = []; size = 0; },
  };
}
