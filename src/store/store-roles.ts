/**
 * The store's operations by role, each an interface a face may take alone: the binder's rules
 * (records, lists, working together, webhooks); access and people (tokens, sessions, sign-in,
 * roles, organisations); the keeper's own (its ledger, the folders it reads, news of changes,
 * what falls due); a binder moving out and in. `Store` (store.ts) is all of them at once.
 */
import type {
  Access, Attachment, AttachKind, Change, DueRecord, EditedRecord, List, ListPage, ListSummary,
  Moved, Note, RecordPage, RecordSummary, RecordView, SearchHit, Who,
} from './types.js';
import type { ImportOptions, ImportPlan, Imported, Outgoing } from './exchange-types.js';
import type {
  BlockedPage, Brief, BriefOptions, Claimed, LapsedClaim, NeedsChanged, ReadyPage, Released, TakeOptions,
} from './together-types.js';
import type { TokenCheck, TokenInfo, TokenMade } from './tokens.js';
import type { Presumed } from './token-ahead.js';
import type { DialectName } from './sql/port.js';
import type { Ledger } from './ledger.js';
import type { LoginLinkMade, SessionCheck, SessionInfo, SessionMade } from './sessions.js';
import type { Person, Role, SignedIn } from './people.js';
import type { Organisation } from './orgs.js';
import type { HookDelivery, HookInfo, HookMade } from './hooks.js';
import type { DeliveryToTry, TryOutcome } from './hook-queue.js';
import type { Erased } from './erase.js';
import type { AddInput, EditInput, ListPatch, ShowOptions, Side, TemplateSummary } from './store-inputs.js';

/** The binder's rules: what a person or an agent reads and changes, each asked as `who`. */
export interface StoreRules {
  /* ---- reading: needs read access for an agent ---- */
  lists(who: Who, options?: { archived?: boolean }): Promise<ListSummary[]>;
  /** A list by id or title (case-insensitive). Refused the same way whether hidden or absent. */
  list(ref: string, who: Who): Promise<List>;
  show(ref: string, who: Who, options?: ShowOptions): Promise<ListPage>;
  /** A record with the page of its notes and history `page` says (all notes, the last 200 rows by default). */
  get(id: number | string, who: Who, page?: RecordPage): Promise<RecordView>;
  search(text: string, who: Who, options?: { limit?: number; archived?: boolean }): Promise<SearchHit[]>;

  /* ---- changing: needs write access for an agent, and (but a note) that no other agent holds the record ---- */
  add(list: string, input: AddInput, who: Who): Promise<RecordSummary>;
  /** An agent's change to the title or a field of an approved record withdraws the approval. */
  edit(id: number | string, input: EditInput, who: Who): Promise<EditedRecord>;
  /** A person's move past the gate approves: `seen`, the approvalMark of the record as shown, refused when it says otherwise now. */
  move(id: number | string, state: string, who: Who, seen?: string): Promise<Moved>;
  note(id: number | string, text: string, who: Who): Promise<Note>;
  attach(id: number | string, input: { kind: AttachKind; ref: string; title?: string }, who: Who): Promise<Attachment>;
  /** `what`: the attachment's id, or its ref. */
  detach(id: number | string, what: string, who: Who): Promise<Attachment>;
  /** Refused when the record is already as asked (archived, or not). */
  archive(id: number | string, archived: boolean, who: Who): Promise<RecordSummary>;

