/**
 * The shapes of agents working together: claims (`take`, `release`), what is ready to start,
 * and the brief of what changed since one last looked. Plain data, like types.ts.
 */
import type { NeedLink, Note, RecordSummary, Who } from './types.js';

export interface TakeOptions {
  /** How long the claim holds, in ms (default 30 minutes, at most a day). */
  forMs?: number;
}

/** A claim taken, or extended by its holder taking the record again. */
export interface Claimed {
  record: RecordSummary;
  /** ISO time the claim lapses unless taken again. */
  until: string;
  /** The asker held it already: only the time moved. */
  extended: boolean;
  /** When the asker held it already: when its claim was to lapse before (later than `until` if shortened). */
  previous?: string;
}

/** A claim given back, or taken away by a person. */
export interface Released {
  record: RecordSummary;
  /** Whose claim ended; null when there was none to end. */
  holder: Who | null;
  /** The note left with it, if one was given. */
  note: Note | null;
}

/** A claim that ran out: the record is free again. */
export interface LapsedClaim {
  id: number;
  list: string;
  title: string;
  by: Who;
  until: string;
}

/** The records of one list the asker may start now, first to take first. */
export interface ReadyList {
  list: string;
  title: string;
  records: RecordSummary[];
  /** How many are ready in all (the page may hold fewer); with `atLeast`, counting stopped there. */
  total: number;
  /** Present (true) when more than `total` are ready: counting stops at 1,000. */
  atLeast?: true;
  /** The field that orders them, when the list has one named priority. */
  priority: string | null;
}

export interface ReadyPage {
  lists: ReadyList[];
  /** Records the asker holds a live claim on, in the same lists. */
  held: RecordSummary[];
  /** Ids of the lists the asker may only read: nothing in them is its to start. */
  readOnly: string[];
}

export type BriefKind = 'approved' | 'withdrawn' | 'added' | 'moved' | 'note' | 'lapsed' | 'taken-away' | 'released' | 'due' | 'unblocked';

/** One change in a brief: what happened to which record, by whom. */
export interface BriefItem {
  /** The history row's id. */
  id: number;
  at: string;
  kind: BriefKind;
  by: Who;
  record: number;
  title: string;
  list: string;
  /** State names: where it went (added, moved, withdrawn back), and where from. */
  to?: string;
  from?: string;
  /** A note's text. */
  text?: string;
  /** Whose claim lapsed, was taken away, or was given back. */
  holder?: Who;
  /** A withdrawal by an agent's change: what it changed (`title`, and fields by their names). */
  changed?: string[];
  /** The due date that came. */
  due?: string;
  /** `unblocked`: the last record it needed, now done (or deleted); told to its holder and owners only. */
  need?: number;
  /** The change brought the record to wait for a person's approval (an agent proposed it, or an approval was withdrawn): what the hooks call `proposed`. */
  waits?: true;
}

export interface BriefOptions {
  /** Only changes in this list (by id or title). */
  list?: string;
  /** Only changes of this record. */
  record?: number | string;
  /** Look without moving the asker's place in the history. */
  peek?: boolean;
  /** At most this many items (default 50). */
  limit?: number;
  /** Read from after this history row instead of the asker's place (which it never moves). */
  after?: number;
  /**
   * With `peek`: the latest changes first (at most `limit`), and how many of each kind wait in
   * all, for a person who reads the newest and marks them seen when they choose (`seen`).
   */
  newest?: boolean;
  /**
   * With `newest`: false leaves out counting all that wait (counts are of the items shown): a
   * look at where the history stands, which on a long unseen history would count thousands.
   */
  counted?: boolean;
}

/** How many changes of each kind wait unseen; with `atLeast`, counting stopped at `total`. */
export interface BriefCounts {
  total: number;
  atLeast?: true;
  kinds: Partial<Record<BriefKind, number>>;
}

/** An agent far behind is told how many changes of each kind there were, per list, not each one. */
export interface BriefSummary {
  /** How many changes it stands for; with `atLeast`, counting stopped there. */
  total: number;
  atLeast?: true;
  lists: { list: string; title: string; total: number; counts: Partial<Record<BriefKind, number>> }[];
}

export interface Brief {
  /** The changes; under a summary, the latest few of them. */
  items: BriefItem[];
  /** More changes wait past these: brief again for them. */
  more: boolean;
  /**
   * With `peek` or `after`: the history row read through; a look `after` it sees only what came
   * since (rows the asker is not told are passed over too).
   */
  through?: number;
  /** Present when the asker was far behind: its place moved to the latest change. */
  summary?: BriefSummary;
  /** With `newest`: how many of each kind wait, the shown ones among them. */
  counts?: BriefCounts;
}

/** `needs`: what a record needs after the change. */
export interface NeedsChanged {
  record: RecordSummary;
  /** The records it needs now, that the asker can see. */
  needs: NeedLink[];
  /** Record numbers newly needed, or no longer needed (`--remove`). */
  added: number[];
  removed: number[];
}

/** A record that waits on others, with what it waits on. */
export interface BlockedRecord {
  record: RecordSummary;
  /** The records it needs that are not done, that the asker can see. */
  waitsOn: NeedLink[];
  /** How many more it waits on that the asker cannot see. */
  hidden: number;
  /** Where its list says children first and records under it are not done: those the asker can see. */
  children?: NeedLink[];
  /** How many more records under it, not done, the asker cannot see. */
  hiddenChildren?: number;
}

/** `ready --blocked`: per list, the records that wait on others (or on their children). */
export interface BlockedPage {
  lists: { list: string; title: string; records: BlockedRecord[]; total: number; atLeast?: true }[];
}
