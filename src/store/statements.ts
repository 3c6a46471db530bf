/**
 * The store's connection as its operations see it: `prepare` keeps each statement it made, so
 * that an ask made thousands of times compiles its SQL once. Every other use goes to the
 * connection itself. It must never hand over a statement still set as its last caller left it.
 */
import type Database from 'better-sqlite3';

/** Beyond this many kept statements, SQL made on the fly (lists of placeholders) is not kept. */
const KEPT_MAX = 500;

export function keepingStatements(db: Database.Database): Database.Database {
  const kept = new Map<string, Database.Statement>();
  const prepare = (sql: string): Database.Statement => {
    const statement = kept.get(sql);
    if (!statement) {
      const made = db.prepare(sql);
      if (kept.size < KEPT_MAX) kept.set(sql, made);
      return made;
    }
    // Its caller sets the shape of the rows again if it wants one (`.pluck()`): none is left over.
    if (statement.reader) statement.raw(false).pluck(false).expand(false);
    return statement;
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
