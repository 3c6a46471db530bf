/**
 * `binder admin export | import | backup | restore-backup | check`: a person's commands beside
 * the catalog's, not in it, because they read and write files on the person's own machine — which
 * the catalog's operations, callable by agents through the keeper, must never be able to do.
 * Each opens what it needs itself (a restore must not open the store as a keeper would).
 * Exit codes as `binder admin`'s: 0 done, 1 refused, 2 no store, 64 not understood.
 */
import { Command, Option } from 'commander';
import type { StoreSpec, Who } from '../store/index.js';

/** Where the binder is, who acts, and whether the answer is JSON. */
export interface Place {
  store: StoreSpec; who: Who; json: boolean;
  /** With `--org`: the signed-in service's own store (its sessions), and the organisation named. */
  service?: StoreSpec; org?: string;
}
import { runExport } from './run-export.js';
import { IMPORT_FORMATS, runImport, type ImportFlags } from './run-import.js';
import { runBackup, runCheck, runRestore } from './run-backup.js';

/** What a chosen command runs once `binder admin` has read its global options. */
export interface ExchangeRun {
  (place: Place): Promise<number>;
}

export const EXPORT_FORMATS = ['json', 'csv', 'markdown'] as const;

/** Adds the commands to `admin`; `chosen` receives the one given, ready to run. */
export function addExchangeCommands(admin: Command, chosen: (run: ExchangeRun) => void): void {
  admin.command('export')
    .description('Export the binder, or the lists named: JSON (whole, lossless), CSV (a row per record) or Markdown (a file per list).')
    .argument('[LIST...]', 'the lists (all of them by default)')
    .addOption(new Option('--format <FORMAT>', 'json (default), csv or markdown').choices(EXPORT_FORMATS))
    .option('--out <FILE>', 'the file (a folder for markdown); stdout by default')
    .addHelpText('after', '\nExample:\n  binder admin export --out binder.json\n  binder admin export Batches --format csv --out batches.csv')
    .action((lists: string[], o: { format?: (typeof EXPORT_FORMATS)[number]; out?: string }) => {
      chosen((place) => runExport(lists, o, place));
    });
  admin.command('import')
    .description('Import a file in one transaction, all or nothing: a Binder export, CSV, or Taskwarrior\'s, Beads\' or GitHub\'s records.')
    .argument('<FILE>', 'the file')
    .addOption(new Option('--format <FORMAT>', 'json (a Binder export), csv, taskwarrior, beads or github; recognised when not given').choices(IMPORT_FORMATS))
    .option('--into <LIST>', 'the list another tool\'s records (or CSV rows) go into')
    .option('--approved', 'approve the records brought in (never so unless you say)')
    .option('--yes', 'import without asking (CSV as mapped; a Binder file\'s grants and approvals as it says)')
    .addHelpText('after', '\nExamples:\n  binder admin import binder.json\n  task export > tasks.json && binder admin import tasks.json --into Tasks\n  binder admin import people.csv --into People --yes')
    .action((file: string, o: ImportFlags) => {
      chosen((place) => runImport(file, o, place));
    });
  admin.command('backup')
    .description('Copy the binder to a file, consistent even while keepers run (SQLite\'s online backup).')
    .argument('<FILE>', 'the copy to make')
    .addHelpText('after', '\nExample:\n  binder admin backup ~/backups/binder-2026-12-01.db')
    .action((file: string) => {
      chosen((place) => runBackup(file, place));
    });
  admin.command('restore-backup')
    .description('Put a backup in place of the binder, when no keeper has it open (binder admin restore ID un-archives a record).')
    .argument('<FILE>', 'the backup')
    .option('--yes', 'replace the binder without asking')
    .addHelpText('after', '\nExample:\n  binder admin restore-backup ~/backups/binder-2026-12-01.db')
    .action((file: string, o: { yes?: boolean }) => {
      chosen((place) => runRestore(file, o, place));
    });
  admin.command('check')
    .description('Check the binder\'s database, the rows that name others, the search index and the counts; say what was found.')
    .addHelpText('after', '\nExample:\n  binder admin check')
    .action(() => {
      chosen((place) => runCheck(place));
    });
}
