/**
 * The shapes of agents working together: claims (`take`, `release`), what is ready to start,
 * and the brief of what changed since one last looked. Plain data, like types.ts.
 */
import type { Note, RecordSummary, Who } from './types.js';

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
}

export type BriefKind = 'approved' | 'withdrawn' | 'added' | 'moved' | 'note' | 'lapsed' | 'taken-away' | 'due';

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
  /** Whose claim lapsed or was taken away. */
  holder?: Who;
  /** The due date that came. */
  due?: string;
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
}

export interface Brief {
  items: BriefItem[];
  /** More changes wait past these: brief again for them. */
  more: boolean;
  /**
   * With `peek` or `after`: the history row read through; a look `after` it sees only what came
   * since (rows the asker is not told are passed over too).
   */
  through?: number;
}
