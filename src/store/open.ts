/**
 * Opening the store's database: the folder (0700), the file (0600, made before SQLite opens
 * it), the pragmas and the migrations. A store that cannot be opened is a Refused with one
 * sentence naming the path and why; nothing here ever deletes or rewrites an existing file.
 */
import Database from 'better-sqlite3';
import { accessSync, closeSync, constants, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS } from './schema.js';
import { Refused } from './store.js';

const code = (e: unknown): string => (e && typeof e === 'object' && 'code' in e ? String(e.code) : '');

const notFolder = (dir: string): Refused => new Refused(
  `Binder cannot keep its store in ${dir}: it is not a folder.`,
  `Binder ne peut pas garder son magasin dans ${dir} : ce n'est pas un dossier.`,
);

/** Binder cannot open its store: why, in English and in French. */
const cannotOpen = (path: string, why: string, whyFr: string): Refused => new Refused(
  `Binder cannot open its store ${path}: ${why}.`,
  `Binder ne peut pas ouvrir son magasin ${path} : ${whyFr}.`,
);

function prepareFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    const c = code(e);
    if (c === 'EEXIST' || c === 'ENOTDIR') throw notFolder(dir);
    if (c === 'EACCES' || c === 'EPERM' || c === 'EROFS') {
      throw new Refused(
        `Binder cannot make the store folder ${dir}: it is not allowed to write there.`,
        `Binder ne peut pas créer le dossier du magasin ${dir} : il n'a pas le droit d'y écrire.`,
      );
    }
    const why = (e as Error).message;
    throw new Refused(
      `Binder cannot make the store folder ${dir}: ${why}.`,
      `Binder ne peut pas créer le dossier du magasin ${dir} : ${why}.`,
    );
  }
  if (!statSync(dir).isDirectory()) throw notFolder(dir);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw new Refused(
      `Binder cannot keep its store in ${dir}: the folder is not writable.`,
      `Binder ne peut pas garder son magasin dans ${dir} : on ne peut pas écrire dans ce dossier.`,
    );
  }
}

function prepareFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (e) {
    if (code(e) !== 'EEXIST') {
      const why = (e as Error).message;
      throw new Refused(
        `Binder cannot make its store file ${path}: ${why}.`,
        `Binder ne peut pas créer le fichier de son magasin ${path} : ${why}.`,
      );
    }
  }
  const stat = statSync(path);
  if (!stat.isFile()) throw cannotOpen(path, 'it is not a regular file', 'ce n\'est pas un fichier ordinaire');
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
  } catch {
    throw cannotOpen(path, 'the file is not writable', 'on ne peut pas écrire dans ce fichier');
  }
}

function migrate(db: Database.Database, path: string): void {
  const version = (): number => db.pragma('user_version', { simple: true }) as number;
  const newer = (): Refused => cannotOpen(path, 'it was made by a newer Binder; use that version',
    'il a été fait par un Binder plus récent ; utilisez cette version-là');
  if (version() > MIGRATIONS.length) throw newer();
  if (version() === MIGRATIONS.length) return;
  // Two processes may open a new store at once: the second waits, then finds it done.
  db.transaction(() => {
    const at = version();
    if (at > MIGRATIONS.length) throw newer();
    for (let i = at; i < MIGRATIONS.length; i++) db.exec(MIGRATIONS[i]!);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}

/** The store's database in `dir`, ready: pragmas set, migrations applied. */
export function openDatabase(dir: string): { db: Database.Database; path: string } {
  prepareFolder(dir);
  const path = join(dir, 'binder.db');
  prepareFile(path);
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('secure_delete = ON');
    migrate(db, path);
    return { db, path };
  } catch (e) {
    db?.close();
    if (e instanceof Refused) throw e;
    const c = code(e);
    if (c === 'SQLITE_NOTADB') throw cannotOpen(path, 'the file is not a database', 'ce fichier n\'est pas une base de données');
    if (c === 'SQLITE_CORRUPT') throw cannotOpen(path, 'the database is damaged', 'la base de données est abîmée');
    if (c.startsWith('SQLITE_READONLY') || c === 'SQLITE_CANTOPEN') throw cannotOpen(path, 'it is not writable', 'on ne peut pas y écrire');
    if (c === 'SQLITE_BUSY') throw cannotOpen(path, 'another process holds it locked; try again', 'un autre processus le tient verrouillé ; réessayez');
    const why = (e as Error).message;
    throw cannotOpen(path, why, why);
  }
}
