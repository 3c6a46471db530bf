/**
 * What the rules are given of their engine: the SQL pieces whose words differ between SQLite and
 * PostgreSQL, each asked for by what it means, and the few steps one engine takes and the other
 * does not (locks on rows, the search index's own upkeep). A rule reads its pieces here and never
 * asks which engine it runs on; nothing here decides anything a rule decides.
 */
import type { Context } from '../context.js';
import type { IndexMark } from '../text-index.js';
import type { BriefSql } from './brief-sql.js';

/** A record found by a search, as both engines' rankings give it (HIT_COLUMNS). */
export interface HitRow { id: number; list: string; listTitle: string; title: string; state: string; states: string; archived: number }

/** The columns of a hit, for `records r` joined to its list `l`. */
export const HIT_COLUMNS = 'SELECT r.id, r.list, l.title AS "listTitle", r.title, r.state, l.states, r.archived';

/** What a search asks of the engine's index: the asker's words as given and as the index's terms. */
export interface Searched {
  /** Each word as an FTS5 prefix term (`"word"*`). */
  terms: string[];
  /** The words themselves, letters and digits alone. */
  words: string[];
}

/** The search index as the engine keeps it (text-sqlite.ts, text-postgres.ts). */
export interface TextIndex {
  /** Takes the record's words out of the index now (it is being erased). */
  unindex(ctx: Context, id: number): Promise<void>;
  /** Brings the index in step with the records marked, each as its mark says. */
  index(ctx: Context, marked: [number, IndexMark][]): Promise<void>;
  /** The best hits among the records `visible` lets the asker see (`seen`: its parameters), at most `limit`. */
  ranked(ctx: Context, searched: Searched, visible: string[], seen: string[], limit: number): Promise<HitRow[]>;
  /**
   * A condition over `records r`: its words (title, notes, field values) hold each word, by prefix,
   * or, with `phrase`, the words one after another. The words are letters and digits alone.
   */
  holds(words: string[], phrase: boolean): { sql: string; params: unknown[] };
}

export interface Dialect {
  /** A condition: the JSON array in `column` holds the string given as the next parameter. */
  arrayHas(column: string): string;
  /** A condition: the JSON array in `column` holds a string other than the next parameter. */
  arrayHasOther(column: string): string;
  /** The text at `key` of the JSON object in `column` (a key of letters, digits and dashes only). */
  textAt(column: string, key: string): string;
  /** The same, written exactly as an index of the schema writes it (so that the index is used). */
  indexedTextAt(column: string, key: string): string;
  /** The JSON object in `column` without the key given as the next parameter. */
  withoutKey(column: string): string;
  /** The id of the last state of the list aliased `l`. */
  lastState(l: string): string;
  /** A number read from a text (a field's value), as a float. */
  asNumber(expr: string): string;
  /** A text compared by its bytes of UTF-8, as an index of text orders it. */
  bytewise(expr: string): string;
  /** `table alias`, read by the index named where the engine takes a hint. */
  readBy(table: string, alias: string, index: string): string;
  /**
   * Whether changes run side by side (several keepers): a rule that reads rows another change
   * could make wrong without touching them locks them first. Where changes run one at a time, no
   * lock is needed and none is said.
   */
  readonly rowLocks: boolean;
  /** Said after a SELECT whose rows this transaction locks ('' where rowLocks is false). */
  readonly forUpdate: string;
  /** Said after a SELECT of `records r` whose rows it locks, passing over those another holds. */
  readonly forUpdateSkipLocked: string;
  /**
   * Whether statements asked at once cost one round trip (a server): a read may then be asked
   * before it is known to be needed, with the reads it would otherwise wait for, and thrown away.
   */
  readonly readsAhead: boolean;
  /**
   * A column holding the rows `select` gives as one JSON array, ordered by `order` (over the rows,
   * named `x`) — where a statement costs more than its work (a server's: a record's page read in
   * one statement took 57–73 % of the processor time of eight, bench/postgres-cpu.mjs), so that a
   * read asks its parts as columns of its main statement. Absent where statements are cheap
   * (SQLite, in-process).
   */
  rowsAsJson?(select: string, order: string): string;
  /** A statement whose one value is the id the next row of `table` is given (within this transaction). */
  nextId(table: 'notes'): string;
  /** Statements run after records were erased in a transaction, that leave none of their terms in the index's pages. */
  readonly afterErase: readonly string[];
  /** Statements run after rows of `tables` were given ids by hand: the next id given is past them, never back. */
  idsGivenByHand(tables: readonly string[]): string[];
  /** The brief's SQL (brief-sql.ts). */
  readonly brief: BriefSql;
  /** The search index. */
  readonly text: TextIndex;
}
