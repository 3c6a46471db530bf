/**
 * The readers of other tools' files, one per format: each turns a file into what it brings for
 * the list it goes into (its states and fields decide where each thing of the file goes, and
 * what is left out). A reader may also say how it maps the file, to be shown before anything is
 * written (CSV's columns).
 */
import type { ImportFormat, ImportPlan, List } from '../store/index.js';
import { CSV_READER } from './read-csv.js';
import { TASKWARRIOR_READER } from './read-taskwarrior.js';
import { BEADS_READER } from './read-beads.js';
import { GITHUB_READER } from './read-github.js';

export interface ForeignReader {
  read(text: string, list: List): ImportPlan;
  /** How the file's parts map to the list, to show first; null to write at once. */
  mapping?(plan: ImportPlan, list: List, text: string): string | null;
}

export const FOREIGN: Record<Exclude<ImportFormat, 'binder'>, ForeignReader> = {
  csv: CSV_READER,
  taskwarrior: TASKWARRIOR_READER,
  beads: BEADS_READER,
  github: GITHUB_READER,
};
