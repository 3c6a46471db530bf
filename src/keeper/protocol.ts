/**
 * The folder protocol's constants and line shapes, shared by the keeper and every asking side.
 * Light on purpose: the agent's command imports it on every call. See docs/protocol.md.
 */
import type { Sentence } from '../store/index.js';
import type { StepAt } from './answer-steps.js';

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
/**
 * A keeper starts an ask no later than this before its `until`: what it starts, it has answered
 * by the time the asker stops waiting, so an asker that got no answer may say nothing was done.
 */
export const START_MARGIN_MS = 1_000;
/**
 * An ask dated further than this ahead of the keeper's clock is refused: its asker's clock is
 * ahead, and every rule of time (the 60 s, `until`) would be read wrong for it.
 */
export const AHEAD_MAX_MS = 5_000;
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
  /**
   * ISO time the asker stops waiting for its answer. A keeper never starts the ask after it (less
   * START_MARGIN_MS): it answers "too late" instead. Without it, TOO_LATE_MS after `at`.
   */
  until?: string;
}

/** One line of answers.jsonl. */
export interface AnswerLine {
  ask: string;
  at: string;
  ok: boolean;
  text: string;
  data?: unknown;
  /**
   * The next steps the text names, when it names any, each with where its command line stands in
   * `text` (answer-steps.ts): for a face that writes them its own way (MCP).
   */
  steps?: StepAt[];
  /** The text with its next steps as data, written by a keeper whose text was not the sentence written out (rare). */
  sentence?: Sentence;
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
  /** The text with its next steps as data, when it names any: each face writes them in its own terms. */
  sentence?: Sentence;
  /** Why it was refused, for a face that says it with a status (HTTP); never written to a folder. */
  refusal?: Refusal;
}

/**
 * What a refusal is about: no such operation; a person's operation asked by an agent; arguments
 * not understood; something the asker may not see or change; the binder's rules (a gate, a
 * claim); the keeper too busy to hold another wait; the keeper failing (a bug); the keeper
 * unable to do it now (stopping, a full disk) — asked again later, it may be done.
 */
export type Refusal = 'unknown-op' | 'person-only' | 'not-understood' | 'access' | 'rule' | 'busy' | 'failed' | 'stopped';

/** What an asker is told when the binder's database (a server store) cannot be reached: nothing was done. */
export const UNAVAILABLE_TEXT = 'The binder\'s database cannot be reached now: nothing was done; ask again in a moment.';

/** Is this heartbeat saying that nobody keeps the folder now? */
export function heartbeatSaysNobody(beat: Partial<Heartbeat> | null, now: number): boolean {
  if (!beat || typeof beat !== 'object') return false;
  if (beat.stopped === true) return true;
  const at = typeof beat.beat === 'string' ? Date.parse(beat.beat) : NaN;
  const every = typeof beat.every === 'number' && beat.every > 0 ? beat.every : HEARTBEAT_MS;
  if (Number.isNaN(at)) return false;
  return now - at > every * HEARTBEAT_STALE_BEATS;
}

/**
 * The last moment a keeper may start an ask made at `at` (ms) whose asker waits until `until`
 * (ms, or null when its line does not say): never later than TOO_LATE_MS after it was made, and
 * a margin before its asker stops waiting — a quarter of its whole wait when that is shorter.
 */
export function startBy(at: number, until: number | null): number {
  const late = at + TOO_LATE_MS;
  if (until === null) return late;
  return Math.min(late, until - Math.min(START_MARGIN_MS, Math.max(0, Math.floor((until - at) / 4))));
}

/** How an ask ended, through a folder or over HTTP: what every asking side shows. */
export type AskOutcome =
  /** The keeper answered: done (`ok`) or refused, with its sentence. */
  | { outcome: 'answered'; ok: boolean; text: string; data?: unknown; sentence?: Sentence }
  /** Nobody keeps the folder: the heartbeat said so before asking, or none beat while the ask waited. Nothing was changed. */
  | { outcome: 'nobody'; text: string }
  /** No answer came in time while a keeper kept the folder: it may have done the ask (`id`), or not. */
  | { outcome: 'unknown'; id: string; text: string }
  /** There is no folder to ask through, or the ask cannot be written safely into it. */
  | { outcome: 'no-folder'; text: string }
  /** The ask is longer than a keeper reads: it was not sent. */
  | { outcome: 'too-long'; text: string };
