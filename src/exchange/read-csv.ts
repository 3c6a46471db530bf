/**
 * CSV rows into records of one list: the header's columns mapped by name — to the list's fields
 * (by name or id), or to a record's own parts (title, state, owners, due, a note, needs, …) — and
 * the mapping said before anything is written. A column that maps to nothing is left out and
 * said; an approval is never read from a file.
 */
import { type Field, type ImportPlan, type IncomingRecord, type List, Refused } from '../store/index.js';
import { parseCsv } from './csv.js';
import { Shown, lines, said } from '../keeper/text-values.js';
import type { ForeignReader } from './read-foreign.js';

type Part = 'key' | 'title' | 'state' | 'owners' | 'due' | 'note' | 'needs' | 'archived' | 'created' | 'updated';

const PARTS: Record<string, Part> = {
  'id': 'key', '#': 'key', 'key': 'key', 'number': 'key',
  'title': 'title', 'name': 'title', 'summary': 'title', 'subject': 'title',
  'state': 'state', 'status': 'state',
  'owners': 'owners', 'owner': 'owners', 'assignee': 'owners', 'assignees': 'owners',
  'due': 'due', 'due date': 'due',
  'note': 'note', 'notes': 'note', 'description': 'note', 'body': 'note', 'comment': 'note',
  'needs': 'needs', 'depends': 'needs', 'depends on': 'needs',
  'archived': 'archived', 'created': 'created', 'updated': 'updated',
};

/** Said of a column that goes nowhere: why. */
const SKIPPED: Record<string, string> = {
  'list': 'the rows go into the list given with --into',
  'approved by': 'an approval is never read from a file (import with --approved to approve them)',
};

interface Column { name: string; part?: Part; field?: Field; why?: Shown }

function columnsOf(header: readonly string[], list: List): Column[] {
  const taken = new Map<string, string>();
  return header.map((raw) => {
    const name = raw.trim();
    const lower = name.toLowerCase();
    const field = list.fields.find((f) => f.name.toLowerCase() === lower || f.id === lower);
    const target = field ? `field:${field.id}` : PARTS[lower];
    if (!target) {
      const skipped = SKIPPED[lower];
      return { name, why: skipped !== undefined ? new Shown(skipped) : said`${list.title} has no field of that name` };
    }
    const before = taken.get(target);
    if (before !== undefined) return { name, why: said`"${before}" gives it already` };
    taken.set(target, name);
    return field ? { name, field } : { name, part: target as Part };
  });
}

const yes = (text: string): boolean => /^(yes|y|true|1|x)$/i.test(text.trim());

function rows(text: string): { header: string[]; body: ReturnType<typeof parseCsv> } {
  const all = parseCsv(text);
  const first = all[0];
  if (!first) throw new Refused('This CSV is empty: there is nothing to import.', 'Ce CSV est vide : il n\'y a rien à importer.');
  return { header: first.cells, body: all.slice(1) };
}

export const CSV_READER: ForeignReader = {
  read(text, list) {
    const { header, body } = rows(text);
    const columns = columnsOf(header, list);
    if (!columns.some((c) => c.part === 'title')) {
      throw new Refused(
        `Line 1: no column holds the titles: name one title (or name, summary). The columns are ${header.join(', ')}.`,
        `Ligne 1 : aucune colonne ne porte les titres : nommez-en une title (ou name, summary). Les colonnes sont ${header.join(', ')}.`,
      );
    }
    const records: IncomingRecord[] = body.map(({ line, cells }) => {
      if (cells.length > header.length && cells.slice(header.length).some((c) => c.trim() !== '')) {
        throw new Refused(`Line ${line}: ${cells.length} cells, but the header names ${header.length}.`,
          `Ligne ${line} : ${cells.length} cellules, mais l'en-tête en nomme ${header.length}.`);
      }
      const r: IncomingRecord = { line, key: `line ${line}`, title: '', fields: {}, owners: [], notes: [], attachments: [], needs: [] };
      columns.forEach((c, i) => {
        const value = cells[i] ?? '';
        if (c.field) { if (value.trim() !== '') r.fields[c.field.id] = value; return; }
        switch (c.part) {
          case undefined: return;
          case 'key': if (value.trim() !== '') r.key = value.trim(); return;
          case 'title': r.title = value; return;
          case 'state': if (value.trim() !== '') r.state = value; return;
          case 'owners': r.owners = value.split(/[;,]/).map((o) => o.trim()).filter((o) => o !== ''); return;
          case 'due': r.due = value; return;
          case 'note': if (value.trim() !== '') r.notes.push({ line, text: value }); return;
          case 'needs': r.needs = value.split(/[\s,;]+/).map((n) => n.replace(/^#/, '')).filter((n) => n !== ''); return;
          case 'archived': r.archived = yes(value); return;
          case 'created': if (value.trim() !== '') r.created = value.trim(); return;
          case 'updated': if (value.trim() !== '') r.updated = value.trim(); return;
          default: {
            const never: never = c.part;
            throw new Error(`unknown part ${String(never)}`);
          }
        }
      });
      r.origin = { format: 'csv', ref: `line ${line}` };
      return r;
    });
    const leftOut = columns.filter((c) => c.why).map((c) => said`the column "${c.name}" (${c.why})`.text);
    return { format: 'csv', lists: [], records, leftOut } satisfies ImportPlan;
  },

  mapping(plan, list, text) {
    const columns = columnsOf(rows(text).header, list);
    const width = Math.min(30, Math.max(...columns.map((c) => c.name.length)));
    const out = [said`${plan.records.length} row${plan.records.length === 1 ? '' : 's'} into ${list.title} (${list.id}), the columns mapped so:`];
    for (const c of columns) {
      const to = c.field ? said`field ${c.field.name}` : c.part === 'note' ? 'a note' : c.part === 'key' ? 'its name in the file (for needs)' : c.part ?? said`left out: ${c.why}`;
      out.push(said`  ${c.name.padEnd(width)} → ${to}`);
    }
    return lines(out);
  },
};
