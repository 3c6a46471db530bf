/**
 * An agent's asks file, read from where the keepers of the store stand: only what was appended,
 * complete lines only, at most READ_MAX per pass. Past the answer window the file is renamed
 * aside, read to its end (an agent may have appended just then) and removed. Nothing here may
 * lose an ask being appended, or take bytes without the compare-and-set the pump does on them.
 */
import { ASKS_FILE, LINE_MAX, TOO_LATE_MS } from './protocol.js';
import { closeFile, fileKey, lookAt, openToRead, readAt, removeIfSame, renameIn } from './folder-files.js';
import { READ_MAX, cutLines, longAsk, parseAsk, type Ask } from './folder-lines.js';
import { markOf, type MarkRow } from './folder-answers.js';
import type { Store } from '../store/index.js';
import type { OpenFolder } from './folder-bind.js';

/** The asks file, renamed aside by compaction and read to its end before it is removed. */
export const OLD_ASKS_FILE = `${ASKS_FILE}.old`;
/** The renamed asks file is removed once nothing came to it for this long… */
const DRAIN_QUIET_MS = 1000;
/** …or this long, even with a partial line left in it that never ended. */
const DRAIN_GIVE_UP_MS = 10_000;
/** A renamed asks file this old (by its mtime) was left by a keeper that stopped: read it again. */
const ORPHAN_AFTER_MS = 10_000;

/** Where a file is read from: its identity, an offset, and whether inside an over-long line. */
export interface Place { ino: string; offset: number; skipping: number }
/** The last bytes read before a place, to know the file was rewritten under it (same file, new bytes). */
export interface Tail { ino: string; offset: number; bytes: Buffer }
const TAIL_MAX = 64;
export const placeOf = (m: MarkRow): Place => ({ ino: m.asks_ino, offset: m.asks_offset, skipping: m.asks_skipping });
export const samePlace = (a: Place, b: Place): boolean => a.ino === b.ino && a.offset === b.offset && a.skipping === b.skipping;

/** The renamed asks file being read to its end. `quiet`: adopted, so replays in it are expected. */
export interface Drain { key: string; offset: number; skipping: number; size: number; quietSince: number; quiet: boolean }

export interface Appended {
  next: Place;
  /** The bytes just before `next`, to check at the next read. */
  tail: Tail;
  asks: Ask[];
  /** More was there than one pass reads. */
  more: boolean;
}

const LINE_END = Buffer.from('\n');

/**
 * The bytes that must stand just before `from` unless the file was rewritten under it (truncated,
 * then written past where it was read): the tail this keeper last read there, else a line's end.
 */
function expectedBefore(from: Place, tail: Tail | null): Buffer | null {
  if (from.offset === 0) return null;
  if (tail && tail.ino === from.ino && tail.offset === from.offset) return tail.bytes;
  return from.skipping ? null : LINE_END;
}

/** What was appended to `name` since `from`, or null when nothing complete was. Skipped lines go to `skip`. */
/**
 * The most asks of one folder a pass takes: an agent that writes thousands at once has them done
 * a share at a time, each pass after every other folder's asks, not before theirs for seconds.
 */
export const ASKS_A_PASS = 128;

