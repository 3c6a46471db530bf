/**
 * PostgreSQL's words for what the rules ask (dialect.ts): jsonb operators over TEXT columns, row
 * locks where keepers change rows side by side, sequences moved past ids given by hand, and its
 * own full-text search (tsvector).
 */
import { postgresText } from '../text-postgres.js';
import { briefSql } from './brief-sql.js';
import type { Dialect } from './dialect.js';
import { jsonKey } from './json.js';

export const POSTGRES: Dialect = {
  arrayHas: (column) => `jsonb_exists((${column})::jsonb, ?)`,
  arrayHasOther: (column) => `EXISTS (SELECT 1 FROM jsonb_array_elements_text((${column})::jsonb) o WHERE o <> ?)`,
  textAt: (column, key) => `((${column})::jsonb ->> '${jsonKey(key)}')`,
  indexedTextAt: (column, key) => `((${column})::jsonb ->> '${jsonKey(key)}')`,
  withoutKey: (column) => `((${column})::jsonb - ?::text)::text`,
  lastState: (l) => `((${l}.states)::jsonb -> -1 ->> 'id')`,
  asNumber: (expr) => `CAST(${expr} AS DOUBLE PRECISION)`,
  bytewise: (expr) => `${expr} COLLATE "C"`,
  readBy: (table, alias) => `${table} ${alias}`,
  rowLocks: true,
  readsAhead: true,
  // json, not jsonb: the rows' columns in their own order, and no conversion to a binary form read once.
  rowsAsJson: (select, order) => `(SELECT coalesce(json_agg(x ORDER BY ${order}), '[]') FROM (${select}) x)`,
  // Taken from its sequence now: never given to another transaction, committed or not.
  nextId: (table) => `SELECT nextval(pg_get_serial_sequence('${table}', 'id'))`,
  forUpdate: ' FOR UPDATE',
  forUpdateSkipLocked: ' FOR UPDATE OF r SKIP LOCKED',
  // A deleted row's bytes stay in its pages until the table is rewritten: the engine's afterDelete.
  afterErase: [],
  // Ids come from sequences: moved past the ids given here, never back (an id once given is never given again).
  idsGivenByHand: (tables) => tables.map((table) => `SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT coalesce(max(id), 1) FROM ${table}),
        coalesce(pg_sequence_last_value(pg_get_serial_sequence('${table}', 'id')::regclass), 1)))`),
  brief: briefSql('postgres'),
  text: postgresText,
};