  /* ---- a person's alone: refused to agents whatever they send ---- */
  /** `seen`: the approvalMark of the record as the person was shown it; refused when it says otherwise now. */
  approve(id: number | string, yes: boolean, who: Who, seen?: string): Promise<RecordSummary>;
  /** The record and all of it gone; its history emptied down to who and when. */
  /** One with records under it is refused unless `children` says what becomes of them. */
  delete(id: number | string, who: Who, options?: { children?: 'orphan' | 'delete' }): Promise<{ id: number; list: string; children?: number[] } & Erased>;
  /** A note changed by its author only. */
  editNote(id: number | string, note: number, text: string, who: Who): Promise<Note>;
  templates(lang: 'en' | 'fr'): TemplateSummary[];
  createList(input: { template: string; title?: string; lang?: 'en' | 'fr' }, who: Who): Promise<List>;
  editList(ref: string, patch: ListPatch, who: Who): Promise<List>;
  /** `access` null takes it away. `agent` is an agent id (`agent:x`) or a side's name. */
  grant(ref: string, agent: string, access: Access | null, who: Who): Promise<List>;
  archiveList(ref: string, archived: boolean, who: Who): Promise<List>;
  deleteList(ref: string, who: Who): Promise<{ id: string; title: string; records: number } & Erased>;

  /* ---- working together: claims, what is ready, what changed ---- */
  /** Makes the asker the record's holder under a lease, only if nobody else holds or owns it;
   * the holder taking it again moves the lease's end. */
  take(id: number | string, who: Who, options?: TakeOptions): Promise<Claimed>;
  /** Takes the first record of the list that `ready` would show, or refuses saying there is none. */
  takeNext(list: string, who: Who, options?: TakeOptions): Promise<Claimed>;
  /** Ends a claim: its holder's, or any claim for a person. `note` is left on the record. */
  release(id: number | string, who: Who, note?: string): Promise<Released>;
  /** Records the asker may start now, in one list or every list it can change. */
  /** `query`: only what a query of the query language (query.ts) finds among them. */
  ready(list: string | undefined, who: Who, options?: { limit?: number; query?: string }): Promise<ReadyPage>;
  /** What changed since the asker last looked, each change once (see BriefOptions). */
  brief(who: Who, options?: BriefOptions): Promise<Brief>;
  /** Marks the changes through history row `through` seen by `who`: its next brief starts after it (never moves back). */
  markSeen(who: Who, through: number): Promise<{ through: number }>;

  /* ---- records that wait on others ---- */
  /** Says the record needs `others` done first (write access to both lists; a circle is
   * refused, named), or with `remove` no longer needs them. */
  needs(id: number | string, others: readonly (number | string)[], who: Who, options?: { remove?: boolean }): Promise<NeedsChanged>;
  /** What waits on what: the open records of one list (or every list the asker can change)
   * that need a record not done yet. */
  blocked(list: string | undefined, who: Who, options?: { limit?: number }): Promise<BlockedPage>;

  /* ---- webhooks: an admin's to make, list, remove and try (hooks.ts) ---- */
  /** `recent`: each hook's latest deliveries too, that many at most (RECENT_MAX), newest first. */
  hooks(who: Who, options?: { recent?: number }): Promise<(HookInfo & { recent?: HookDelivery[] })[]>;
  /** A hook told at `url` of `events` (all when none) of one list or every list; its secret returned this once. */
  addHook(input: { url: string; events?: string | readonly string[]; list?: string }, who: Who): Promise<HookMade>;
  removeHook(ref: string, who: Who): Promise<HookInfo>;
  /** Keeps a delivery of the event `test` for the hook: the keeper sends it as any other. */
  testHook(ref: string, who: Who): Promise<{ hook: string; delivery: string }>;
}

/** Access and people: agents' tokens, a person's sessions and sign-in, roles, organisations. */
export interface StoreAccess {
  /* ---- agents' tokens for HTTP (a person's; checking one is the HTTP face's) ---- */
  tokens(who: Who): Promise<TokenInfo[]>;
  /** A new token for the agent of that name, returned whole this once; `expiresMs` from now. */
  addToken(name: string, options: { expiresMs?: number }, who: Who): Promise<TokenMade>;
  /** Revokes the token with that prefix, or every live token of the agent of that name. */
  revokeTokens(ref: string, who: Who): Promise<TokenInfo[]>;
  /** Who a token is, or why it is not accepted; its use is noted (to the minute). */
  checkToken(token: string): Promise<TokenCheck>;
  /**
   * A server store's check of `token` for one request, presumed from its last look (undefined where
   * none is): the look is made with the request's first statement, and `settle` says what it found
   * (the request is answered as refused when it is not accepted). See token-ahead.ts.
   */
  presumeToken(token: string): Presumed | undefined;
  /** Whether the token of that prefix is still accepted (for what was asked with it and is answered later); its use is not noted. */
  checkTokenPrefix(prefix: string): Promise<TokenCheck>;
  /** A token sent where it may be kept (a URL): revoked now; null when it is no token. */
  leakedToken(token: string): Promise<TokenInfo | null>;

