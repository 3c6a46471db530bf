/**
 * How `binder` writes its answer: straight to the file descriptor, without making Node's
 * stdout stream (which loads the whole streams machinery, a few milliseconds of every call's
 * start-up). A reader that went away (`binder show … | head`) is no failure; it never loses
 * or reorders bytes when the descriptor would block.
 */
import { fstatSync, writeSync } from 'node:fs';

const streams = new Set<number>();

/** Writes all of `text` to `fd` (1 or 2), in order. */
export function writeAll(fd: 1 | 2, text: string): void {
  const stream = (): NodeJS.WriteStream => (fd === 1 ? process.stdout : process.stderr);
  if (streams.has(fd)) {
    stream().write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return;
      // A descriptor in non-blocking mode that is full: the stream waits for room, in order.
      if (code !== 'EAGAIN') throw error;
      streams.add(fd);
      stream().on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'EPIPE') throw e;
      });
      stream().write(bytes.subarray(at));
      return;
    }
  }
}

/**
 * Whether `fd` may be a terminal: every terminal is a character device. It says yes for
 * /dev/null too, where making text safe costs nothing, and never no for a terminal.
 */
export function mayBeTerminal(fd: 1 | 2): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return true;
  }
}
