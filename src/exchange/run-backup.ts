/**
 * `binder admin backup FILE`, `restore-backup FILE` and `check`: the person's words around
 * backup.ts. A backup may be made while keepers run; a backup is put back only when no process
 * has the store open, and only once the person said yes (`--yes`, or on their terminal).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, Refused, type SqliteStore, type StoreSpec, type Who } from '../store/index.js';
import { confirmed } from '../keeper/confirm.js';
import { jsonDocument } from '../keeper/json-document.js';
import { lines, said, word, type Shown } from '../keeper/text-values.js';
import { backupTo, checkStore, readBackup, restoreFrom, storeInUse, type CheckFound } from './backup.js';
import { printAnswer, printSentence } from './print.js';

type Place = { store: StoreSpec; who: Who; json: boolean };

/**
 * The folder of a SQLite binder: backups, restores and checks are SQLite's own. On PostgreSQL the
 * database server's tools do them, and the sentence says how, rather than pretend.
 */
function folderOf(place: Place, doing: 'backup' | 'restore' | 'check'): string {
  if (place.store.kind === 'sqlite') return place.store.dir;
  const hint = {
    backup: ['pg_dump --format=custom --file binder.dump "$DATABASE_URL" (docs/team.md says more)', 'pg_dump --format=custom --file binder.dump "$DATABASE_URL" (docs/team.md en dit plus)'],
    restore: ['pg_restore --clean --if-exists --dbname "$DATABASE_URL" binder.dump, keepers stopped (docs/team.md says more)', 'pg_restore --clean --if-exists --dbname "$DATABASE_URL" binder.dump, gardiens arrêtés (docs/team.md en dit plus)'],
    check: ['the server\'s own checks (pg_amcheck) and binder admin export to read it whole (docs/team.md says more)', 'les vérifications du serveur (pg_amcheck) et binder admin export pour la lire en entier (docs/team.md en dit plus)'],
  }[doing];
  throw new NoStore(
    `This binder is in PostgreSQL: binder admin ${doing === 'restore' ? 'restore-backup' : doing} is for a binder in a folder (SQLite). Use ${hint[0]}.`,
    `Ce binder est dans PostgreSQL : binder admin ${doing === 'restore' ? 'restore-backup' : doing} est pour un binder dans un dossier (SQLite). Utilisez ${hint[1]}.`,
  );
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

const noBinder = (dir: string): Refused => new Refused(`There is no binder in ${dir}: nothing to back up or check.`, `Il n'y a aucun binder dans ${dir} : rien à sauvegarder ni à vérifier.`);

/** Runs `work`; a refusal is said on stderr with `code` (a store that cannot be opened: 2). */
async function saying(work: () => Promise<string | object>): Promise<number> {
  try {
    const answer = await work();
    if (typeof answer === 'string') printAnswer(answer);
    else process.stdout.write(`${jsonDocument(answer)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof Refused) {
      printSentence(`Not done: ${error.message}`);
      return error instanceof NoStore ? 2 : 1;
    }
    throw error;
  }
}

class NoStore extends Refused {}

function opened(dir: string): SqliteStore {
  if (!existsSync(join(dir, 'binder.db'))) {
    const r = noBinder(dir);
    throw new NoStore(r.message, r.fr ?? r.message);
  }
  try {
    return openStore(dir);
  } catch (error) {
    if (error instanceof Refused) throw new NoStore(error.message, error.fr ?? error.message);
    throw error;
  }
}

const sizes = (store: SqliteStore): { lists: number; records: number } => ({
  lists: store.db.prepare('SELECT count(*) FROM lists').pluck().get() as number,
  records: store.db.prepare('SELECT count(*) FROM records').pluck().get() as number,
});

export function runBackup(file: string, place: Place): Promise<number> {
  return saying(async () => {
    const store = opened(folderOf(place, 'backup'));
    try {
      const { lists, records } = sizes(store);
      await backupTo(store.db, file);
      return place.json ? { file, lists, records }
        : lines([said`Backed up the binder (${plural(lists, 'list')}, ${plural(records, 'record')}) to ${file}; the copy passes SQLite's check.`,
          said`Put it back with: binder admin restore-backup ${word(file)}`]);
    } finally {
      await store.close();
    }
  });
}


