/**
 * What the folder pump is made of and says: its dependencies, its face, the sentences it answers
 * with of its own, and what it keeps of each folder between passes. Types and texts only.
 */
import type { FSWatcher, watch as fsWatch } from 'node:fs';
import type { Store, Who } from '../store/index.js';
import type { FolderStatus, SideConfig } from './keeper-types.js';
import { LINE_MAX, type Answer } from './protocol.js';
import type { Ask } from './folder-lines.js';
import type { AsksSeen, Drain, Place, Tail } from './folder-asks.js';
import type { OpenFolder } from './folder-bind.js';
import type { OpenFile } from './folder-files.js';

export interface PumpDeps {
  /** The store, whose ledger (asks, folder marks) the pump keeps. */
  store: Store;
  now(): number;
  /** The folders to keep: asked again at each pass (after `refresh`). */
  sides(): SideConfig[];
  /** Reads again what `sides` says (the folders registered in the store), at the start of each pass. */
  refresh?(): Promise<void>;
  /**
   * A registered folder (`registered`, with no `bound`) bound by this keeper when first seen:
   * records `key` as its binding unless one is recorded already, and returns the one that holds.
   */
  bind?(dir: string, key: string): Promise<string>;
  /** Does the ask inside the pump's transaction (`inside`) and says the answer; never rejects. */
  perform(op: string, args: unknown, who: Who, want: 'json' | undefined, inside: Store): Promise<Answer>;
  /** One diagnostic line. */
  log(line: string): void;
  /**
   * Test hook: called once asks were done and committed, before their answers are appended
   * (a process that exits here is a keeper killed between doing and answering).
   */
  crashAfterCommit?: () => void;
  /** Test hook: called once answers were appended, before that is committed. */
  crashAfterAppend?: () => void;
  /** The safety poll's period in ms (about a second unless a test says otherwise). */
  pollMs?: number;
  /** fs.watch, replaceable by a test to play a system where it fails. */
  watch?: typeof fsWatch;
  /**
   * Asks answered later (a wait), inside the pump's transaction (`dir`: the folder's ledger key,
   * its binding): an answer to give now, `held`
   * to take the ask with no answer yet (given later through `answerHeld`), or undefined for an
   * ask done as any other.
   */
  hold?(dir: string, ask: Ask, who: Who, now: number, inside: Store): Promise<Answer | 'held' | undefined>;
}

export interface FolderPump {
  /** One pass over every folder (one at a time: a pass asked for meanwhile runs after it): resolves to the asks answered. */
  pump(): Promise<number>;
  /** Watches each folder, polls about every second, beats every HEARTBEAT_MS. */
  start(): Promise<void>;
  /** Stops everything and says `stopped` in each folder's heartbeat. */
  close(): Promise<void>;
  folders(): FolderStatus[];
  /** The ledger keys (bindings) of the folders kept now: what held waits are filed under. */
  keys(): string[];
  onAnswer(fn: (side: SideConfig, op: string, answer: Answer) => void): () => void;
  /**
   * Answers an ask taken with no answer yet (`hold`), once: inside one transaction, if it is
   * still unanswered, `decide`; an answer it returns is recorded, then appended at once.
   */
  answerHeld(dir: string, id: string, op: string, want: 'json' | undefined, decide: (tx: Store) => Promise<Answer | null>): Promise<boolean>;
}

export const TOO_LATE_TEXT = 'The keeper came to this ask too late, after its asker had stopped waiting (or more than a minute after it was made), so it was not done; ask again.';
/** The refusal of an ask line longer than a keeper reads (`more`: its end was not there yet). */
export const tooLongText = ({ bytes, more }: { bytes: number; more: boolean }): string =>
  `Too long: this ask line is ${more ? `over ${LINE_MAX} bytes, the most` : `${bytes} bytes, over the ${LINE_MAX} bytes`} a keeper reads; it was not done. Make it shorter: a long text can go in several notes.`;
/** The refusal of an ask dated ahead of the keeper's clock by `ms`. */
export const aheadText = (ms: number): string =>
  `Clock ahead: this ask is dated ${Math.round(ms / 1000)} s ahead of the keeper's clock, so the asker's clock is ahead; it was not done. Set the clock right, then ask again.`;
export const NO_TIME_TEXT = 'Not understood: the ask has no time (at).';
export const NO_OP_TEXT = 'Not understood: the ask names no operation (op).';
export const FAILED_TEXT = 'The keeper failed on this ask and kept nothing of it; tell a person.';
export const ASKED_BEFORE_TEXT = 'Asked before: an ask with this id was taken from this folder before, and its answer is no longer kept; it was not done again. binder get or binder show tells what is there now.';
export const DISK_FULL_TEXT = 'The disk that holds the binder is full: nothing was changed; ask again once a person has made room.';

/** The store could not write: its disk (or its quota) is full. */
export const diskFull = (error: unknown): boolean =>
  /SQLITE_FULL|ENOSPC|EDQUOT/.test(String((error as { code?: unknown })?.code ?? '')) || /disk is full/.test(String((error as Error)?.message ?? ''));

export interface Folder {
  side: SideConfig;
  status: FolderStatus;
  /** The directory it is bound to (`dev:ino:birth`), and its key in the ledger; '' until it is bound. */
  key: string;
  /** Its directory, opened for this pass (closed at its end). */
  open: OpenFolder | null;
  /** Its answers file, opened for appending before any ask of this pass was taken. */
  answers: OpenFile | null;
  /** The folder of another agent that is the same directory (reached by another path): then it is not read. */
  twinOf: Folder | null;
  /** The problem each part of the work has with this folder now (read, answers, heartbeat, tidy). */
  problems: Map<string, string>;
  /** Lines skipped this pass, by why: one log line each at the end of the pass. */
  skipped: Map<string, number>;
  watcher: FSWatcher | null;
  watchAfter: number;
  drain: Drain | null;
  asksSeen: AsksSeen;
  /** The bytes this keeper last read before the folder's mark in asks.jsonl. */
  tail: Tail | null;
  /** Asks refused while the store's disk was full, by id: their answer lines, recorded once there is room. */
  refusedFull: Map<string, string>;
  /** Its answers file was looked at for answers given unrecorded (by then `refusedFull`). */
  scanned: boolean;
  /** Not tidied yet by this keeper. */
  fresh: boolean;
}
export interface Reading { folder: Folder; old: boolean; seen: Place; next: Place; tail: Tail; asks: Ask[]; more: boolean }
/** An ask taken now, with its answer and its line of answers.jsonl as the ledger recorded it. */
export interface Taken { folder: Folder; id: string; op: string; answer: Answer; line: string }
