/**
 * GitHub issues as `gh issue list --json …` prints them (a JSON array) into records of one list:
 * open issues in its first state, closed ones in its last; the body and comments become notes
 * (each starting with its author's login), assignees owners, the issue's page an attached link,
 * labels and the milestone the list's fields of those names when it has them.
 */
import { z } from 'zod';
import { type IncomingRecord, type List, Refused } from '../store/index.js';
import { children, parsed, topValues } from './json-scan.js';
import { shaped } from './read-binder.js';
import type { ForeignReader } from './read-foreign.js';
import { fieldNamed } from './read-taskwarrior.js';
import { said } from '../keeper/text-values.js';

const login = z.object({ login: z.string() }).nullable().optional();
const ghIssue = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string().optional(),
  state: z.string().optional(),
  stateReason: z.string().optional(),
  url: z.string().optional(),
  author: login,
  assignees: z.array(z.object({ login: z.string() })).optional(),
  labels: z.array(z.object({ name: z.string() })).optional(),
  milestone: z.object({ title: z.string() }).nullable().optional(),
  comments: z.array(z.object({ author: login, body: z.string(), createdAt: z.string().optional() })).optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  closedAt: z.string().nullable().optional(),
});

/** GitHub's CLI writes Go's zero time for a time that is not there. */
const when = (at: string | null | undefined): string | undefined => (at && !at.startsWith('0001-01-01') ? at : undefined);

export const GITHUB_READER: ForeignReader = {
  read(text, list: List) {
    const top = topValues(text);
    if (top.length !== 1 || text.charCodeAt(top[0]!.start) !== 91) {
      throw new Refused('This is not gh issue list --json: it writes one JSON array.', 'Ce n\'est pas gh issue list --json : il écrit un tableau JSON.');
    }
    const labels = fieldNamed(list, 'labels', 'label', 'tags', 'étiquettes');
    const milestone = fieldNamed(list, 'milestone', 'jalon');
    const left = { labels: false, milestone: false };
    const records: IncomingRecord[] = [];
    for (const item of children(text, top[0]!)) {
      const g = shaped(ghIssue, parsed(text, item), item.line, 'this issue');
      const fields: Record<string, string> = {};
      if (g.labels?.length) {
        if (labels) fields[labels.id] = g.labels.map((l) => l.name).join(', ');
        else left.labels = true;
      }
      if (g.milestone?.title) {
        if (milestone) fields[milestone.id] = g.milestone.title;
        else left.milestone = true;
      }
      const notes: IncomingRecord['notes'] = [];
      const by = (who: { login: string } | null | undefined): string => (who?.login ? `${who.login}: ` : '');
      if (g.body && g.body.trim() !== '') notes.push({ line: item.line, text: `${by(g.author)}${g.body}`, ...(when(g.createdAt) ? { at: when(g.createdAt)! } : {}) });
      for (const c of g.comments ?? []) {
        if (c.body.trim() !== '') notes.push({ line: item.line, text: `${by(c.author)}${c.body}`, ...(when(c.createdAt) ? { at: when(c.createdAt)! } : {}) });
      }
      const closed = g.state === 'CLOSED';
      if (closed && g.stateReason === 'NOT_PLANNED') notes.push({ line: item.line, text: 'Closed on GitHub as not planned.', ...(when(g.closedAt) ? { at: when(g.closedAt)! } : {}) });
      records.push({
        line: item.line, key: String(g.number), title: g.title, place: closed ? 'last' : 'first',
        fields, owners: (g.assignees ?? []).map((a) => a.login),
        ...(when(g.createdAt) ? { created: when(g.createdAt)! } : {}),
        ...(when(g.updatedAt) ? { updated: when(g.updatedAt)! } : {}),
        notes,
        attachments: g.url ? [{ kind: 'link', ref: g.url, title: `GitHub #${g.number}` }] : [],
        needs: [],
        origin: { format: 'github', ref: g.url ?? `#${g.number}` },
      });
    }
    const leftOut = [
      left.labels ? said`labels (${list.title} has no field Labels)`.text : '',
      left.milestone ? said`milestones (${list.title} has no field Milestone)`.text : '',
    ].filter((s) => s !== '');
    return { format: 'github', lists: [], records, leftOut };
  },
};
