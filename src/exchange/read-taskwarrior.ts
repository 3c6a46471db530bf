/**
 * Taskwarrior's `task export` (a JSON array of tasks) into records of one list: pending tasks in
 * its first state (a started one where work is done), completed ones in its last, deleted ones
 * and recurring templates left out; annotations become notes, `depends` needs, priority,
 * project and tags the list's fields of those names when it has them (else left out, and said).
 */
import { z } from 'zod';
import { type Field, type IncomingRecord, type List, Refused } from '../store/index.js';
import { children, parsed, topValues } from './json-scan.js';
import { shaped } from './read-binder.js';
import type { ForeignReader } from './read-foreign.js';
import { said } from '../keeper/text-values.js';

const task = z.object({
  uuid: z.string(),
  description: z.string(),
  status: z.string(),
  entry: z.string().optional(),
  modified: z.string().optional(),
  start: z.string().optional(),
  due: z.string().optional(),
  priority: z.string().optional(),
  project: z.string().optional(),
  tags: z.array(z.string()).optional(),
  depends: z.union([z.array(z.string()), z.string()]).optional(),
  annotations: z.array(z.object({ entry: z.string().optional(), description: z.string() })).optional(),
});

/** `20261220T093000Z` → an ISO time. */
export function taskTime(given: string | undefined): string | undefined {
  const m = given ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(given) : null;
  if (!m) return given;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)).toISOString();
}

/** A due time as Binder keeps it: the local date, with the time unless it is midnight. */
export function localDue(isoTime: string | undefined): string | undefined {
  if (!isoTime) return undefined;
  const d = new Date(isoTime);
  if (Number.isNaN(d.getTime())) return isoTime;
  const two = (n: number): string => String(n).padStart(2, '0');
  const day = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  return d.getHours() === 0 && d.getMinutes() === 0 ? day : `${day} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** The list's field of one of these names (any case), if it has one. */
export const fieldNamed = (list: List, ...names: string[]): Field | undefined =>
  list.fields.find((f) => names.includes(f.name.toLowerCase()) || names.includes(f.id));

/** A priority of three levels (0 the highest) as the list's priority field holds it. */
export function priorityValue(field: Field, level: 0 | 1 | 2): string {
  if (field.type === 'number') return String(3 - level);
  const choices = field.choices ?? [];
  if (field.type !== 'choice' || choices.length === 0) return ['High', 'Normal', 'Low'][level]!;
  return level === 0 ? choices[0]! : level === 2 ? choices[choices.length - 1]! : choices[Math.floor((choices.length - 1) / 2)]!;
}

export const TASKWARRIOR_READER: ForeignReader = {
  read(text, list) {
    const top = topValues(text);
    if (top.length !== 1 || text.charCodeAt(top[0]!.start) !== 91) {
      throw new Refused('This is not Taskwarrior\'s export: task export writes one JSON array.', 'Ce n\'est pas un export de Taskwarrior : task export écrit un tableau JSON.');
    }
    const priority = fieldNamed(list, 'priority', 'priorité', 'priorite');
    const project = fieldNamed(list, 'project', 'projet');
    const tags = fieldNamed(list, 'tags', 'tag', 'labels', 'label', 'étiquettes');
    const left = { deleted: 0, recurring: 0, priority: false, project: false, tags: false };
    const records: IncomingRecord[] = [];
    for (const item of children(text, top[0]!)) {
      const t = shaped(task, parsed(text, item), item.line, 'this task');
      if (t.status === 'deleted') { left.deleted++; continue; }
      if (t.status === 'recurring') { left.recurring++; continue; }
      const fields: Record<string, string> = {};
      const level = ({ H: 0, M: 1, L: 2 } as const)[t.priority as 'H' | 'M' | 'L'];
      if (level !== undefined) {
        if (priority) fields[priority.id] = priorityValue(priority, level);
        else left.priority = true;
      }
      if (t.project) {
        if (project) fields[project.id] = t.project;
        else left.project = true;
      }
      if (t.tags?.length) {
        if (tags) fields[tags.id] = t.tags.join(', ');
        else left.tags = true;
      }
      const depends = typeof t.depends === 'string' ? t.depends.split(',') : t.depends ?? [];
      records.push({
        line: item.line, key: t.uuid, title: t.description,
        place: t.status === 'completed' ? 'last' : t.start ? 'doing' : 'first',
        fields, owners: [], due: localDue(taskTime(t.due)) ?? null,
        ...(t.entry ? { created: taskTime(t.entry)! } : {}),
        ...(t.modified ? { updated: taskTime(t.modified)! } : {}),
        notes: (t.annotations ?? []).map((a) => ({ line: item.line, text: a.description, ...(a.entry ? { at: taskTime(a.entry)! } : {}) })),
        attachments: [], needs: depends.map((d) => d.trim()).filter((d) => d !== ''),
        origin: { format: 'taskwarrior', ref: t.uuid },
      });
    }
    const leftOut = [
      left.deleted ? `${left.deleted} deleted task${left.deleted === 1 ? '' : 's'}` : '',
      left.recurring ? `${left.recurring} recurring task${left.recurring === 1 ? '' : 's'} (their pending instances came in)` : '',
      left.priority ? said`priorities (${list.title} has no field Priority)`.text : '',
      left.project ? said`projects (${list.title} has no field Project)`.text : '',
      left.tags ? said`tags (${list.title} has no field Tags)`.text : '',
    ].filter((s) => s !== '');
    return { format: 'taskwarrior', lists: [], records, leftOut };
  },
};
