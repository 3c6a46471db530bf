/**
 * Beads' JSON Lines (`.beads/issues.jsonl`, an issue a line) into records of one list: open and
 * blocked issues in its first state, in-progress ones where work is done, closed ones in its
 * last, deleted ones (tombstones) left out; a `blocks` dependency becomes a need, the others an
 * attached record; the description, design, acceptance criteria, notes and comments become
 * notes; priority, type and labels the list's fields of those names when it has them.
 */
import { z } from 'zod';
import type { IncomingRecord, List } from '../store/index.js';
import { parsed, topValues } from './json-scan.js';
import { shaped } from './read-binder.js';
import type { ForeignReader } from './read-foreign.js';
import { fieldNamed, priorityValue } from './read-taskwarrior.js';
import { said } from '../keeper/text-values.js';

const issue = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  design: z.string().optional(),
  acceptance_criteria: z.string().optional(),
  notes: z.string().optional(),
  status: z.string().optional(),
  priority: z.number().int().optional(),
  issue_type: z.string().optional(),
  assignee: z.string().optional(),
  labels: z.array(z.string()).optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  closed_at: z.string().optional(),
  close_reason: z.string().optional(),
  dependencies: z.array(z.object({ depends_on_id: z.string(), type: z.string() })).optional(),
  comments: z.array(z.object({ author: z.string().optional(), text: z.string(), created_at: z.string().optional() })).optional(),
});

const PLACES: Record<string, IncomingRecord['place']> = { closed: 'last', in_progress: 'doing' };

export const BEADS_READER: ForeignReader = {
  read(text, list: List) {
    const priority = fieldNamed(list, 'priority', 'priorité', 'priorite');
    const type = fieldNamed(list, 'type', 'kind', 'issue type');
    const labels = fieldNamed(list, 'labels', 'label', 'tags', 'étiquettes');
    const left = { tombstones: 0, priority: false, type: false, labels: false };
    const records: IncomingRecord[] = [];
    const lines = topValues(text);
    const keys = new Set(lines.map((span) => {
      const value = parsed(text, span) as { id?: unknown };
      return typeof value?.id === 'string' ? value.id : '';
    }));
    let linksLeftOut = 0;
    for (const span of lines) {
      const b = shaped(issue, parsed(text, span), span.line, 'this issue');
      if (b.status === 'tombstone') { left.tombstones++; continue; }
      const fields: Record<string, string> = {};
      if (b.priority !== undefined) {
        if (priority) fields[priority.id] = priorityValue(priority, b.priority <= 1 ? 0 : b.priority === 2 ? 1 : 2);
        else left.priority = true;
      }
      if (b.issue_type) {
        if (type) fields[type.id] = type.type === 'choice' ? (type.choices ?? []).find((c) => c.toLowerCase() === b.issue_type) ?? b.issue_type : b.issue_type;
        else left.type = true;
      }
      if (b.labels?.length) {
        if (labels) fields[labels.id] = b.labels.join(', ');
        else left.labels = true;
      }
      const notes: IncomingRecord['notes'] = [];
      const noted = (textOf: string | undefined, head: string, at?: string): void => {
        if (textOf && textOf.trim() !== '') notes.push({ line: span.line, text: `${head}${textOf}`, ...(at ? { at } : {}) });
      };
      noted(b.description, '', b.created_at);
      noted(b.design, 'Design: ', b.created_at);
      noted(b.acceptance_criteria, 'Acceptance criteria: ', b.created_at);
      noted(b.notes, 'Notes: ', b.updated_at);
      for (const c of b.comments ?? []) noted(c.text, c.author ? `${c.author}: ` : '', c.created_at);
      noted(b.close_reason, 'Closed: ', b.closed_at);
      const needs: string[] = [];
      const attachments: IncomingRecord['attachments'] = [];
      let parent: string | undefined;
      for (const d of b.dependencies ?? []) {
        if (!keys.has(d.depends_on_id)) { linksLeftOut++; continue; }
        if (d.type === 'blocks') needs.push(d.depends_on_id);
        // A child's link names its parent: the first is the record it lies under.
        else if (d.type === 'parent-child' && parent === undefined) parent = d.depends_on_id;
        else attachments.push({ kind: 'record', ref: d.depends_on_id, record: d.depends_on_id, title: d.type === 'parent-child' ? 'parent' : d.type });
      }
      records.push({
        line: span.line, key: b.id, title: b.title, place: PLACES[b.status ?? 'open'] ?? 'first',
        fields, owners: b.assignee ? [b.assignee] : [],
        ...(b.created_at ? { created: b.created_at } : {}),
        ...(b.updated_at ? { updated: b.updated_at } : {}),
        notes, attachments, needs, ...(parent !== undefined ? { parent } : {}),
        origin: { format: 'beads', ref: b.id },
      });
    }
    const leftOut = [
      left.tombstones ? `${left.tombstones} deleted issue${left.tombstones === 1 ? '' : 's'}` : '',
      linksLeftOut ? `${linksLeftOut} link${linksLeftOut === 1 ? '' : 's'} to issues not in the file` : '',
      left.priority ? said`priorities (${list.title} has no field Priority)`.text : '',
      left.type ? said`types (${list.title} has no field Type)`.text : '',
      left.labels ? said`labels (${list.title} has no field Labels)`.text : '',
    ].filter((s) => s !== '');
    return { format: 'beads', lists: [], records, leftOut };
  },
};