const inUse = (dir: string): Refused => new Refused(
  `The binder in ${dir} is open in another process — a keeper (binder serve, binder tui) or another binder admin: `
    + 'stop it first, then put the backup back.',
  `Le binder de ${dir} est ouvert par un autre processus — un gardien (binder serve, binder tui) ou un autre binder admin : `
    + 'arrêtez-le d\'abord, puis remettez la sauvegarde.',
);

export function runRestore(file: string, o: { yes?: boolean }, place: Place): Promise<number> {
  return saying(async () => {
    const dir = folderOf(place, 'restore');
    const backup = readBackup(file);
    const path = join(dir, 'binder.db');
    if (storeInUse(path)) throw inUse(dir);
    if (!o.yes) {
      const there = existsSync(path) ? 'Replace the binder' : 'Make the binder';
      const yes = await confirmed(said`${there} in ${dir} with the backup ${file} (${plural(backup.lists, 'list')}, ${plural(backup.records, 'record')})?`.text);
      if (!yes) {
        throw new Refused(`Nothing changed: run it again with --yes to put ${file} in place of the binder in ${dir}.`,
          `Rien n'a changé : relancez avec --yes pour mettre ${file} à la place du binder de ${dir}.`);
      }
      // The question took time: a keeper may have started meanwhile.
      if (storeInUse(path)) throw inUse(dir);
    }
    await restoreFrom(file, path);
    const store = openStore(dir);
    const now = sizes(store);
    await store.close();
    return place.json ? { file, ...now }
      : said`Put back the backup ${file}: ${plural(now.lists, 'list')}, ${plural(now.records, 'record')}. binder admin check checks it.`.text;
  });
}

export async function runCheck(place: Place): Promise<number> {
  let found: ReturnType<typeof checkStore> | undefined;
  const code = await saying(async () => {
    const dir = folderOf(place, 'check');
    const store = opened(dir);
    try {
      const { lists, records } = sizes(store);
      found = checkStore(store.db);
      const sound = found.integrity.length === 1 && found.integrity[0] === 'ok';
      if (place.json) return { lists, records, ...found };
      const out: Shown[] = [said`Checked the binder in ${dir} (${plural(lists, 'list')}, ${plural(records, 'record')}):`];
      out.push(sound ? said`  the database file: sound (SQLite's integrity check: ok)`
        : said`  the database file: DAMAGED — SQLite found ${plural(found.integrity.length, 'problem')}: ${found.integrity.slice(0, 5).join('; ')}`);
      out.push(found.dangling.length === 0 ? said`  rows that name others: all found`
        : said`  rows that name others: ${plural(found.dangling.length, 'row')} name what is not there (${[...new Set(found.dangling.map((d) => `${d.table} → ${d.parent}`))].join(', ')})`);
      out.push(found.searchIndex === null ? said`  the search index: sound` : said`  the search index: DAMAGED (${found.searchIndex})`);
      out.push(found.countsOff === 0 ? said`  the counts kept per list: right` : said`  the counts kept per list: ${plural(found.countsOff, 'count')} wrong`);
      out.push(found.parentLoops === 0 ? said`  records under records: none under itself`
        : said`  records under records: ${plural(found.parentLoops, 'record')} in a loop of parents, each under itself`);
      const bad = isBad(sound, found);
      out.push(bad
        ? said`Something is wrong: put a backup back (binder admin restore-backup FILE), or export what can still be read (binder admin export).`
        : said`Nothing is wrong.`);
      return lines(out);
    } finally {
      await store.close();
    }
  });
  if (code !== 0 || !found) return code;
  return isBad(found.integrity.length === 1 && found.integrity[0] === 'ok', found) ? 1 : 0;
}

const isBad = (sound: boolean, found: CheckFound): boolean =>
  !sound || found.dangling.length > 0 || found.searchIndex !== null || found.countsOff > 0 || found.parentLoops > 0;
