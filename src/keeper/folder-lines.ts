/**
 * Lines of an agent's folder, as bytes: cut into complete lines, an ask line judged, the ask an
 * answer line answers. Pure but for `eachLine`'s bounded reads. Nothing here may let a key of a
 * line reach a prototype, or hold an unbounded line in memory.
 */
import { LINE_MAX } from './protocol.js';
import { readAt, type OpenFile } from './folder-files.js';

/** Bytes read from one file per pass: a longer backlog is taken over several passes. */
export const READ_MAX = 1024 * 1024;
/**
 * The most of an answers file read at once (its last bytes when compacting it, and past the mark
 * when looking for what a stopped keeper appended): more than the keeper's answers of a window,
 * and a bound on what an agent that swells its own file (a sparse file of terabytes) makes the
 * keeper read while every other agent waits.
 */
export const ANSWERS_READ_MAX = 32 * 1024 * 1024;
/** While scanning answers, a line longer than this is not an answer of ours. */
const ANSWER_SCAN_LINE_MAX = 16 * 1024 * 1024;

/**
 * One ask as read: `op` null when it names none, `at` null when it has no usable time, `wait`
 * null when it does not say how much longer than the usual window its asker waits, `until` null
 * when it does not say when its asker stops waiting.
 */
export interface Ask {
  id: string; op: string | null; args: unknown; at: number | null; want: 'json' | undefined;
  wait?: number | null; until?: number | null;
  /** A line over LINE_MAX, read no further than its id: its length (at least, when `more`). */
  tooLong?: { bytes: number; more: boolean };
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A key of a parsed line, only if the line itself has it: nothing reaches a prototype. */
const own = (o: object, key: string): unknown => (Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A line's `wait`: a whole number of ms, at most a day; anything else is as if unsaid. */
const waitOf = (wait: unknown): number | null =>
  (typeof wait === 'number' && Number.isSafeInteger(wait) && wait >= 0 && wait <= 86_400_000 ? wait : null);

/** One ask line, a reason it was skipped, or null for a blank line. */
export function parseAsk(line: Buffer): Ask | string | null {
  let text: string;
  try {
    text = utf8.decode(line);
  } catch {
    return 'not UTF-8 text';
  }
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!isObject(value)) return 'not a JSON object';
  const id = own(value, 'id');
  if (typeof id !== 'string' || id.length < 1 || id.length > 128) return 'no usable id (a string of 1 to 128 characters): it cannot be answered';
  const op = own(value, 'op');
  const args = own(value, 'args');
  const at = own(value, 'at');
  const time = typeof at === 'string' ? Date.parse(at) : NaN;
  const until = own(value, 'until');
  const untilTime = typeof until === 'string' ? Date.parse(until) : NaN;
  return {
    id,
    op: typeof op === 'string' && op !== '' ? op : null,
    args: isObject(args) ? args : {},
    at: Number.isNaN(time) ? null : time,
    want: own(value, 'want') === 'json' ? 'json' : undefined,
    wait: waitOf(own(value, 'wait')),
    until: Number.isNaN(untilTime) ? null : untilTime,
  };
}

/** The start of an over-long line, kept to read its id from: `bytes` long (at least, when `more`). */
export interface LongHead { head: Buffer; bytes: number; more: boolean }
/** How much of an over-long line is kept to read its id from. */
const HEAD_MAX = 512;

/**
 * Cuts read bytes into complete lines. Returns the lines in order (of an over-long one, its
 * start alone: one that began before these bytes was met already), how many bytes were used (a
 * partial last line is left for later), whether the next read starts inside an over-long line,
 * and how many over-long lines were met.
 */
export function cutLines(bytes: Buffer, skipping: boolean): { lines: (Buffer | LongHead)[]; used: number; skipping: boolean; long: number } {
  const lines: (Buffer | LongHead)[] = [];
  let long = 0;
  const head = (at: number, end: number, more: boolean): LongHead =>
    ({ head: bytes.subarray(at, Math.min(end, at + HEAD_MAX)), bytes: end - at, more });
  let at = 0;
  if (skipping) {
    const end = bytes.indexOf(10);
    if (end === -1) return { lines, used: bytes.length, skipping: true, long };
    at = end + 1;
  }
  while (at < bytes.length) {
    const end = bytes.indexOf(10, at);
    if (end === -1) {
      if (bytes.length - at > LINE_MAX) {
        lines.push(head(at, bytes.length, true));
        return { lines, used: bytes.length, skipping: true, long: long + 1 };
      }
      break;
    }
    if (end - at > LINE_MAX) {
      lines.push(head(at, end, false));
      long++;
    } else lines.push(bytes.subarray(at, end));
    at = end + 1;
  }
  return { lines, used: at, skipping: false, long };
}

/** binder writes an ask's id first and its time second: `{"id":"…","at":"…"`. */
const LONG_START = /^\{"id":("(?:[^"\\\u0000-\u001f]|\\.){1,700}")(?:,"at":"([^"\\]{1,40})")?/;

/** The ask an over-long line can still be answered as, from its start alone; null when its id cannot be read there. */
export function longAsk(long: LongHead): Ask | null {
  let text: string;
  try {
    text = utf8.decode(long.head.subarray(0, long.head.lastIndexOf(0x22) + 1));
  } catch {
    return null;
  }
  const found = LONG_START.exec(text);
  if (!found) return null;
  let id: unknown;
  try {
    id = JSON.parse(found[1]!);
  } catch {
    return null;
  }
  if (typeof id !== 'string' || id.length < 1 || id.length > 128) return null;
  const time = found[2] ? Date.parse(found[2]) : NaN;
  return { id, op: null, args: {}, at: Number.isNaN(time) ? null : time, want: undefined, tooLong: { bytes: long.bytes, more: long.more } };
}

/** The `ask` of one answer line, or null when it is not one. */
export function answerOf(line: Buffer): string | null {
  try {
    const value: unknown = JSON.parse(line.toString('utf8'));
    const ask = isObject(value) ? own(value, 'ask') : undefined;
    return typeof ask === 'string' ? ask : null;
  } catch {
    return null;
  }
}

/** The time of one of our answer lines (they begin `{"ask":…,"at":…`), or null. */
const ANSWER_START = /^\{"ask":"(?:[^"\\]|\\.)*","at":"([^"\\]{1,40})"/;
export function answerTime(line: Buffer): number | null {
  const found = ANSWER_START.exec(line.subarray(0, 1024).toString('utf8'));
  const time = found?.[1] ? Date.parse(found[1]) : NaN;
  return Number.isNaN(time) ? null : time;
}

/** Calls `each` with every complete line of `file` between `from` and `to`, read in bounded chunks. */
export function eachLine(file: OpenFile, from: number, to: number, each: (line: Buffer) => void): void {
  let carry = Buffer.alloc(0);
  let skipping = false;
  for (let at = from; at < to; ) {
    const chunk = readAt(file, at, Math.min(READ_MAX, to - at));
    if (chunk.length === 0) break;
    at += chunk.length;
    const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
      if (!skipping) each(bytes.subarray(start, end));
      skipping = false;
      start = end + 1;
    }
    carry = Buffer.from(bytes.subarray(start));
    if (carry.length > ANSWER_SCAN_LINE_MAX) {
      carry = Buffer.alloc(0);
      skipping = true;
    }
  }
}
