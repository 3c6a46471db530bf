/**
 * What an operation of the catalog is (src/keeper/operations.ts): its name, words and arguments,
 * and who may call it. Types only: every face and the keeper read the catalog through them.
 */

export type ArgKind =
  /** A string. */
  | 'text'
  /** A string; on the command line, the remaining words joined by spaces. */
  | 'words'
  /** A record's number: `12` or `#12`. */
  | 'record'
  /** `2026-11-04` or `2026-11-04 09:00`; `none` (or empty) clears it. */
  | 'due'
  /** Owners: ids, `me`; repeatable on the command line (`--owner`), `none` for nobody. */
  | 'owners'
  /** Field values: `name=value`, repeatable on the command line (`--field`). */
  | 'fields'
  /** Several strings, repeatable on the command line. */
  | 'texts'
  /** One of `choices`. */
  | 'choice'
  /** true or false; a bare flag on the command line. */
  | 'flag'
  /** A whole number, 0 or more (at most `max` where it says). */
  | 'number';

export interface ArgSpec {
  kind: ArgKind;
  /** A few words: shown by --help and as the MCP schema's description. */
  describe: string;
  required?: boolean;
  /** On the command line: a positional word, in the order the arguments are declared. */
  positional?: boolean;
  /** What --help shows for it: `LIST`, `ID`, `STATE`… */
  placeholder?: string;
  /** The command-line flag, when it is not the argument's own name (`--owner` for owners). */
  flag?: string;
  choices?: readonly string[];
  /** The largest number accepted, for a `number`. */
  max?: number;
  /** Accepted in an ask (from older clients) but shown by no face. */
  hidden?: boolean;
  /**
   * A person's alone: shown by a person's faces (`binder admin`, the screen, the page), never by
   * an agent's (`binder`, MCP, REST's catalog); the store refuses it to an agent that sends it.
   */
  person?: true;
}

/** An operation as the catalog writes it; whose it is comes from the store's table (whose.ts). */
export interface OpDraft {
  name: string;
  /** A short human title (MCP `title`). */
  title: string;
  /** One line: what it does. */
  describe: string;
  /** One command line that uses it, as `binder …` (or `binder admin …` for a person's). */
  example: string;
  readOnly: boolean;
  /** Doing it twice leaves the binder as doing it once. */
  idempotent: boolean;
  args: Readonly<Record<string, ArgSpec>>;
  /** The argument that says how long the keeper may hold the ask open before answering (a wait). */
  holds?: string;
  /**
   * Its answer carries a secret shown this once (a token made): the ledger keeps the answer
   * without it, and a replay says it was made and shown (kept-answers.ts).
   */
  shownOnce?: true;
}

/**
 * Whose an operation is, read from the store's table of a person's operations (whose.ts): an
 * agent's too, or a person's alone, whatever an ask says; `doing` completes "Only a person can …"
 * when an agent asks for it; `admin`, a member of the binder is refused it too (the store decides).
 */
export type Whose =
  | { agents: true; admin?: undefined }
  | { agents: false; doing: string; admin?: true };

export type OpSpec = OpDraft & Whose;
