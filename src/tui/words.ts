/**
 * Every word the screen shows, as one typed table per language: a word missing in one language
 * is a type error. The catalog's titles and descriptions are read from the catalog in English and
 * translated in French; nothing else on the screen is written outside these tables.
 */
import type { OPERATIONS, OpName } from '../keeper/operations.js';
import type { Command, Context, KeyName } from './keymap.js';
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
  /** A form field's label and its hint, for an argument of an operation. */
  arg(op: OpName, name: ArgName): { label: string; hint: string };
  readonly commands: Record<Command, string>;
  readonly keyNames: Record<KeyName, string>;
  readonly contexts: Record<Context, string>;

  readonly never: string;
  secondsAgo(n: number): string;
  minutesAgo(n: number): string;
  hoursAgo(n: number): string;

  readonly status: {
    store: string;
    noFolders: string;
    folder(name: string, dir: string, ago: string): string;
    problem(name: string, problem: string): string;
    answered(n: number): string;
  };
  readonly lists: {
    title: string;
    none: string;
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
    taken(name: string): string;
    columns: { id: string; title: string; state: string; owners: string; due: string; attached: string; approved: string };
    filters(state: string | null, mine: boolean, archived: boolean): string;
    allStates: string;
    noAccess: string;
  };
  readonly record: {
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
    taken(name: string, until: string): string;
  };
  readonly search: {
    title: string;
    placeholder: string;
    noMatch: string;
    typeToSearch: string;
    results(n: number): string;
  };
  readonly help: { title: string };
  readonly welcome: {
    title: string;
    intro: string;
    pick: string;
    agentNote(agent: string, dir: string): string;
  };
  firstGrant(agent: string, dir: string, list: string): string;
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
    newState: string;
    newField: string;
    fieldHint: string;
    renameTo: string;
  };
  readonly dialog: {
    deleteRecord(id: number, title: string, notes: number, attached: number): string;
    deleteList(title: string, records: number): string;
    typeTitle: string;
    pickState: string;
    pickTemplate: string;
    filterState: string;
    editNote: string;
    removeField(name: string): string;
  };
  readonly notice: {
    due(id: number, title: string, due: string): string;
    more(n: number): string;
    dismiss: string;
  };
  readonly say: {
    nothingSelected: string;
    noList: string;
    noNote: string;
    notYourNote: string;
    noAttachment: string;
    firstState: string;
    lastState: string;
    sameTitle: string;
  };
}

export function wordsFor(lang: Lang): Words {
  return lang === 'fr' ? fr : en;
}

/** French when the locale says so (LC_ALL, then LC_MESSAGES, then LANG), English otherwise. */
export function langFromEnv(env: NodeJS.ProcessEnv = process.env): Lang {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^fr\b|^fr_/i.test(locale) ? 'fr' : 'en';
}
