/**
 * Reading Binder's own JSON export into what an import brings: its lists and records whole, each
 * with its line. Only the shape is checked here (a name is a string, a state an object…); the
 * binder's rules (titles, states, gates, fields, owners, due dates) are the store's to check.
 */
import { z } from 'zod';
import { FIELD_TYPES, type FieldType, type ImportPlan, type IncomingList, type IncomingRecord, Refused } from '../store/index.js';
import { BINDER_FORMAT, BINDER_VERSION } from './export-json.js';
import { children, parsed, topValues, type Span } from './json-scan.js';

const who = z.object({ id: z.string(), kind: z.enum(['person', 'agent']), name: z.string() });
const row = z.object({ at: z.string(), by: who, op: z.string(), change: z.unknown() });
const list = z.object({
  id: z.string(),
  title: z.string(),
  states: z.array(z.object({ id: z.string(), name: z.string(), gate: z.boolean() })),
  fields: z.array(z.object({ id: z.string(), name: z.string(), type: z.enum(FIELD_TYPES as [FieldType, ...FieldType[]]), choices: z.array(z.string()).optional() })),
  view: z.enum(['board', 'table']),
  archived: z.boolean(),
  position: z.number().optional(),
  childrenFirst: z.boolean().optional(),
  access: z.record(z.string(), z.enum(['read', 'write'])),
  created: z.string(),
  updated: z.string(),
  history: z.array(row),
});
const record = z.object({
  id: z.number().int().positive(),
  list: z.string(),
  title: z.string(),
  state: z.string(),
  approved: z.object({ by: who, at: z.string() }).nullable(),
  fields: z.record(z.string(), z.string()),
  owners: z.array(z.string()),
  due: z.string().nullable(),
  dueTold: z.boolean().optional(),
  archived: z.boolean(),
  created: z.string(),
  updated: z.string(),
  notes: z.array(z.object({ id: z.number().int(), at: z.string(), by: who, text: z.string(), edited: z.boolean() })),
  attachments: z.array(z.object({ id: z.number().int(), kind: z.string(), ref: z.string(), title: z.string(), at: z.string(), by: who })),
  needs: z.array(z.number().int()),
  parent: z.number().int().positive().optional(),
  history: z.array(row),
});

/** The first thing zod found wrong, as `where: what`. */
export function shapeProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'it';
  return `${where}: ${issue?.message ?? 'not understood'}`;
}

/** `value` checked against `schema`, or a refusal naming the line and what is wrong. */
export function shaped<T>(schema: z.ZodType<T>, value: unknown, line: number, what: string): T {
  const got = schema.safeParse(value);
  if (got.success) return got.data;
  const problem = shapeProblem(got.error);
  throw new Refused(`Line ${line}: ${what} is not understood (${problem}).`, `Ligne ${line} : ${what} n'est pas compris (${problem}).`);
}

/** Does `text` begin as Binder's own export? */
export const isBinderJson = (text: string): boolean => /^\uFEFF?\s*\{\s*"format"\s*:\s*"binder"/.test(text.slice(0, 200));

export function readBinderJson(text: string): ImportPlan {
  const top = topValues(text);
  if (top.length !== 1 || text.charCodeAt(top[0]!.start) !== 123) {
    throw new Refused('This is not a Binder export: it is not one JSON object.', 'Ce n\'est pas un export de Binder : ce n\'est pas un objet JSON.');
  }
  const lists: IncomingList[] = [];
  const records: IncomingRecord[] = [];
  let format: unknown;
  let version: unknown;
  const each = (span: Span, take: (item: Span) => void): void => {
    for (const item of children(text, span)) take(item);
  };
  for (const member of children(text, top[0]!)) {
    switch (member.key) {
      case 'format': format = parsed(text, member); break;
      case 'version': version = parsed(text, member); break;
      case 'lists':
        each(member, (item) => {
          const l = shaped(list, parsed(text, item), item.line, 'this list');
          lists.push({ ...l, line: item.line });
        });
        break;
      case 'records':
        each(member, (item) => {
          const r = shaped(record, parsed(text, item), item.line, 'this record');
          records.push({
            line: item.line, key: String(r.id), list: r.list, title: r.title, state: r.state, approved: r.approved,
            fields: r.fields, owners: r.owners, due: r.due, dueTold: r.dueTold === true, archived: r.archived,
            created: r.created, updated: r.updated,
            notes: r.notes.map((n) => ({ id: n.id, at: n.at, by: n.by, text: n.text, edited: n.edited })),
            attachments: r.attachments.map((a) => ({ id: a.id, kind: a.kind, ref: a.ref, title: a.title, at: a.at, by: a.by })),
            needs: r.needs.map(String),
            ...(r.parent !== undefined ? { parent: String(r.parent) } : {}),
            history: r.history,
          });
        });
        break;
      default: break;
    }
  }
  if (format !== BINDER_FORMAT) {
    throw new Refused('This is not a Binder export: it does not say "format": "binder".', 'Ce n\'est pas un export de Binder : il ne dit pas « "format": "binder" ».');
  }
  if (typeof version !== 'number' || version > BINDER_VERSION) {
    throw new Refused(
      `This export is of version ${String(version)}, made by a newer Binder: import it with that version.`,
      `Cet export est de la version ${String(version)}, fait par un Binder plus récent : importez-le avec cette version-là.`,
    );
  }
  return { format: 'binder', lists, records, leftOut: [] };
}
