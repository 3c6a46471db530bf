/**
 * Every word the screen shows, as one typed table per language: a word missing in one language
 * is a type error. The catalog's titles and descriptions are read from the catalog in English and
 * translated in French; nothing else on the screen is written outside these tables.
 */
import type { OPERATIONS, OpName } from '../keeper/operations.js';
import type { Command, Context, KeyName } from './keymap.js';
import type { BriefKind } from '../store/index.js';
import { en } from './words-en.js';
import { fr } from './words-fr.js';

type ArgNames<T> = T extends { args: infer A } ? keyof A : never;
/** Every argument name in the catalog. */
export type ArgName = ArgNames<(typeof OPERATIONS)[number]> & string;

export type Lang = 'en' | 'fr';

export interface Words {
  readonly lang: Lang;
  /** An operation's title and one line, from the catalog (translated). */
  op(name: OpName): { title: string; describe: string };
  /** What an operation does, said to the person, where the catalog's line is said to an agent (release: "give back a record you took"). */
  readonly forPerson: Partial<Record<OpName, string>>;
  /** A form field's label and its hint, for an argument of an operation. */
  arg(op: OpName, name: ArgName): { label: string; hint: string };
  readonly commands: Record<Command, string>;
  readonly keyNames: Record<KeyName, string>;
  /** `Ctrl-A`, `Alt-b`, `Alt-←`: a key with a modifier. */
  keyWith(mod: 'ctrl' | 'meta' | 'shift', key: string): string;
  readonly contexts: Record<Context, string>;
  /** A due date's hint in a form, with an example (tomorrow). */
  dueHint(example: string): string;

  readonly never: string;
  secondsAgo(n: number): string;
  minutesAgo(n: number): string;
  hoursAgo(n: number): string;
  /** How long until: `in 25 min`. */
  inMinutes(n: number): string;
  inHours(n: number): string;

