/**
 * SQLite's words for what the rules ask (dialect.ts): json_each and json_extract over TEXT
 * columns, index hints where its planner needs them, FTS5's own upkeep. One writer at a time: no
 * row is ever locked.
 */
import { sqliteText } from '../text-sqlite.js';
import { briefSql } from './brief-sql.js';
import type { Dialect } from './dialect.js';
import { jsonKey } from './json.js';

export const SQLITE: Dialect = {
  arrayHas: (column) => `EXISTS (SELECT 1 FROM json_each(${column}) WHERE value = ?)`,
  arrayHasOther: (column) => `EXISTS (SELECT 1 FROM json_each(${column}) o WHERE o.value <> ?)`,
  textAt: (column, key) => `json_extract(${column}, '$."${jsonKey(key)}"')`,
  indexedTextAt: (column, key) => `json_extract(${column}, '$.${jsonKey(key)}')`,
  withoutKey: (column) => `json_remove(${column}, '$."' || ? || '"')`,
  lastState: (l) => `json_extract(${l}.states, '$[#-1].id')`,
  asNumber: (expr) => `CAST(${expr} AS REAL)`,
  // SQLite compares text by its bytes already (BINARY).
  bytewise: (expr) => expr,
  readBy: (table, alias, index) => `${table} ${alias} INDEXED BY ${index}`,
  rowLocks: false,
  // Every statement is a call in this process: nothing is gained by asking ahead.
  readsAhead: false,
  // One writer at a time, and a table without AUTOINCREMENT gives the highest id and one.
  nextId: (table) => `SELECT coalesce(max(id), 0) + 1 FROM ${table}`,
  forUpdate: '',
  forUpdateSkipLocked: '',
  // Secure-delete takes a record's terms out of the index's leaves, but the segment directory keeps
  // the terms that begin its pages; only a merge rewrites it.
  afterErase: ["INSERT INTO record_text (record_text) VALUES ('optimize')", "INSERT INTO note_text (note_text) VALUES ('optimize')"],
  // AUTOINCREMENT keeps its own: past the highest id ever given.
  idsGivenByHand: () => [],
  brief: briefSql('sqlite'),
  text: sqliteText,
};