  /* ---- a person's sessions on the web page (made by a person; checking one is the HTTP face's) ---- */
  /** A one-time login link (10 minutes) for the person of that name; its key returned this once. */
  addLoginLink(name: string, who: Who): Promise<LoginLinkMade>;
  /** Uses a link's key once, opening a session whose cookie is returned this once; refused if used or expired. */
  useLoginLink(key: string, browser: string): Promise<SessionMade>;
  /** The person a session's cookie is, if it is open. */
  checkSession(cookie: string): Promise<SessionCheck>;
  /** Signs the session of that cookie out; false if it was not open. */
  endSession(cookie: string): Promise<boolean>;
  /** Ends the open sessions of these signed-in people in that organisation (removed from its binder): how many. */
  endSessionsOf(ids: readonly string[], org: string): Promise<number>;
  sessions(who: Who): Promise<SessionInfo[]>;
  /** Ends a session by its id, a person's by their name, or every one (`all`). */
  revokeSessions(ref: string, who: Who): Promise<SessionInfo[]>;
  /* ---- a signed-in service (OpenID Connect): its provider, sign-ins under way, their sessions ---- */
  /** The identity provider this store's service signs people in with, or null: a local binder. */
  signInIssuer(): Promise<string | null>;
  /** Says the store is a signed-in service's, with that provider: login links are refused from now on. */
  markSignIn(issuer: string): Promise<void>;
  /** The key that seals the cookies of sign-ins under way (made once per store). */
  signInKey(): Promise<string>;
  /** Whether the sign-in of that state was finished already (a look). */
  signInFinished(state: string): Promise<boolean>;
  /** Marks the sign-in of that state finished, once the provider answered; false when it was already. */
  finishedSignIn(state: string, expires: number): Promise<boolean>;
  /** Opens a session for a person the provider vouched for, in their organisation; its cookie returned this once. */
  openSession(who: Who, org: string, browser: string): Promise<SessionMade>;

  /* ---- the people who sign in, and their roles (people.ts) ---- */
  /**
   * Records a person's sign-in (name and e-mail as the provider gave them): the binder's first
   * person becomes its admin, in this transaction; everyone after is a member. A removed person
   * is refused. Every later operation of that person's is done with the role found then.
   */
  signIn(who: Who): Promise<SignedIn>;
  /** Everyone who signed in, with their roles (an admin's). */
  people(who: Who): Promise<Person[]>;
  /** Gives a person (by e-mail, name or id) a role; never takes the last admin's away (an admin's). */
  setRole(person: string, role: Role, who: Who): Promise<Person>;
  /** Removes a person, whose history stays; never the last admin (an admin's). */
  removePerson(person: string, who: Who): Promise<Person>;
  /** The ids of the people removed (of `id` alone, when given): the HTTP face ends their sessions. */
  removedPeople(id?: string): Promise<string[]>;

  /* ---- a service store's own: the organisations' binders and their tokens (orgs.ts, keeper/binders.ts) ---- */
  /** The slug of the organisation's binder (made and kept at its first use); a hostile name is refused. */
  orgSlug(org: string): Promise<string>;
  orgs(): Promise<Organisation[]>;
  /** Notes that the token of that hash was made in `org`'s binder. */
  indexToken(hash: string, org: string): Promise<void>;
  /** The organisation a token was made in, or null. */
  tokenOrg(token: string): Promise<string | null>;
}

