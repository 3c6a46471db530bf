/**
 * The few SQL pieces that read JSON kept in TEXT columns, in each engine's own words: SQLite's
 * json_each/json_extract, PostgreSQL's jsonb operators. The rules ask for a piece by what it
 * means; placeholders stay `?` in order. Nothing here decides anything.
 */
import type { DialectName } from '../sql/port.js';

/** A condition: the JSON array in `column` holds the string given as the next parameter. */
export function arrayHas(dialect: DialectName, column: string): string {
  return dialect === 'sqlite'
    ? `EXISTS (SELECT 1 FROM json_each(${column}) WHERE value = ?)`
    : `jsonb_exists((${column})::jsonb, ?)`;
}

/** A condition: the JSON array in `column` holds a string other than the next parameter. */
export function arrayHasOther(dialect: DialectName, column: string): string {
  return dialect === 'sqlite'
    ? `EXISTS (SELECT 1 FROM json_each(${column}) o WHERE o.value <> ?)`
    : `EXISTS (SELECT 1 FROM jsonb_array_elements_text((${column})::jsonb) o WHERE o <> ?)`;
}

/** The text at `key` of the JSON object in `column` (a key of letters, digits and dashes only). */
export function textAt(dialect: DialectName, column: string, key: string): string {
  if (!/^[a-z0-9-]+$/.test(key)) throw new Error(`a JSON key of letters, digits and dashes, not ${key}`);
  return dialect === 'sqlite' ? `json_extract(${column}, '$."${key}"')` : `((${column})::jsonb ->> '${key}')`;
}

/** The JSON object in `column` without the key given as the next parameter. */
export function withoutKey(dialect: DialectName, column: string): string {
  return dialect === 'sqlite' ? `json_remove(${column}, '$."' || ? || '"')` : `((${column})::jsonb - ?::text)::text`;
}

/** `column IN (…)` for as many values as given (`FALSE` for none). */
export function inList(column: string, count: number): string {
  return count === 0 ? 'FALSE' : `${column} IN (${Array.from({ length: count }, () => '?').join(', ')})`;
}