  readonly status: {
    store: string;
    noFolders: string;
    folder(name: string, dir: string, ago: string): string;
    problem(name: string, problem: string): string;
    answered(n: number): string;
    /** Changes the person has not seen yet (`more`: at least that many), and the key that shows them. */
    unseen(n: number, more: boolean, key: string): string;
  };
  readonly lists: {
    title: string;
    none: string;
    /** No live list, but archived ones: how many, and the key that shows them. */
    allArchived(n: number, key: string): string;
    archivedTitle: string;
    archivedMark: string;
    /** After `●N` for the open list: what N counts. */
    waiting(n: number): string;
  };
  readonly view: {
    empty: string;
    moreAbove(n: number): string;
    moreBelow(n: number): string;
    count(n: number): string;
    gate: string;
    approved: string;
    attached(n: number): string;
    /** A claim in a card or a row, compact: who, and the time it lapses. */
    takenUntil(name: string, time: string): string;
    /** A claim whose time ran out, not freed yet. */
    takenLapsed(name: string): string;
    /** A record that needs others not done yet: how many. */
    waitsOn(n: number): string;
    columns: { id: string; title: string; state: string; owners: string; due: string; attached: string; approved: string; claim: string; blocked: string };
    filters(state: string | null, mine: boolean, archived: boolean): string;
    allStates: string;
    noAccess: string;
  };
  readonly record: {
    title: string;
    list: string;
    state: string;
    approvedBy(name: string, at: string): string;
    notApproved: string;
    owners: string;
    due: string;
    overdue: string;
    created: string;
    updated: string;
    archived: string;
    fields: string;
    notes: string;
    attached: string;
    history: string;
    nobody: string;
    none: string;
    edited: string;
    gone: string;
    claim: string;
    /** Held: by whom, until when, and how long that is from now. */
    claimHeld(name: string, until: string, left: string): string;
    /** The lease ran out (the record is free, or about to be). */
    claimLapsed(name: string, at: string): string;
    claimReleased(name: string, by: string, at: string): string;
    /** The key that takes it away. */
    claimTakeAway(key: string): string;
    /** The records it needs done first, and those that need it (`needs`). */
    needs: string;
    neededBy: string;
    /** After a record it needs that is in its list's last state. */
    needDone: string;
    /** Records it needs, not done, in lists the person cannot see. */
    hiddenNeeds(n: number): string;
    /** The record it lies under (`parent`), and those under it (`children`) with how many are done. */
    parent: string;
    children: string;
    childrenDone(done: number, total: number): string;
  };
  readonly search: {
    title: string;
    placeholder: string;
    noMatch: string;
    typeToSearch: string;
    results(n: number): string;
    /** While the words typed are being looked for (what was found before stays shown). */
    looking: string;
    /** Only the first `n` matches are shown: how to narrow them (`keys`: the filters' keys). */
    cut(n: number, keys: string): string;
  };
  readonly help: { title: string };
  readonly welcome: {
    title: string;
    intro: string;
    pick: string;
    agentNote(agent: string, dir: string, key: string): string;
    /** With no agent folder yet: what a folder is, and the key that registers one. */
    folders(key: string): string;
  };
  firstGrant(agent: string, dir: string, list: string, key: string): string;
  readonly grant: {
    title(list: string): string;
    levels: { none: string; read: string; write: string };
    noAgents: string;
  };
  readonly sides: {
    title: string;
    kept: string;
    registered: string;
    none: string;
    answered(n: number): string;
    lastAsk(ago: string): string;
    createLabel: string;
    createHint: string;
    yes: string;
    no: string;
    /** The agents whose folders are the person's own OS user's, and what to do: a warning, never a refusal. */
    runsAsYou(names: readonly string[]): string;
    othersRead(name: string, dir: string): string;
  };
  /** Filtering the open list by words (`f`). */
  readonly filter: {
    title: string;
    describe: string;
    label: string;
    hint: string;
    /** In the header: the words filtered on. */
    shown(text: string): string;
    /** Only the first matches are shown. */
    capped(n: number): string;
  };
  readonly listEditor: {
    title(list: string): string;
    titleRow: string;
    viewRow: string;
    views: { board: string; table: string };
    /** A row's word before a state's position and name. */
    states: string;
    /** A row's word before a field's name. */
    fields: string;
    gate: string;
    /** The children-first row's value. */ onOff: { on: string; off: string };
    newState: string;
    /** The new state's place: the field's label and hint, and its choices. */
    statePlace: string;
    statePlaceHint: string;
    beforeState(name: string): string;
    atTheEnd(last: string): string;
    newField: string;
    fieldHint: string;
    renameTo: string;
  };
  readonly dialog: {
    deleteRecord(id: number, title: string, notes: number, attached: number): string;
    /** A record with records under it: what becomes of them, asked before anything is deleted. */
    deleteParent(id: number, title: string, children: string, notes: number, attached: number): string;
    /** The answers to it: the records under it stay (under nothing), are deleted too, or nothing is. */
    childrenOrphan: string;
    childrenDelete: string;
    deleteNothing: string;
    deleteList(title: string, records: number): string;
    typeTitle: string;
    pickState: string;
    pickTemplate: string;
    filterState: string;
    editNote: string;
    goTo: string;
    removeField(name: string): string;
    removeState(name: string): string;
    takeAway(id: number, title: string, holder: string): string;
    /** `a` on a record approved: its approval withdrawn, once the person says yes. */
    withdraw(id: number, title: string): string;
    /** `u` taking back a change that approved a record (`said`: what was said of it). */
    undoApproval(said: string, id: number, title: string): string;
    /** Keys that came before the question was drawn were not taken as its answer. */
    setAside(n: number): string;
  };
  readonly notice: {
    due(id: number, title: string, due: string): string;
    more(n: number): string;
    dismiss: string;
  };
  /** What comes to the person unasked (the status line, a terminal's or a browser's notification): work that waits for them. */
  readonly heard: {
    /** A record came to wait for the person's approval. */
    waits(id: number, title: string): string;
    /** A note by `by` names the person (`@name`). */
    mentioned(id: number, by: string, title: string): string;
    /** After the latest: how many more were heard with it. */
    more(n: number): string;
    /** A notification's title. */
    title: string;
  };
  /** What changed since the person last looked (the brief), line by line. */
  readonly brief: {
    title: string;
    nothing: string;
    /** The title line: how many changes, and the keys. */
    count(n: number): string;
    /** Each kind's count, for the title line: `3 added`, `1 noted`. */
    kind(kind: BriefKind, n: number): string;
    /** Past the changes shown, `n` older ones wait (also marked seen by `key`). */
    older(n: number, key: string): string;
    /** The keys of the view: jump to the latest change's record, mark all seen. */
    keys(latest: string, seen: string): string;
    /** Said when the person marked what they were shown seen. */
    markedSeen(n: number): string;
    approved(by: string): string;
    /** `changed`: what an agent's change changed (title, field names), which withdrew the approval. */
    withdrawn(by: string, to: string | null, changed: string | null): string;
    added(by: string, to: string | null): string;
    moved(by: string, from: string, to: string): string;
    note(by: string, text: string): string;
    lapsed(holder: string): string;
    takenAway(by: string, holder: string): string;
    released(holder: string): string;
    due(due: string | null): string;
    /** The last record it needed is done (or gone): it waits on nothing more. */
    unblocked(need: number | null): string;
  };
  /** The screen's own sentence for an action done (the keeper's words are for agents). */
  readonly done: {
    added(id: number, state: string): string;
    changed(id: number): string;
    moved(id: number, state: string): string;
    /** A move to the state the record already stood in (picked again, or put there by someone first): nothing moved. */
    alreadyIn(id: number, state: string): string;
    /** A person's move past the gate, which approves the record. */
    movedApproving(id: number, state: string): string;
    noted(id: number): string;
    noteRewritten(id: number): string;
    attached(id: number): string;
    detached(id: number): string;
    archived(id: number): string;
    restored(id: number): string;
    approved(id: number): string;
    withdrawn(id: number, state: string): string;
    deleted(id: number): string;
    /** Deleted with the records under it (`children`: their numbers). */
    deletedWith(id: number, children: string): string;
    released(id: number): string;
    takenAway(id: number, holder: string): string;
    notTaken(id: number): string;
    listMade(title: string): string;
    listChanged(title: string): string;
    listArchived(title: string): string;
    listRestored(title: string): string;
    listDeleted(title: string, records: number): string;
    granted(agent: string, access: 'read' | 'write' | 'none', list: string): string;
    sideAdded(name: string, dir: string): string;
    /** The same folder and name registered again: bound to the directory there now. */
    sideBoundAgain(name: string, dir: string): string;
    sideRemoved(name: string, dir: string): string;
  };
  /** A record's history, one change a line (see history-lines.ts). */
  readonly history: {
    added(state: string): string;
    titled(from: string, to: string): string;
    fieldSet(field: string, value: string): string;
    fieldCleared(field: string): string;
    ownersAdded(names: string): string;
    ownersRemoved(names: string): string;
    ownersNone: string;
    dueSet(due: string): string;
    dueCleared: string;
    moved(from: string, to: string): string;
    movedApproving(from: string, to: string): string;
    approved: string;
    withdrawn(to: string | null): string;
    /** An agent's change of what was approved (`changed`: the title, fields by name) withdrew the approval. */
    withdrawnBy(changed: string | null, to: string | null): string;
    needs(ids: string): string;
    needsNoMore(ids: string): string;
    /** The last record it needed was done, or deleted: it waits on nothing more. */
    unblocked(need: number | null, deleted: boolean): string;
    archived: string;
    restored: string;
    note(id: number, text: string): string;
    noteEdited(id: number, text: string): string;
    noteGone(id: number): string;
    attached(kind: string, ref: string): string;
    detached(kind: string, ref: string): string;
    claimed(until: string): string;
    claimKept(until: string): string;
    released(holder: string): string;
    releasedOwn: string;
    lapsed: string;
    due(due: string): string;
    deleted: string;
    erased: string;
    /** An operation the screen has no sentence for: its name in words, and what changed, in words. */
    other(op: string, what: string): string;
  };
  /** The keys at the bottom. */
  readonly footer: {
    /** Keys of the status line that did not fit: how many. */
    more(n: number): string;
  };
  readonly say: {
    /** Text pasted (or typed all at once) where no field takes it. */
    textSetAside(text: string, searchKey: string): string;
    /** Keys that came in one read (typed fast, or over a slow link): the moves were done, these were not. */
    keysSetAside(keys: string): string;
    /** A paste or a typed run cut at a field's limit. */
    cutAt(max: number): string;
    badDue(shown: string, example: string): string;
    folderMissing(dir: string): string;
    notAFolder(dir: string): string;
    folderMade(dir: string): string;
    /** No agent folder was given nor registered: the one kept by default, and how to change it. */
    noFolder(key: string): string;
    /** The offer to take the last change back. */
    undoOffer(text: string, key: string): string;
    undone(text: string): string;
    nothingToUndo: string;
    /** A change not taken back: someone else changed the record since. */
    undoChanged(id: number): string;
    /** An access not set back: someone changed it since. */
    undoAccessChanged(agent: string): string;
    /** A confirmation answered by a key that is not yes or no: nothing was done. */
    notAnswered(yes: string): string;
    cannotSuspend: string;
    /** Said on the terminal as Ctrl-Z suspends the screen: the keeper stops with it; how long an agent waits. */
    suspended(waitSeconds: number): string;
    tooSmall(columns: number, rows: number, needColumns: number, needRows: number): string;
    nothingSelected: string;
    /** The record the cursor held left the view (`why`), and the cursor is on `now`, or on nothing. */
    heldLeft(id: number, why: HeldWhy, now: number | null): string;
    /** The record under the cursor was moved to another state by someone else: the cursor went with it. */
    heldWent(id: number, state: string): string;
    /** A key that changes a record, pressed just after it came under the cursor: not done, asked again. */
    slidUnder(id: number, key: string): string;
    /** The record is no longer where the frame showed it: nothing was moved. */
    notWhereShown(id: number, shown: string, now: string): string;
    noList: string;
    noNote: string;
    notANumber: (typed: string) => string;
    notYourNote: string;
    noAttachment: string;
    firstState: string;
    lastState: string;
    sameTitle: string;
    /** A one-time login link to the web page (`binder tui --http`), and the screen without --http. */
    loginLink(link: string): string;
    notServed: string;
  };
}

/** Why a record left the view, as the screen says it. */
export type HeldWhy = { kind: 'gone' | 'archived' | 'restored' | 'list' | 'filtered' } | { kind: 'state'; name: string };

export function wordsFor(lang: Lang): Words {
  return lang === 'fr' ? fr : en;
}

/** French when the locale says so (LC_ALL, then LC_MESSAGES, then LANG), English otherwise. */
export function langFromEnv(env: NodeJS.ProcessEnv = process.env): Lang {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^fr\b|^fr_/i.test(locale) ? 'fr' : 'en';
}
