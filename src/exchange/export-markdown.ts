/**
 * Markdown: one file per list, readable as a code host shows it — the list's states and fields,
 * a table per state (archived records last), then the notes of the records that have some.
 * Every piece of text is escaped to stay text: no link, image, HTML or table cell can be made
 * by what an agent wrote.
 */
import type { ListOut, RecordOut } from '../store/index.js';
import type { Writer } from './export-json.js';

/** Inline text, escaped: on one line, no markup of its own. */
export const md = (text: string): string =>
  text.replace(/\r\n|\r|\n/g, ' ').replace(/[\\`*_[\]<>|~&$]/g, (c) => `\\${c}`);

const shortTime = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

interface Page { list: ListOut; records: RecordOut[] }

function listPage({ list, records }: Page, exported: string): string {
  const out: string[] = [`# ${md(list.title)}`, ''];
  const states = list.states.map((s) => `${md(s.name)}${s.gate ? ' (gate)' : ''}`).join(' → ');
  const fields = list.fields.length ? ` Fields: ${list.fields.map((f) => `${md(f.name)} (${f.type})`).join(', ')}.` : '';
  out.push(`Exported from Binder on ${shortTime(exported)}: ${records.length} record${records.length === 1 ? '' : 's'}${list.archived ? ', the list archived' : ''}. States: ${states}.${fields}`, '');
  const head = ['#', 'Title', 'Owners', 'Due', ...list.fields.map((f) => md(f.name)), 'Needs', 'Notes'];
  const table = (rows: RecordOut[]): void => {
    out.push(`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 || i === head.length - 1 ? '---:' : '---')).join('|')}|`);
    for (const r of rows) {
      const approved = list.states.some((s) => s.gate) && r.approved ? ' ✓' : '';
      out.push(`| ${[
        String(r.id), `${md(r.title)}${approved}`, md(r.owners.join(', ')), md(r.due ?? ''),
        ...list.fields.map((f) => md(r.fields[f.id] ?? '')), r.needs.map((n) => `#${n}`).join(' '), r.notes.length ? String(r.notes.length) : '',
      ].join(' | ')} |`);
    }
    out.push('');
  };
  for (const state of list.states) {
    const rows = records.filter((r) => !r.archived && r.state === state.id);
    if (rows.length === 0) continue;
    out.push(`## ${md(state.name)} (${rows.length})`, '');
    table(rows);
  }
  const archived = records.filter((r) => r.archived);
  if (archived.length) {
    out.push(`## Archived (${archived.length})`, '');
    table(archived);
  }
  const noted = records.filter((r) => r.notes.length);
  if (noted.length) {
    out.push('## Notes', '');
    for (const r of noted) {
      out.push(`### #${r.id} ${md(r.title)}`, '');
      for (const n of r.notes) {
        const text = n.text.split(/\r\n|\r|\n/).map(md).join('<br>');
        out.push(`- **${md(n.by.name)}**, ${shortTime(n.at)}${n.edited ? ' (edited)' : ''}: ${text}`);
      }
      out.push('');
    }
  }
  if (list.states.some((s) => s.gate)) out.push('✓: approved by a person.', '');
  return out.join('\n');
}

/** Markdown of each list, handed to `put` as (list id, text) once all its records are read. */
export function binderMarkdown(exported: string, put: (list: string, text: string) => void): Writer {
  const pages = new Map<string, Page>();
  return {
    take(piece) {
      switch (piece.kind) {
        case 'begin': return;
        case 'list': pages.set(piece.list.id, { list: piece.list, records: [] }); return;
        case 'record': pages.get(piece.record.list)!.records.push(piece.record); return;
        default: {
          const never: never = piece;
          throw new Error(`unknown piece ${JSON.stringify(never)}`);
        }
      }
    },
    end() {
      for (const page of pages.values()) put(page.list.id, listPage(page, exported));
    },
  };
}
