/**
 * How `binder` writes its answer: straight to the file descriptor, without making Node's
 * stdout stream (which loads the whole streams machinery, a few milliseconds of every call's
 * start-up). A reader that went away (`binder show … | head`) is no failure; it never loses
 * or reorders bytes when the descriptor would block.
 */
import { writeSync } from 'node:fs';

const streams = new Set<number>();

/**
 * What a write is told when its reader went away: EPIPE, or ECONNRESET where the reader's end was
 * a socket it closed with bytes unread (the stdio a harness spawning the command may give it).
 */
const READER_GONE = new Set(['EPIPE', 'ECONNRESET']);
const readerGone = (error: unknown): boolean => READER_GONE.has(String((error as NodeJS.ErrnoException | null)?.code));

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
      if (readerGone(error)) return;
      // A descriptor in non-blocking mode that is full: the stream waits for room, in order.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      streams.add(fd);
      stream().on('error', (e: NodeJS.ErrnoException) => {
        if (!readerGone(e)) throw e;
      });
      stream().write(bytes.subarray(at));
      return;
    }
  }
}

/**
 * For a person's commands, which write through Node's streams: a reader that went away
 * (`binder admin get 6 | head -1`, `binder serve | head`) ends what is written there, never the
 * process with a stack. A keeper goes on keeping the binder.
 */
export function quietWhenReaderLeaves(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!readerGone(error) && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    });
  }
}
