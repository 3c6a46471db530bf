/**
 * The shapes of a binder moving out and in: what an export holds (lists and records whole, with
 * their history), and what an import brings (records read from a file of any format, each with
 * the line it came from, not yet checked). Plain data, like types.ts.
 */
import type { List, Who } from './types.js';

/** One history row as it moves: who, when, what; its place is its order. */
export interface MovingRow {
  at: string;
  by: Who;
  op: string;
  change: unknown;
}

/** A list whole: its shape, its agents' access, its own history (rows of no record). */
export interface ListOut extends List {
  position: number;
  history: MovingRow[];
}

/** A record whole: all of it, its needs by number, its history. */
export interface RecordOut {
  id: number;
  list: string;
  title: string;
  state: string;
  approved: { by: Who; at: string } | null;
  fields: Record<string, string>;
  owners: string[];
  due: string | null;
  /** Its due time was already told (a `due` row): an import does not tell it again. */
  dueTold: boolean;
  archived: boolean;
  /** The claim held on it when exported; an import never brings a claim back. */
  lease?: { by: Who; until: string };
  created: string;
  updated: string;
  notes: { id: number; at: string; by: Who; text: string; edited: boolean }[];
  attachments: { id: number; kind: string; ref: string; title: string; at: string; by: Who }[];
  needs: number[];
  /** The record it lies under, where it lies under one. */
  parent?: number;
  history: MovingRow[];
}

/** What an export hands its writer: how much is coming, the lists, then records in number order. */
export type Outgoing =
  | { kind: 'begin'; lists: number; records: number }
  | { kind: 'list'; list: ListOut }
  | { kind: 'record'; record: RecordOut };

export type ImportFormat = 'binder' | 'csv' | 'taskwarrior' | 'beads' | 'github';

/** A record read from a file, before any rule was checked; `line` is where it starts in the file. */
export interface IncomingRecord {
  line: number;
  /** Its name in the file (a number, a uuid, bd-12): what its needs and links refer to. */
  key: string;
  /** The list it goes to: an incoming list's key, or (without one) the list imported into. */
  list?: string;
  title: string;
  /** A state by id or name; or where in the list's states it goes (foreign formats). */
  state?: string;
  place?: 'first' | 'doing' | 'last';
  /** Binder's own export only: the approval it had. Foreign formats are approved only on request. */
  approved?: { by: Who; at: string } | null;
  /** Field values by field name or id. Names the list does not have are left out, and said. */
  fields: Record<string, string>;
  owners: string[];
  due?: string | null;
  dueTold?: boolean;
  archived?: boolean;
  created?: string;
  updated?: string;
  notes: { line?: number; id?: number; at?: string; by?: Who; text: string; edited?: boolean }[];
  attachments: { id?: number; kind: string; ref: string; title?: string; at?: string; by?: Who; record?: string }[];
  /** Keys of records of the same file that it needs. */
  needs: string[];
  /** The key of the record of the same file it lies under. */
  parent?: string;
  /** Binder's own export only: its history, kept whole. */
  history?: MovingRow[];
  /** Where a foreign record came from, for its history. */
  origin?: { format: ImportFormat; ref: string };
}

/** A list read from Binder's own export. */
export interface IncomingList extends Omit<ListOut, 'position'> {
  line: number;
  position?: number;
}

/** Everything a file brings. */
export interface ImportPlan {
  format: ImportFormat;
  lists: IncomingList[];
  records: IncomingRecord[];
  /** Things of the file that have no place in a binder, said after the import (`tags (no field Tags)`). */
  leftOut: string[];
}

export interface ImportOptions {
  /** The list foreign records go to (by id or title). */
  into?: string;
  /** The person approves every record brought in (foreign formats and CSV). */
  approved?: boolean;
  /** The file's name, for the history. */
  file?: string;
  /** Told after each record is written: for a progress bar. */
  progress?: (done: number, total: number) => void;
}

export interface Imported {
  lists: { from: string; id: string; title: string }[];
  records: number;
  /** Records whose number was taken here, and got another. */
  renumbered: number;
  needs: number;
  /** Needs on records not in the file, left out. */
  needsLeftOut: number;
  /** Records put under another of the file. */
  parents: number;
  /** The first and last record numbers given. */
  first: number | null;
  last: number | null;
  into: string | null;
}
