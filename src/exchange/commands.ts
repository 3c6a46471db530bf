/**
 * `binder admin export | import | backup | restore-backup | check`: a person's commands beside
 * the catalog's, not in it, because they read and write files on the person's own machine — which
 * the catalog's operations, callable by agents through the keeper, must never be able to do.
 * Each opens what it needs itself (a restore must not open the store as a keeper would).
 * Exit codes as `binder admin`'s: 0 done, 1 refused, 2 no store, 64 not understood.
 */
import { Command, Option } from 'commander';
import type { Who } from '../store/types.js';
import { runExport } from './run-export.js';

/** What a chosen command runs once `binder admin` has read its global options. */
export interface ExchangeRun {
  (place: { storeDir: string; who: Who; json: boolean }): Promise<number>;
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
}
