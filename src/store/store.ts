/**
 * The store's face: every operation of the binder as a plain synchronous function that takes
 * `who` and returns values or throws a `Refused`. Nothing here knows of folders, terminals,
 * commander or MCP. A second backend (PostgreSQL, later) implements this same interface.
 */
import type {
  Access, Attachment, AttachKind, Change, DueRecord, EditedRecord, FieldType, List, ListPage, ListSummary,
  Note, RecordPage, RecordSummary, RecordView, SearchHit, View, Who,
} from './types.js';
import type { ImportOptions, ImportPlan, Imported, Outgoing } from './exchange-types.js';
import type {
  BlockedPage, Brief, BriefOptions, Claimed, LapsedClaim, NeedsChanged, ReadyPage, Released, TakeOptions,
} from './together-types.js';
import type { TokenCheck, TokenInfo, TokenMade } from './tokens.js';
import type { LoginLinkMade, SessionCheck, SessionInfo, SessionMade } from './sessions.js';

/**
 * A refusal a person or an agent can cause: its message is the sentence they read, in English;
 * `fr` is the same sentence for a person whose screen speaks French (agents always read English).
 */
export class Refused extends Error {
  override readonly name = 'Refused';
  readonly fr: string | undefined;
  /** What it is about, for a face that says so with a status (HTTP): a rule unless said. */
  readonly kind: RefusalKind;

  constructor(message: string, fr: string, kind: RefusalKind = 'rule') {
    super(message);
    this.fr = fr;
    this.kind = kind;
  }
}

/**
 * `rule`: the binder's rules say no (a gate, a claim, a state that does not exist); `access`: the
 * asker may not see or change it (said alike whether it exists or not); `not-understood`: a
 * value given is not one the operation reads.
 */
export type RefusalKind = 'rule' | 'access' | 'not-understood';

export interface ShowOptions {
  /** A state's name or id. */
  state?: string;
  /** Only records the asker owns. */
  mine?: boolean;
  /** Archived records instead of the live ones. */
  archived?: boolean;
  /** At most this many records per state (default 50). */
  limit?: number;
  /** Skip this many in each state (for paging). */
  offset?: number;
}

export interface AddInput {
  title: string;
  state?: string;
  /** By field name or id. */
  fields?: Record<string, string>;
  /** Ids, or `me` for the asker. */
  owners?: string[];
  /** A date (`2026-11-04`), a date-time (`2026-11-04 09:00`), or empty for none. */
  due?: string;
  note?: string;
}

export interface EditInput {
  title?: string;
  /** By field name or id; an empty value clears the field. */
  fields?: Record<string, string>;
  /** Replaces the owners; `[]` for nobody. */
  owners?: string[];
  /** Empty string or `none` clears it. */
  due?: string;
}

export interface StateInput {
  /** The id of an existing state being kept (renamed or moved); absent for a new one. */
  id?: string;
  name: string;
  gate?: boolean;
}

export interface FieldInput {
  id?: string;
  name: string;
  type: FieldType;
  choices?: string[];
}

export interface ListPatch {
  title?: string;
  view?: View;
  /** The whole new order of states. A state left out is removed (refused while records are in it). */
  states?: StateInput[];
  /** The whole new set of fields. A field left out is removed, with its values. */
  fields?: FieldInput[];
}

export interface TemplateSummary {
  id: string;
  title: string;
  describe: string;
}

export interface Side {
  name: string;
  /** `agent:<slug of name>`. */
  agent: string;
  dir: string;
  created: string;
  /** The directory registered (`dev:ino:birth`), or null until a keeper first sees it (folders registered before bindings). */
  bound: string | null;
  /** Set on the answer to registering a folder already registered under that name: bound again. */
  again?: true;
}

export interface Store {
  /** The database file. */
  readonly path: string;

  /* ---- reading: needs read access for an agent ---- */
  lists(who: Who, options?: { archived?: boolean }): ListSummary[];
  /** A list by id or title (case-insensitive). Refused the same way whether hidden or absent. */
  list(ref: string, who: Who): List;
  show(ref: string, who: Who, options?: ShowOptions): ListPage;
  /** A record with the page of its notes and history `page` says (all notes, the last 200 rows by default). */
  get(id: number | string, who: Who, page?: RecordPage): RecordView;
  search(text: string, who: Who, options?: { limit?: number; archived?: boolean }): SearchHit[];

  /* ---- changing: needs write access for an agent, and (but a note) that no other agent holds the record ---- */
  add(list: string, input: AddInput, who: Who): RecordSummary;
  /** An agent's change to the title or a field of an approved record withdraws the approval. */
  edit(id: number | string, input: EditInput, who: Who): EditedRecord;
  move(id: number | string, state: string, who: Who): RecordSummary;
  note(id: number | string, text: string, who: Who): Note;
  attach(id: number | string, input: { kind: AttachKind; ref: string; title?: string }, who: Who): Attachment;
  /** `what`: the attachment's id, or its ref. */
  detach(id: number | string, what: string, who: Who): Attachment;
  /** Refused when the record is already as asked (archived, or not). */
  archive(id: number | string, archived: boolean, who: Who): RecordSummary;

