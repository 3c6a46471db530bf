/**
 * CSV: one row per record, with its list's fields as columns (by name; the union of the lists'
 * fields when several lists are exported, each row with its own). Owners are joined by "; ",
 * needs by spaces; states and fields by name, as a person reads them. Notes and history are not
 * in a CSV: Binder's JSON keeps everything.
 */
import type { ListOut } from '../store/index.js';
import { csvLine } from './csv.js';
import type { Writer } from './export-json.js';
import type { Sink } from './out-file.js';

export const CSV_COLUMNS = ['id', 'list', 'title', 'state', 'approved by', 'owners', 'due', 'archived', 'created', 'updated', 'needs'] as const;

export function binderCsv(sink: Sink): Writer {
  const lists = new Map<string, ListOut>();
  let fields: string[] | null = null;
  const header = (): string[] => {
    if (fields) return fields;
    const names: string[] = [];
    for (const list of lists.values()) for (const f of list.fields) if (!names.some((n) => n.toLowerCase() === f.name.toLowerCase())) names.push(f.name);
    fields = names;
    sink.write(csvLine([...CSV_COLUMNS, ...names]));
    return names;
  };
  return {
    take(piece) {
      switch (piece.kind) {
        case 'begin': return;
        case 'list': lists.set(piece.list.id, piece.list); return;
        case 'record': {
          const names = header();
          const r = piece.record;
          const list = lists.get(r.list)!;
          const byName = (name: string): string => {
            const field = list.fields.find((f) => f.name.toLowerCase() === name.toLowerCase());
            return field ? r.fields[field.id] ?? '' : '';
          };
          sink.write(csvLine([
            String(r.id), list.id, r.title, list.states.find((s) => s.id === r.state)?.name ?? r.state,
            r.approved?.by.name ?? '', r.owners.join('; '), r.due ?? '', r.archived ? 'yes' : '', r.created, r.updated,
            r.needs.join(' '), ...names.map(byName),
          ]));
          return;
        }
        default: {
          const never: never = piece;
          throw new Error(`unknown piece ${JSON.stringify(never)}`);
        }
      }
    },
    end() { header(); },
  };
}
