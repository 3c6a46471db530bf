/**
 * `binder admin import FILE`: the file read (its format given or recognised), turned into what it
 * brings, and written by the store in one transaction — all of it, or nothing and the line that
 * was wrong. A CSV's columns are shown mapped to the list's fields before anything is written
 * (`--yes` skips the question). A progress bar on the person's terminal for a long one.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { noInto, openStore, type Store } from '../store/index.js';
import type { ImportFormat, ImportPlan, Imported } from '../store/exchange-types.js';
import { Refused } from '../store/store.js';
import type { List, Who } from '../store/types.js';
import { jsonDocument } from '../agent/cli.js';
import { terminalSafe } from '../keeper/terminal-safe.js';
import { progressMaker, SILENT, type Progress } from './progress.js';
import { readBinderJson } from './read-binder.js';
import { sniff } from './sniff.js';
import { FOREIGN } from './read-foreign.js';

export const IMPORT_FORMATS = ['json', 'csv', 'taskwarrior', 'beads', 'github'] as const;
export type ImportFormatName = (typeof IMPORT_FORMATS)[number];

export interface ImportFlags { format?: ImportFormatName; into?: string; approved?: boolean; yes?: boolean }

/** Text from the file, made safe where it reaches a terminal. */
const shown = (text: string, stream: NodeJS.WriteStream): string => (stream.isTTY ? terminalSafe(text, { multiline: true }) : text);

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^[A-Z]+: /, '') : String(e);
    throw new Refused(`Binder cannot read ${file}: ${why}.`, `Binder ne peut pas lire ${file} : ${why}.`);
  }
}

/** What the file brings, read as `format`, into `list` for another tool's records. */
function planOf(format: ImportFormat, text: string, list: List | undefined): ImportPlan {
  if (format === 'binder') return readBinderJson(text);
  if (!list) throw noInto(format);
  return FOREIGN[format].read(text, list);
}

/** The person's yes, on a terminal; without one (piped), no. */
async function confirmed(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

export function sayImported(d: Imported, plan: ImportPlan): string {
  const lines: string[] = [];
  const where = d.into ? ` into ${d.into}` : '';
  const numbers = d.first !== null ? ` (#${d.first}${d.last !== d.first ? ` to #${d.last}` : ''})` : '';
  const lists = d.lists.length
    ? `${plural(d.lists.length, 'list')} (${d.lists.map((l) => (l.id === l.from ? l.id : `${l.from} as ${l.id}, its id being taken`)).join(', ')}) and `
    : '';
  lines.push(`Imported ${lists}${plural(d.records, 'record')}${where}${numbers}.`);
  if (d.renumbered) lines.push(`${plural(d.renumbered, 'record')} got a new number: theirs was taken here.`);
  if (d.needs) lines.push(`${plural(d.needs, 'need')} between them.`);
  if (d.needsLeftOut) lines.push(`${plural(d.needsLeftOut, 'need')} on records not in the file left out.`);
  if (plan.leftOut.length) lines.push(`Left out: ${plan.leftOut.join('; ')}.`);
  return lines.join('\n');
}

export async function runImport(file: string, o: ImportFlags, place: { storeDir: string; who: Who; json: boolean }): Promise<number> {
  const makeBar = await progressMaker();
  let store: Store;
  try {
    store = openStore(place.storeDir);
  } catch (error) {
    if (error instanceof Refused) { process.stderr.write(`${error.message}\n`); return 2; }
    throw error;
  }
  let bar: Progress = SILENT;
  try {
    const text = readText(file);
    const format: ImportFormat = o.format === undefined ? sniff(text, file) : o.format === 'json' ? 'binder' : o.format;
    if (format === 'binder' && o.approved) {
      throw new Refused('--approved is for other tools\' records: a Binder export keeps its own approvals.',
        '--approved est pour les fiches d\'autres outils : un export de Binder garde ses propres approbations.');
    }
    const list = o.into !== undefined && format !== 'binder' ? store.list(o.into, place.who) : undefined;
    const plan = planOf(format, text, list);
    if (format !== 'binder') {
      const mapping = FOREIGN[format].mapping?.(plan, list!, text);
      if (mapping) {
        process.stdout.write(`${shown(mapping, process.stdout)}\n`);
        if (!o.yes && !(await confirmed(`Import ${plural(plan.records.length, 'row')} into ${list!.title}?`))) {
          process.stderr.write('Nothing imported: run it again with --yes to import as shown.\n');
          return 1;
        }
      }
    }
    bar = makeBar('Importing', plan.records.length);
    const done = store.importBinder(plan, place.who, {
      ...(o.into !== undefined ? { into: o.into } : {}),
      ...(o.approved ? { approved: true } : {}),
      file: basename(file),
      progress: (n) => { if (n % 500 === 0) bar.to(n); },
    });
    bar.stop();
    process.stdout.write(place.json ? `${jsonDocument({ format, ...done, leftOut: plan.leftOut })}\n` : `${shown(sayImported(done, plan), process.stdout)}\n`);
    return 0;
  } catch (error) {
    bar.stop();
    if (error instanceof Refused) {
      process.stderr.write(`Not done: ${shown(error.message, process.stderr)}\nNothing was imported.\n`);
      return 1;
    }
    throw error;
  } finally {
    store.close();
  }
}
