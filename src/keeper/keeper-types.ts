/**
 * The keeper as a library, as the screen, `binder serve` and an embedding application use it.
 * `keeper.ts` builds it; this file only says its shape, so faces can be written against it.
 */
import type { Change, DueRecord, Store, Who } from '../store/index.js';
import type { Answer } from './protocol.js';
import type { DirectAnswer, DirectAskOptions } from './direct-asks.js';

/** An agent's folder the keeper reads, and who asks through it. */
export interface SideConfig {
  /** Absolute path of the folder. */
  dir: string;
  /** `{id: 'agent:<slug>', kind: 'agent', name}`. */
  who: Who;
  /** Registered by a person (in the store), or given for this run only. */
  registered?: boolean;
  /** The directory a person registered (`dev:ino:birth`); none for a folder given for this run, bound when first seen. */
  bound?: string | null;
}

/** How a folder is being kept, for the screen's status line and `binder serve`. */
export interface FolderStatus {
  dir: string;
  name: string;
  agent: string;
  /** ms of the last ask read from it, or null if none since the keeper started. */
  lastAsk: number | null;
  /** Asks answered from it since the keeper started. */
  answered: number;
  /** Why the folder cannot be read now (a link, a FIFO…), or null. */
  problem: string | null;
}

export interface KeeperOptions {
  /** An open store, or the store folder to open. */
  store: Store | string;
  /** The folders to read, fixed or asked for at each pass (registered sides are added). */
  sides?: SideConfig[] | (() => SideConfig[]);
  now?: () => number;
  /** Where the keeper's diagnostics go (one line each); stderr by default. */
  log?: (line: string) => void;
  /** How many `wait` asks it holds open at once (64); past it, a wait is answered "busy" at once. */
  waits?: number;
  /** How many of them one agent may have (4), through its folder and over HTTP together. */
  waitsPerAgent?: number;
  /** A webhook delivery's longest try, in ms (10 s). */
  hookTimeoutMs?: number;
}

export interface ActOptions {
  /** The language of the answer's refusal: 'en' (the default) or 'fr'. */
  lang?: 'en' | 'fr';
}

export interface Keeper {
  readonly store: Store;
  /**
   * A person's (or an embedding application's) operation, as `who`. Always with data. A refusal
   * reads in `options.lang` (English by default): a French screen passes `{ lang: 'fr' }`.
   */
  act(op: string, args: unknown, who: Who, options?: ActOptions): Promise<Answer>;
  /**
   * An agent's ask that comes through no folder (HTTP), as `who` — whom the caller checked (a
   * token), never whom the ask says. With `options.key` it is done exactly once; a wait is held
   * until something changes. Resolves with the answer, with data.
   */
  ask(who: Who, op: string, args: unknown, options?: DirectAskOptions): Promise<DirectAnswer>;
  /** Called after changes by this keeper or, while anyone listens, by another process. */
  onNews(listener: () => void): () => void;
  /** One pass over every folder: read what was asked, do it, answer. Resolves to the asks answered. */
  pump(): Promise<number>;
  /** Keep the folders from now on: file events, a safety poll, heartbeats. Resolves after the first pass. */
  start(): Promise<void>;
  /** Records whose due time came, each once: tell their owners. */
  due(): Promise<DueRecord[]>;
  /** Every change, by anyone through this keeper (asks and acts). */
  onChange(listener: (change: Change) => void): () => void;
  /** Every ask answered: for a log line or a counter. */
  onAnswer(listener: (side: SideConfig, op: string, answer: Answer) => void): () => void;
  /** As of the last pass. */
  folders(): FolderStatus[];
  /** Stops watching, says "stopped" in each heartbeat, closes the store if it opened it. */
  close(): Promise<void>;
}
