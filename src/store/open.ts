/**
 * Opening the store's database: the folder (0700), the file (0600, made before SQLite opens
 * it), the pragmas and the migrations. A store that cannot be opened is a Refused with one
 * sentence naming the path and why; nothing here ever deletes or rewrites an existing file.
 */
import Database from 'better-sqlite3';
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MIGRATIONS } from './schema.js';
import { Refused } from './store.js';
import type { Sentence } from './sentence.js';
import { refusal, refusalSaid, type RefusalWords } from './words/index.js';

const code = (e: unknown): string => (e && typeof e === 'object' && 'code' in e ? String(e.code) : '');

const notFolder = (dir: string): Refused => refusal('storeNotFolder', [dir]);

/** Binder cannot open its store: why, in each language's words (an error's own message in all). */
const cannotOpen = (path: string, why: (words: RefusalWords) => string | Sentence): Refused =>
  refusalSaid((w) => w.storeCannotOpen(path, why(w)));

/**
 * `mkdir -p`, one folder at a time. Node 20's own recursive mkdir never returns where a parent
 * exists but takes no folder (`/proc/x/store` on Linux: ENOENT for ever, the parent found again).
 */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.push(at);
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (e) {
      // Made meanwhile by another process opening the same store: as good.
      if (code(e) !== 'EEXIST' || !statSync(folder).isDirectory()) throw e;
    }
  }
}

function prepareFolder(dir: string): void {
  try {
    makeFolders(dir);
  } catch (e) {
    const c = code(e);
    if (c === 'EEXIST' || c === 'ENOTDIR') throw notFolder(dir);
    if (c === 'EACCES' || c === 'EPERM' || c === 'EROFS') {
      throw refusal('storeFolderNotAllowed', [dir]);
    }
    const why = (e as Error).message;
    throw refusal('storeFolderCannotMake', [dir, why]);
  }
  if (!statSync(dir).isDirectory()) throw notFolder(dir);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw refusal('storeFolderNotWritable', [dir]);
  }
}

function prepareFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (e) {
    if (code(e) !== 'EEXIST') {
      const why = (e as Error).message;
      throw refusal('storeFileCannotMake', [path, why]);
    }
  }
  const stat = statSync(path);
  if (!stat.isFile()) throw cannotOpen(path, (w) => w.openNotRegularFile());
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
  } catch {
    throw cannotOpen(path, (w) => w.openFileNotWritable());
  }
}

function migrate(db: Database.Database, path: string): void {
  const version = (): number => db.pragma('user_version', { simple: true }) as number;
  const newer = (): Refused => cannotOpen(path, (w) => w.openNewer());
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
    if (c === 'SQLITE_NOTADB') throw cannotOpen(path, (w) => w.openNotADatabase());
    if (c === 'SQLITE_CORRUPT') throw cannotOpen(path, (w) => w.openDamaged());
    if (c.startsWith('SQLITE_READONLY') || c === 'SQLITE_CANTOPEN') throw cannotOpen(path, (w) => w.openNotWritable());
    if (c === 'SQLITE_BUSY') throw cannotOpen(path, (w) => w.openBusy());
    const why = (e as Error).message;
    throw cannotOpen(path, () => why);
  }
}
