/**
 * `binder admin import FILE`: the file read (its format given or recognised), turned into what it
 * brings, and written by the store in one transaction — all of it, or nothing and the line that
 * was wrong. A CSV's columns are shown mapped to the list's fields before anything is written
 * (`--yes` skips the question); so is a Binder file that grants agents access or brings approvals.
 * A progress bar on the person's terminal for a long one.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { type Imported, type ImportFormat, type ImportPlan, type List, noInto, Refused } from '../store/index.js';
import type { Place } from './commands.js';
import { storeOf } from './store-of.js';
import { confirmed } from '../keeper/confirm.js';
import { jsonDocument } from '../keeper/json-document.js';
import { Shown, joined, lines, said } from '../keeper/text-values.js';
import { printAnswer, printSentence } from './print.js';
import { progressMaker, SILENT, type Progress } from './progress.js';
import { readBinderJson } from './read-binder.js';
import { sniff } from './sniff.js';
import { FOREIGN } from './read-foreign.js';

export const IMPORT_FORMATS = ['json', 'csv', 'taskwarrior', 'beads', 'github'] as const;
export type ImportFormatName = (typeof IMPORT_FORMATS)[number];

export interface ImportFlags { format?: ImportFormatName; into?: string; approved?: boolean; yes?: boolean }

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


export function sayImported(d: Imported, plan: ImportPlan): string {
  const out: Shown[] = [];
  const where = d.into ? said` into ${d.into}` : '';
  const numbers = d.first !== null ? ` (#${d.first}${d.last !== d.first ? ` to #${d.last}` : ''})` : '';
  const named = d.lists.map((l) => (l.id === l.from ? said`${l.id}` : said`${l.from} as ${l.id}, its id being taken`));
  const lists = d.lists.length ? said`${plural(d.lists.length, 'list')} (${joined(named, ', ')}) and ` : '';
  out.push(said`Imported ${lists}${plural(d.records, 'record')}${where}${numbers}.`);
  if (d.renumbered) out.push(said`${plural(d.renumbered, 'record')} got a new number: theirs was taken here.`);
  if (d.needs) out.push(said`${plural(d.needs, 'need')} between them.`);
  if (d.parents) out.push(said`${plural(d.parents, 'record')} under another of them.`);
  if (d.needsLeftOut) out.push(said`${plural(d.needsLeftOut, 'need')} on records not in the file left out.`);
  // Each left-out piece was said by its reader already.
  if (plan.leftOut.length) out.push(said`Left out: ${joined(plan.leftOut.map((l) => new Shown(l)), '; ')}.`);
  return lines(out);
}

/**
 * What a Binder file would have the binder trust: agents' access to its lists, and records
 * approved (by whom) — someone else may have written it (an agent can write a file a person then
 * imports). Null when it carries neither.
 */
export function trustOf(plan: ImportPlan): string | null {
  const grants = plan.lists.flatMap((l) => Object.entries(l.access ?? {}).map(([agent, level]) => said`${agent.replace(/^agent:/, '')} (${level}) to ${l.title}`));
  const approved = plan.records.filter((r) => r.approved);
  if (grants.length === 0 && approved.length === 0) return null;
  const out: Shown[] = [];
  if (grants.length) out.push(said`This file gives agents access: ${joined(grants.slice(0, 10), ', ')}${grants.length > 10 ? ` and ${grants.length - 10} more` : ''}.`);
  if (approved.length) {
    const by = [...new Set(approved.map((r) => r.approved!.by.name))];
    const shown = approved.slice(0, 5).map((r) => said`"${r.title}"`);
    const more = approved.length > 5 ? ` and ${approved.length - 5} more` : '';
    out.push(said`It brings ${plural(approved.length, 'record')} approved, by ${joined(by.slice(0, 5).map((n) => said`${n}`), ', ')}: ${joined(shown, ', ')}${more}. They pass their lists' gates as soon as they are in.`);
  }
  return lines(out);
}

export async function runImport(file: string, o: ImportFlags, place: Place): Promise<number> {
  const makeBar = await progressMaker();
  const store = await storeOf(place);
  if (!store) return 2;
  let bar: Progress = SILENT;
  try {
    const text = readText(file);
    const format: ImportFormat = o.format === undefined ? sniff(text, file) : o.format === 'json' ? 'binder' : o.format;
    if (format === 'binder' && o.approved) {
      throw new Refused('--approved is for other tools\' records: a Binder export keeps its own approvals.',
        '--approved est pour les fiches d\'autres outils : un export de Binder garde ses propres approbations.');
    }
    const list = o.into !== undefined && format !== 'binder' ? await store.list(o.into, place.who) : undefined;
    const plan = planOf(format, text, list);
    // What a Binder file grants and approves is what a person would: said first, and asked.
    const trusted = format === 'binder' ? trustOf(plan) : null;
    if (trusted) {
      printAnswer(trusted);
      if (!o.yes && !(await confirmed('Import it, with these grants and approvals?'))) {
        printSentence('Nothing imported: run it again with --yes to import it as it says.');
        return 1;
      }
    }
    if (format !== 'binder') {
      const mapping = FOREIGN[format].mapping?.(plan, list!, text);
      if (mapping) {
        printAnswer(mapping);
        if (!o.yes && !(await confirmed(said`Import ${plural(plan.records.length, 'row')} into ${list!.title}?`.text))) {
          printSentence('Nothing imported: run it again with --yes to import as shown.');
          return 1;
        }
      }
    }
    bar = makeBar('Importing', plan.records.length);
    const done = await store.importBinder(plan, place.who, {
      ...(o.into !== undefined ? { into: o.into } : {}),
      ...(o.approved ? { approved: true } : {}),
      file: basename(file),
      progress: (n) => { if (n % 500 === 0) bar.to(n); },
    });
    bar.stop();
    if (place.json) process.stdout.write(`${jsonDocument({ format, ...done, leftOut: plan.leftOut })}\n`);
    else printAnswer(sayImported(done, plan));
    return 0;
  } catch (error) {
    bar.stop();
    if (error instanceof Refused) {
      printSentence(`Not done: ${error.message}`);
      printSentence('Nothing was imported.');
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}