export function readSince(folder: OpenFolder, name: string, from: Place, skip: (why: string, count: number) => void, tail: Tail | null = null): Appended | null {
  const file = openToRead(folder, name);
  if (!file) return null;
  try {
    let { offset, skipping } = from;
    const size = file.stat.size;
    const before = file.key === from.ino && size > offset ? expectedBefore(from, tail) : null;
    // The bytes looked at before the place count in what one pass reads.
    const budget = READ_MAX - (before?.length ?? 0);
    if (file.key !== from.ino || size < offset || (before && !readAt(file, offset - before.length, before.length).equals(before))) {
      offset = 0;
      skipping = 0;
    }
    if (size <= offset) return null;
    const bytes = readAt(file, offset, Math.min(size - offset, budget));
    const cut = cutLines(bytes, skipping === 1);
    if (cut.long) skip(`longer than ${LINE_MAX} bytes`, cut.long);
    const asks: Ask[] = [];
    let { used, skipping: within } = cut;
    for (const [i, line] of cut.lines.entries()) {
      // An over-long line is refused, not dropped in silence: its asker would wait for nobody.
      const ask = Buffer.isBuffer(line) ? parseAsk(line) : longAsk(line);
      if (typeof ask === 'string') skip(ask, 1);
      else if (ask) asks.push(ask);
      // A folder's share of a pass: the rest is read by the next, after every other folder's.
      if (asks.length === ASKS_A_PASS && Buffer.isBuffer(line) && i < cut.lines.length - 1) {
        used = line.byteOffset - bytes.byteOffset + line.length + 1;
        within = false;
        break;
      }
    }
    if (used === 0) return null;
    const next = { ino: file.key, offset: offset + used, skipping: within ? 1 : 0 };
    const end = { ino: next.ino, offset: next.offset, bytes: Buffer.from(bytes.subarray(Math.max(0, used - TAIL_MAX), used)) };
    return { next, tail: end, asks, more: size - offset > budget || used < cut.used };
  } finally {
    closeFile(file);
  }
}

/** Since when this keeper has seen the asks file `key` in a folder. */
export interface AsksSeen { key: string; since: number }

/**
 * Renames asks.jsonl aside once all of it was read and either its newest ask or the file itself
 * (as this keeper has known it) is past the window. Returns the drain to read it to its end.
 */
export async function setAsksAside(store: Store, folder: OpenFolder, seen: AsksSeen, now: number): Promise<Drain | null> {
  const file = lookAt(folder, ASKS_FILE);
  if (!file?.isFile()) return null;
  if (fileKey(file) !== seen.key) Object.assign(seen, { key: fileKey(file), since: now });
  const ready = (at: MarkRow): boolean => {
    if (at.asks_skipping || (now - at.last_ask < TOO_LATE_MS && now - seen.since < TOO_LATE_MS)) return false;
    const still = lookAt(folder, ASKS_FILE);
    return !!still && still.isFile() && still.size > 0 && fileKey(still) === at.asks_ino && still.size === at.asks_offset;
  };
  if (!ready(await markOf(store.ledger, folder.key))) return null;
  return store.transaction(async (tx) => {
    const at = await markOf(tx.ledger, folder.key);
    if (!ready(at)) return null;
    renameIn(folder, ASKS_FILE, OLD_ASKS_FILE);
    await tx.ledger.setAsks(folder.key, '', 0, 0, at.last_ask, at.compacted);
    return { key: at.asks_ino, offset: at.asks_offset, skipping: 0, size: at.asks_offset, quietSince: now, quiet: false };
  }, { retry: false });
}

/**
 * The renamed asks file, at each tidying: adopted (read again from 0) when a keeper that stopped
 * left it, removed once nothing more comes. Returns the drain to keep, or null.
 */
export function tendOldAsks(folder: OpenFolder, drain: Drain | null, fresh: boolean, now: number): Drain | null {
  const seen = lookAt(folder, OLD_ASKS_FILE);
  if (!drain) {
    // Its asks were taken before or are read now: the ledger of ids keeps them from being done twice.
    if (seen?.isFile() && (fresh || Date.now() - seen.mtimeMs > ORPHAN_AFTER_MS)) {
      return { key: fileKey(seen), offset: 0, skipping: 0, size: -1, quietSince: now, quiet: true };
    }
    return null;
  }
  if (!seen?.isFile() || fileKey(seen) !== drain.key) return null;
  if (seen.size !== drain.size) return { ...drain, size: seen.size, quietSince: now };
  const quiet = now - drain.quietSince;
  if ((seen.size === drain.offset && quiet >= DRAIN_QUIET_MS) || quiet >= DRAIN_GIVE_UP_MS) {
    removeIfSame(folder, OLD_ASKS_FILE, drain.key);
    return null;
  }
  return drain;
}