/** The keeper's own: its ledger, the folders it reads, news of changes, and what falls due. */
export interface StoreKeeping {
  /** The keeper's ledger of asks, folder marks and held waits (inside `transaction`, in it). */
  readonly ledger: Ledger;
  /* ---- the agents' folders a keeper reads (a person's) ---- */
  sides(): Promise<Side[]>;
  /**
   * Registers `dir` for the agent `name`, bound to the directory `bind(dir)` finds there (a face
   * that touches folders passes it; the store touches none). The same folder and name registered
   * again is bound again, and read afresh.
   */
  addSide(dir: string, name: string, who: Who, bind?: (dir: string) => string): Promise<Side>;
  removeSide(name: string, who: Who): Promise<Side>;
  /** A keeper's first sight of a registered folder with no binding: records `bound` unless one is; returns the one that holds. */
  bindSide(dir: string, bound: string): Promise<string>;

  /**
   * Whether this keeper may pump the folder `key` now: on PostgreSQL one keeper at a time (an
   * advisory lock held while it runs, taken over when it dies); SQLite's keepers share one by the
   * marks in the ledger.
   */
  holdFolder(key: string): Promise<boolean>;

  /** Every change made through this store object, after it is committed. */
  onChange(listener: (change: Change) => void): () => void;
  /**
   * Changes committed by another process on the same binder (another keeper, `binder admin`):
   * called soon after each (SQLite: a look at PRAGMA data_version every 50 ms while anyone
   * listens; PostgreSQL: LISTEN). Several changes may make one call.
   */
  onOtherChange(listener: () => void): () => void;
  /* ---- what falls due: due times, claims' leases, webhooks' deliveries (the keeper's heartbeat) ---- */
  /** Records whose due time has come and was not told yet; each is returned once, ever (and a
   * `due` history row says so, for briefs). */
  due(): Promise<DueRecord[]>;

  /** Frees the records whose lease ran out, each with a `lapse` history row by its holder. */
  lapse(): Promise<LapsedClaim[]>;
  /** The keeper's: keeps a delivery for each event of the history the hooks were not told yet (a page of it). */
  queueHookEvents(): Promise<{ queued: number; more: boolean }>;
  /** The keeper's: the deliveries to try now, marked as being sent for `leaseMs`. */
  deliveriesDue(limit: number, leaseMs: number): Promise<DeliveryToTry[]>;
  /** The keeper's: how a try went (kept, and the next try set, or the delivery given up on). */
  deliveryTried(id: string, outcome: TryOutcome): Promise<void>;
  /** The keeper's: when a delivery is next to be tried, or null. */
  nextDeliveryAt(): Promise<number | null>;
  /** The keeper's look after changes: whether a hook is behind the history, and nextDeliveryAt, in one statement. */
  hookWork(): Promise<{ behind: boolean; next: number | null }>;
}

/** A binder moving out and in (a person's alone). */
export interface StoreExchange {
  /** Reads the lists named (or all) whole, in one snapshot, handing each piece to `give`. */
  exportBinder(lists: readonly string[] | undefined, who: Who, give: (piece: Outgoing) => void): Promise<{ lists: number; records: number }>;
  /** Writes what a file brings, in one transaction: all of it, or (the first rule broken,
   * with its line) nothing. */
  importBinder(plan: ImportPlan, who: Who, options?: ImportOptions): Promise<Imported>;
}

/** The store itself: where it is, its engine, and its end. */
export interface StoreLife {
  /** The database file, or the database's URL without its password. */
  readonly path: string;
  /** Which engine holds the binder (said to a person; code asks what it needs below instead). */
  readonly dialect: DialectName;
  /**
   * Whether several keepers share this binder, their changes running side by side (a database
   * server): a keeper then runs a few batches of asks at once, each meeting the others as two
   * keepers' would. Where false, one transaction runs at a time whatever is asked.
   */
  readonly severalKeepers: boolean;
  /** Whether the binder is a file on this machine, whose folder can hold a note beside it (where it is served). */
  readonly inAFile: boolean;
  /** After a delete, what the engine does so no byte of it stays in its files, done before it resolves (SQLite: the WAL folded back; PostgreSQL: the tables rewritten). */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
}
