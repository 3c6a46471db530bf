/**
 * Backups of the store, the one place that knows they are SQLite's: a consistent copy made while
 * keepers run (SQLite's online backup, in one step, so that writes by other processes cannot make
 * it start over forever), putting one back only when no process has the store open (an exclusive
 * lock on the database: every open connection, a keeper's, a screen's, another `binder admin`'s,
 * holds a shared one), and the checks SQLite and its search index make of themselves.
 * It never writes a file that is not whole: copies are made beside their place and renamed.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MIGRATIONS, Refused } from '../store/index.js';

const why = (e: unknown): string => (e instanceof Error ? e.message.replace(/^[A-Z]+: /, '') : String(e));

/** A file of our own beside `path`, made empty and readable by its owner only (a copy holds the binder). */
function partBeside(path: string): string {
  const part = join(dirname(path), `.${basename(path)}.${process.pid}.part`);
  try {
    closeSync(openSync(part, 'wx', 0o600));
  } catch (e) {
    throw new Refused(`Binder cannot write beside ${path}: ${why(e)}.`, `Binder ne peut pas écrire à côté de ${path} : ${why(e)}.`);
  }
  return part;
}

/** Copies the database of `db` to `file`: one consistent snapshot, whatever other processes write meanwhile. */
export async function backupTo(db: Database.Database, file: string): Promise<{ pages: number }> {
  const part = partBeside(file);
  try {
    // The first step only starts; the second copies every page at once (a step is one snapshot).
    const done = await db.backup(part, { progress: ({ totalPages }) => totalPages + 1 });
    const copy = new Database(part, { fileMustExist: true });
    try {
      const found = copy.pragma('quick_check', { simple: true });
      if (found !== 'ok') throw new Error(`the copy does not pass SQLite's check: ${String(found)}`);
    } finally {
      copy.close();
    }
    renameSync(part, file);
    return { pages: done.totalPages };
  } catch (e) {
    rmSync(part, { force: true });
    if (e instanceof Refused) throw e;
    throw new Refused(`Binder could not make the backup ${file}: ${why(e)}.`, `Binder n'a pas pu faire la sauvegarde ${file} : ${why(e)}.`);
  }
}

/** What a backup file is: refused unless it is a sound store of this Binder or an older one. */
export function readBackup(file: string): { version: number; lists: number; records: number } {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new Refused(`Binder cannot read the backup ${file}: ${why(e)}.`, `Binder ne peut pas lire la sauvegarde ${file} : ${why(e)}.`);
  }
  const notOne = (what: string, whatFr: string): Refused => new Refused(
    `${file} is not a backup Binder can put back: ${what}.`, `${file} n'est pas une sauvegarde que Binder peut remettre : ${whatFr}.`,
  );
  try {
    let version: number;
    let check: unknown;
    try {
      version = db.pragma('user_version', { simple: true }) as number;
      check = db.pragma('integrity_check', { simple: true });
    } catch {
      throw notOne('it is not a database', 'ce n\'est pas une base de données');
    }
    if (check !== 'ok') throw notOne(`it is damaged (${String(check)})`, `elle est abîmée (${String(check)})`);
    if (version < 1 || db.prepare("SELECT count(*) FROM sqlite_master WHERE name IN ('lists', 'records', 'log')").pluck().get() !== 3) {
      throw notOne('it is not a binder', 'ce n\'est pas un binder');
    }
    if (version > MIGRATIONS.length) throw notOne('it was made by a newer Binder; use that version', 'elle a été faite par un Binder plus récent ; utilisez cette version-là');
    const count = (table: string): number => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    return { version, lists: count('lists'), records: count('records') };
  } finally {
    db.close();
  }
}

/**
 * Whether any process has the store `path` open: its database cannot be locked exclusively then.
 * Locked, it is released at once: nobody had it.
 */
export function storeInUse(path: string): boolean {
  if (!existsSync(path)) return false;
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (e) {
    if (String((e as { code?: unknown }).code).startsWith('SQLITE_BUSY') || String((e as { code?: unknown }).code).startsWith('SQLITE_LOCKED')) return true;
    throw e;
  } finally {
    db.close();
  }
}

/** Puts the backup `file` in place of the store's database `path`, through SQLite (never by copying files under it). */
export async function restoreFrom(file: string, path: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (!existsSync(path)) closeSync(openSync(path, 'wx', 0o600));
  const source = new Database(file, { readonly: true, fileMustExist: true });
  try {
    // One step: the database is replaced whole, in one transaction, or not at all.
    await source.backup(path, { progress: ({ totalPages }) => totalPages + 1 });
  } catch (e) {
    throw new Refused(`Binder could not put the backup back: ${why(e)}. The binder is as it was.`,
      `Binder n'a pas pu remettre la sauvegarde : ${why(e)}. Le binder est tel qu'il était.`);
  } finally {
    source.close();
  }
}

export interface CheckFound {
  /** SQLite's own check of the file: `ok`, or what it found. */
  integrity: string[];
  /** Rows that point to a row that is not there. */
  dangling: { table: string; parent: string }[];
  /** The search index's own check: null when sound, else what it said. */
  searchIndex: string | null;
  /** Kept counts of records that differ from the records counted. */
  countsOff: number;
  /** Records that lie under themselves (a loop of parents, which the binder never makes). */
  parentLoops: number;
}

/** Every check the store can make of itself; it changes nothing. */
export function checkStore(db: Database.Database): CheckFound {
  const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
  const dangling = (db.pragma('foreign_key_check') as { table: string; parent: string }[]).map((r) => ({ table: r.table, parent: r.parent }));
  let searchIndex: string | null = null;
  try {
    db.transaction(() => {
      db.prepare("INSERT INTO record_text (record_text, rank) VALUES ('integrity-check', 0)").run();
      db.prepare("INSERT INTO note_text (note_text, rank) VALUES ('integrity-check', 0)").run();
    }).immediate();
  } catch (e) {
    searchIndex = why(e);
  }
  const key = (r: { list: string; archived: number; state: string; approved: number }): string => JSON.stringify([r.list, r.archived, r.state, r.approved]);
  type Count = { list: string; archived: number; state: string; approved: number; n: number };
  const counted = new Map((db.prepare(`SELECT list, archived, state, approved_by IS NOT NULL AS approved, count(*) AS n
      FROM records GROUP BY 1, 2, 3, 4`).all() as Count[]).map((r) => [key(r), r.n]));
  const kept = new Map((db.prepare('SELECT list, archived, state, approved, n FROM record_counts').all() as Count[]).map((r) => [key(r), r.n]));
  let countsOff = 0;
  for (const k of new Set([...counted.keys(), ...kept.keys()])) if (counted.get(k) !== kept.get(k)) countsOff++;
  return { integrity, dangling, searchIndex, countsOff, parentLoops: parentLoops(db) };
}

/** How many records lie under themselves, their parents followed up (a store older than parents has none). */
function parentLoops(db: Database.Database): number {
  if (db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'parents'").pluck().get() === 0) return 0;
  // A chain is followed no further than the records there are: a loop comes back within it.
  return db.prepare(`WITH RECURSIVE up(start, at, depth) AS (
      SELECT record, parent, 1 FROM parents
      UNION ALL SELECT up.start, p.parent, up.depth + 1 FROM up JOIN parents p ON p.record = up.at
        WHERE up.at <> up.start AND up.depth <= (SELECT count(*) FROM parents))
    SELECT count(DISTINCT start) FROM up WHERE at = start`).pluck().get() as number;
}
