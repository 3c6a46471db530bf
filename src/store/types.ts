/**
 * The binder's model, as every part of Binder sees it. Plain data: no behaviour, no I/O.
 * What the store returns is always one of these shapes, so the keeper, the screen and the
 * tests agree on one vocabulary.
 */

/** Who did something. What an ask says about itself is never believed: the keeper sets this. */
export interface Who {
  /** `person:<name>` (a local person), `person:<issuer>/<subject>` (signed in) or `agent:<slug>`. */
  id: string;
  kind: 'person' | 'agent';
  name: string;
  /** A signed-in person's e-mail, as their identity provider gave it. */
  email?: string;
}

export type Access = 'read' | 'write';

export interface State {
  /** A slug of the name, unique in its list. */
  id: string;
  name: string;
  /** A gate: a record may be here, or in any later state, only once a person approved it. */
  gate: boolean;
}

export type FieldType = 'text' | 'number' | 'date' | 'choice' | 'person' | 'url' | 'labels';

export interface Field {
  /** A slug of the name, unique in its list. */
  id: string;
  name: string;
  type: FieldType;
  /** A `choice` field's choices; a `labels` field's own set (none: any label). */
  choices?: string[];
}

export type View = 'board' | 'table';

export interface List {
  /** A slug of its title, unique in the binder. */
  id: string;
  title: string;
  states: State[];
  fields: Field[];
  view: View;
  archived: boolean;
  /** Per agent id (`agent:<slug>`): its access. An agent absent here has none. */
  access: Record<string, Access>;
  created: string;
  updated: string;
  /** A parent is ready (`ready`, `take --next`) only once its children are done, as a record that needs others. */
  childrenFirst?: boolean;
}

/** A list as an asker sees it in `lists`: with counts and the asker's own access. */
export interface ListSummary {
  id: string;
  title: string;
  view: View;
  archived: boolean;
  /** Records not archived. */
  count: number;
  /** Records in a gate state or before it, not approved yet, that a person could approve. */
  waiting: number;
  /** The asker's access: `write` for a person. */
  access: Access;
}

export type AttachKind = 'message' | 'file' | 'asset' | 'branch' | 'link' | 'record';

export interface Attachment {
  /** Unique in the binder; `detach` accepts it or the ref. */
  id: number;
  kind: AttachKind;
  ref: string;
  title: string;
  at: string;
  by: Who;
}

export interface Note {
  /** Unique in the binder; `edit-note` names a note by it. */
  id: number;
  at: string;
  by: Who;
  text: string;
  edited: boolean;
}

export interface Approval {
  by: Who;
  at: string;
}

/** A claim on a record (`take`): who holds it, and when it lapses unless taken again. */
export interface Lease {
  by: Who;
  /** ISO time. Past it, the record is free again (the history says when it lapsed). */
  until: string;
}

/** A record as lists show it: no notes nor history, so a page of thousands stays cheap. */
export interface RecordSummary {
  /** The record's number, unique in the whole binder and never reused. */
  id: number;
  list: string;
  title: string;
  /** A state id of its list. */
  state: string;
  approved: Approval | null;
  /** By field id. Values are strings as typed; numbers as their text. */
  fields: Record<string, string>;
  /** Ids of people and agents. */
  owners: string[];
  /** `2026-11-04` or `2026-11-04 09:00`, or null. */
  due: string | null;
  archived: boolean;
  /** The claim on it, while one is held. */
  lease?: Lease;
  /** How many records it needs that are not done yet (`needs`); absent when none: it waits on nothing. */
  blocked?: number;
  /** How many things are attached. */
  attached: number;
  /** How many notes. */
  notes: number;
  created: string;
  updated: string;
}

/** A record after a move: `stayed` when it already stood in the state asked for, and nothing moved. */
export type Moved = RecordSummary & { stayed?: true };

/**
 * An approval withdrawn because an agent changed what was approved: the approval, what changed
 * (the title, fields by id), and the states it went from and to if it was put back before the gate.
 */
export interface Withdrawal {
  approval: Approval;
  title: boolean;
  fields: string[];
  from?: string;
  to?: string;
}

/** A record as `edit` returns it: with the approval its change withdrew, if it did. */
export interface EditedRecord extends RecordSummary {
  /** What the edit changed, of what was given (a value given as it was is no change): none, nothing was written. */
  changed: ('title' | 'due' | 'owners' | 'fields' | 'parent')[];
  withdrawn?: Withdrawal;
}

/** A record whole, as `get` returns it. */
export interface RecordFull extends Omit<RecordSummary, 'attached' | 'notes'> {
  notes: Note[];
  attached: Attachment[];
}

/** One change, as the history log keeps it. */
export interface LogRow {
  id: number;
  at: string;
  by: Who;
  /** The operation's name (`add`, `move`, …); `erased` for a row of a deleted record. */
  op: string;
  list: string | null;
  record: number | null;
  /** What changed, in the operation's own terms; null once erased. */
  change: unknown;
}

/** `show`: a list and a page of its records, with how many there are in each state. */
export interface ListPage {
  list: List;
  /** The asker's access to it. */
  access: Access;
  records: RecordSummary[];
  /** Per state id: how many records match the filter in all (not only in this page). */
  counts: Record<string, number>;
  /** Per state id: how many of this page's records were left out by the per-state limit. */
  more: Record<string, number>;
}

/** `get`: a record with a page of its notes and history (the latest ones, oldest first). */
export interface RecordView {
  /** Its `notes` are the page of notes asked for; `attached` is whole. */
  record: RecordFull;
  list: List;
  history: LogRow[];
  /** How many notes and history rows the record has in all, shown or not. */
  counts: { notes: number; history: number };
  /** The records it needs done first, that the asker can see (the store's `get` always says). */
  needs?: NeedLink[];
  /** The records that need it, that the asker can see. */
  neededBy?: NeedLink[];
  /** How many records it needs, not done yet, that the asker cannot see; absent when none. */
  hiddenNeeds?: number;
  /** The record it lies under, when the asker can see it. */
  parent?: NeedLink;
  /** The records under it that the asker can see, with their states (`done` counts them done). */
  children?: NeedLink[];
  /** For a person: the approval mark of its title and fields as given here (approve --seen MARK). */
  mark?: string;
}

/** Which of a record's notes and history rows `get` returns: the latest, `offset` of them skipped. */
export interface RecordPage {
  /** How many notes: all of them when absent. */
  notes?: number;
  /** How many history rows: the latest 200 when absent. */
  history?: number;
  /** Skip this many of the latest notes and history rows (for paging back). */
  offset?: number;
}

/** A record that another needs done first, or that needs another, as `get` names it. */
export interface NeedLink {
  id: number;
  title: string;
  list: string;
  /** Its state's id, and its name. */
  state: string;
  stateName: string;
  /** In its list's last state: what a need waits for. */
  done: boolean;
}

export interface SearchHit {
  id: number;
  list: string;
  listTitle: string;
  title: string;
  state: string;
  stateName: string;
  archived: boolean;
  /** A short piece of the matching text, plain. */
  snippet: string;
}

/** A record whose due time came, reported once. */
export interface DueRecord {
  id: number;
  list: string;
  title: string;
  due: string;
  owners: string[];
}

/** A change as the store announces it to whoever watches (the screen, the keeper's events). */
export interface Change {
  at: string;
  by: Who;
  op: string;
  list: string | null;
  record: number | null;
}