  /* ---- a person's alone: refused to agents whatever they send ---- */
  approve(id: number | string, yes: boolean, who: Who): RecordSummary;
  /** The record and all of it gone; its history emptied down to who and when. */
  delete(id: number | string, who: Who): { id: number; list: string };
  /** A note changed by its author only. */
  editNote(id: number | string, note: number, text: string, who: Who): Note;
  templates(lang: 'en' | 'fr'): TemplateSummary[];
  createList(input: { template: string; title?: string; lang?: 'en' | 'fr' }, who: Who): List;
  editList(ref: string, patch: ListPatch, who: Who): List;
  /** `access` null takes it away. `agent` is an agent id (`agent:x`) or a side's name. */
  grant(ref: string, agent: string, access: Access | null, who: Who): List;
  archiveList(ref: string, archived: boolean, who: Who): List;
  deleteList(ref: string, who: Who): { id: string; title: string; records: number };

  /* ---- the agents' folders a keeper reads (a person's) ---- */
  sides(): Side[];
  /**
   * Registers `dir` for the agent `name`, bound to the directory `bind(dir)` finds there (a face
   * that touches folders passes it; the store touches none). The same folder and name registered
   * again is bound again, and read afresh.
   */
  addSide(dir: string, name: string, who: Who, bind?: (dir: string) => string): Side;
  removeSide(name: string, who: Who): Side;
  /** A keeper's first sight of a registered folder with no binding: records `bound` unless one is; returns the one that holds. */
  bindSide(dir: string, bound: string): string;

  /* ---- agents' tokens for HTTP (a person's; checking one is the HTTP face's) ---- */
  tokens(who: Who): TokenInfo[];
  /** A new token for the agent of that name, returned whole this once; `expiresMs` from now. */
  addToken(name: string, options: { expiresMs?: number }, who: Who): TokenMade;
  /** Revokes the token with that prefix, or every live token of the agent of that name. */
  revokeTokens(ref: string, who: Who): TokenInfo[];
  /** Who a token is, or why it is not accepted; its use is noted (to the minute). */
  checkToken(token: string): TokenCheck;
  /** A token sent where it may be kept (a URL): revoked now; null when it is no token. */
  leakedToken(token: string): TokenInfo | null;

  /* ---- a person's sessions on the web page (made by a person; checking one is the HTTP face's) ---- */
  /** A one-time login link (10 minutes) for the person of that name; its key returned this once. */
  addLoginLink(name: string, who: Who): LoginLinkMade;
  /** Uses a link's key once, opening a session whose cookie is returned this once; refused if used or expired. */
  useLoginLink(key: string, browser: string): SessionMade;
  /** The person a session's cookie is, if it is open. */
  checkSession(cookie: string): SessionCheck;
  /** Signs the session of that cookie out; false if it was not open. */
  endSession(cookie: string): boolean;
  sessions(who: Who): SessionInfo[];
  /** Ends a session by its id, a person's by their name, or every one (`all`). */
  revokeSessions(ref: string, who: Who): SessionInfo[];

  /** Records whose due time has come and was not told yet; each is returned once, ever (and a
   * `due` history row says so, for briefs). */
  due(): DueRecord[];

  /* ---- working together: claims, what is ready, what changed ---- */
  /** Makes the asker the record's holder under a lease, only if nobody else holds or owns it;
   * the holder taking it again moves the lease's end. */
  take(id: number | string, who: Who, options?: TakeOptions): Claimed;
  /** Takes the first record of the list that `ready` would show, or refuses saying there is none. */
  takeNext(list: string, who: Who, options?: TakeOptions): Claimed;
  /** Ends a claim: its holder's, or any claim for a person. `note` is left on the record. */
  release(id: number | string, who: Who, note?: string): Released;
  /** Records the asker may start now, in one list or every list it can change. */
  ready(list: string | undefined, who: Who, options?: { limit?: number }): ReadyPage;
  /** Frees the records whose lease ran out, each with a `lapse` history row by its holder. */
  lapse(): LapsedClaim[];
  /** What changed since the asker last looked, each change once (see BriefOptions). */
  brief(who: Who, options?: BriefOptions): Brief;

  /* ---- records that wait on others ---- */
  /** Says the record needs `others` done first (write access to both lists; a circle is
   * refused, named), or with `remove` no longer needs them. */
  needs(id: number | string, others: readonly (number | string)[], who: Who, options?: { remove?: boolean }): NeedsChanged;
  /** What waits on what: the open records of one list (or every list the asker can change)
   * that need a record not done yet. */
  blocked(list: string | undefined, who: Who, options?: { limit?: number }): BlockedPage;

  /* ---- a binder moving out and in (a person's alone) ---- */
  /** Reads the lists named (or all) whole, in one snapshot, handing each piece to `give`. */
  exportBinder(lists: readonly string[] | undefined, who: Who, give: (piece: Outgoing) => void): { lists: number; records: number };
  /** Writes what a file brings, in one transaction: all of it, or (the first rule broken,
   * with its line) nothing. */
  importBinder(plan: ImportPlan, who: Who, options?: ImportOptions): Imported;

  /** Every change made through this store object, after it is committed. */
  onChange(listener: (change: Change) => void): () => void;
  /** Changes by another connection (another process) move this number: see PRAGMA data_version. */
  dataVersion(): number;

  /** Runs `fn` in one synchronous BEGIN IMMEDIATE transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T;
  /** The underlying connection, for the keeper's ledger of asks (same file, same rules). */
  readonly db: import('better-sqlite3').Database;
  /** Folds the write-ahead log back into the file, so nothing deleted survives in it. */
  checkpoint(): void;
  close(): void;
}
