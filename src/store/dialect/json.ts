/**
 * What the two dialects' JSON pieces share: the keys they may be given, and `IN (…)`. Nothing
 * here decides anything.
 */

/** A JSON key as the dialects write it into SQL: letters, digits and dashes only, never anything else. */
export function jsonKey(key: string): string {
  if (!/^[a-z0-9-]+$/.test(key)) throw new Error(`a JSON key of letters, digits and dashes, not ${key}`);
  return key;
}

/** `column IN (…)` for as many values as given (`FALSE` for none). */
export function inList(column: string, count: number): string {
  return count === 0 ? 'FALSE' : `${column} IN (${Array.from({ length: count }, () => '?').join(', ')})`;
}
