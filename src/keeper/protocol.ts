/**
 * The folder protocol's constants and line shapes, shared by the keeper and every asking side.
 * Light on purpose: the agent's command imports it on every call. See docs/protocol.md.
 */

export const ASKS_FILE = 'asks.jsonl';
export const ANSWERS_FILE = 'answers.jsonl';
/** The keeper's heartbeat in each folder it keeps (clients that ignore it still work). */
export const HEARTBEAT_FILE = 'keeper.json';
/** The folder an agent works from, found from the working directory up. */
export const FOLDER_NAME = '.binder';

/** How long an asking side waits for its answer. */
export const WAIT_MS = 20_000;
/** An ask older than this is answered "too late" and never done: its asker gave up long ago. */
export const TOO_LATE_MS = 60_000;
/** The longest ask line a keeper reads; a longer one is dropped with a line on its stderr. */
export const LINE_MAX = 64 * 1024;
/** How often a keeper rewrites its heartbeat. */
export const HEARTBEAT_MS = 5_000;
/** A heartbeat older than this many beats means nobody keeps the folder now. */
export const HEARTBEAT_STALE_BEATS = 3;

/** One line of asks.jsonl. */
export interface AskLine {
  id: string;
  /** ISO time the ask was made. */
  at: string;
  op: string;
  args: Record<string, unknown>;
  /** `json`: the answer carries `data` too. */
  want?: 'json';
  /**
   * ms the asker waits beyond WAIT_MS: a keeper may hold the ask open this long (a `wait`).
   * Without it, a keeper answers within the usual window.
   */
  wait?: number;
}

/** One line of answers.jsonl. */
export interface AnswerLine {
  ask: string;
  at: string;
  ok: boolean;
  text: string;
  data?: unknown;
}

/** The heartbeat file's content. */
export interface Heartbeat {
  keeper: 'binder';
  version: string;
  /** ISO time of the last beat. */
  beat: string;
  /** ms between beats. */
  every: number;
  /** The keeper closed cleanly: nobody keeps the folder until one starts again. */
  stopped: boolean;
}

/** What a keeper answers: the text an agent reads, and the data behind it. */
export interface Answer {
  ok: boolean;
  text: string;
  data?: unknown;
}

/** Is this heartbeat saying that nobody keeps the folder now? */
export function heartbeatSaysNobody(beat: Partial<Heartbeat> | null, now: number): boolean {
  if (!beat || typeof beat !== 'object') return false;
  if (beat.stopped === true) return true;
  const at = typeof beat.beat === 'string' ? Date.parse(beat.beat) : NaN;
  const every = typeof beat.every === 'number' && beat.every > 0 ? beat.every : HEARTBEAT_MS;
  if (Number.isNaN(at)) return false;
  return now - at > every * HEARTBEAT_STALE_BEATS;
}
