/**
 * The screen's forms, made from the catalog: each field is an argument of the operation it
 * fills (its label and hint from the words, its choices from the catalog), plus a list's own
 * fields. And back: a submitted form (or a picked choice) to the one `keeper.act` it means.
 * Pure; it never calls the keeper.
 */
import { operation, type OpName } from '../keeper/operations.js';
import { LIMITS } from '../store/light.js';
import type { List, RecordFull } from '../store/index.js';
import { safe } from './format.js';
import type { Choice, Dialog, FormField, Intent } from './screen-state.js';
import type { ArgName, Words } from './words.js';

const FIELD = 'field:';

/** How many characters each argument's field takes: the store's own limits, so a paste is cut where the store would refuse. */
const ARG_MAX: Partial<Record<ArgName, number>> = {
  title: LIMITS.title, text: LIMITS.note, note: LIMITS.note, ref: LIMITS.ref, name: LIMITS.name,
  due: 40, owners: LIMITS.value, dir: 4096,
};

/** The arguments that are a note's text: they keep their line breaks. */
const LINES: ReadonlySet<ArgName> = new Set<ArgName>(['text', 'note']);

function argField(op: OpName, name: ArgName, words: Words): FormField {
  const spec = operation(op)?.args[name];
  const { label, hint } = words.arg(op, name);
  if (spec?.kind === 'choice' && spec.choices) {
    return { name, label, hint, kind: 'choice', choices: spec.choices.map((c) => ({ value: c, label: c })) };
  }
  return { name, label, hint, kind: 'text', max: ARG_MAX[name] ?? LIMITS.value, ...(LINES.has(name) ? { lines: true as const } : {}) };
}

/** The due date's field, its example a day that means something today (tomorrow). */
function dueField(op: OpName, words: Words, now: number): FormField {
  return { ...argField(op, 'due', words), hint: words.dueHint(exampleDay(now)) };
}

/** Tomorrow as `YYYY-MM-DD`, local: an example date that is never in the past. */
export function exampleDay(now: number): string {
  const d = new Date(now + 86_400_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** A list's own fields, as form fields named `field:<id>`. */
function listFields(list: List): FormField[] {
  return list.fields.map((f) => f.type === 'choice'
    ? { name: FIELD + f.id, label: safe(f.name), hint: f.type, kind: 'choice', choices: [{ value: '', label: '—' }, ...(f.choices ?? []).map((c) => ({ value: c, label: safe(c) }))] }
    : { name: FIELD + f.id, label: safe(f.name), hint: f.type, kind: 'text', max: LIMITS.value });
}

function form(op: OpName, words: Words, fields: FormField[], intent: Intent, initial: Record<string, string> = {}, title?: string): Dialog {
  const values: Record<string, string> = {};
  for (const f of fields) values[f.name] = initial[f.name] ?? (f.kind === 'choice' ? f.choices?.[0]?.value ?? '' : '');
  const { title: opTitle, describe } = words.op(op);
  const first = fields[0];
  return { kind: 'form', title: title ?? opTitle, describe, fields, values, initial: { ...values }, focus: 0, caret: first ? (values[first.name] ?? '').length : 0, intent };
}

export function addForm(list: List, state: string | undefined, words: Words, now: number): Dialog {
  const stateField: FormField = {
    ...argField('add', 'state', words),
    kind: 'choice',
    choices: list.states.map((s) => ({ value: s.id, label: safe(s.name) })),
  };
  const fields = [argField('add', 'title', words), stateField, dueField('add', words, now), argField('add', 'owners', words), argField('add', 'note', words), ...listFields(list)];
  return form('add', words, fields, { do: 'add', list: list.id }, state ? { state } : {});
}

/** `parent`: the number of the record it lies under, if it does (emptied, it lies under none); its field comes last. */
export function editForm(record: RecordFull, list: List, words: Words, now: number, parent?: number): Dialog {
  const fields = [argField('edit', 'title', words), dueField('edit', words, now), argField('edit', 'owners', words), ...listFields(list), argField('edit', 'parent', words)];
  const initial: Record<string, string> = { title: safe(record.title), due: safe(record.due ?? ''), owners: safe(record.owners.join(', ')), parent: parent === undefined ? '' : String(parent) };
  for (const f of list.fields) initial[FIELD + f.id] = safe(record.fields[f.id] ?? '');
  return form('edit', words, fields, { do: 'edit', id: record.id }, initial, `${words.op('edit').title} #${record.id}`);
}

export const noteForm = (id: number, words: Words): Dialog =>
  form('note', words, [argField('note', 'text', words)], { do: 'note', id }, {}, `${words.op('note').title} #${id}`);

export const editNoteForm = (id: number, note: number, text: string, words: Words): Dialog =>
  form('edit-note', words, [argField('edit-note', 'text', words)], { do: 'edit-note', id, note }, { text: safe(text) }, words.dialog.editNote);

export const attachForm = (id: number, words: Words): Dialog =>
  form('attach', words, [argField('attach', 'kind', words), argField('attach', 'ref', words), argField('attach', 'title', words)], { do: 'attach', id }, {}, `${words.op('attach').title} #${id}`);

/** What a record needs done first, as numbers the person adds to or takes from (`12 14`). */
export const needsForm = (id: number, needs: readonly number[], words: Words): Dialog =>
  form('needs', words, [argField('needs', 'others', words)], { do: 'needs', id }, { others: needs.join(' ') }, `${words.op('needs').title} #${id}`);

/** The needs a submitted form adds, then those it takes away: one act each way, either left out when empty. */
export function needsActs(dialog: Extract<Dialog, { kind: 'form' }>): Act[] {
  return dialog.intent.do === 'needs' ? needsChanges(dialog.intent.id, dialog.initial.others, dialog.values.others) : [];
}

/** What record `id` needs, changed from the numbers `before` to the numbers `after`: one act each way, either left out when empty. */
export function needsChanges(id: number, before: string | undefined, after: string | undefined): Act[] {
  const numbers = (text: string | undefined) => (text ?? '').split(/[\s,]+/).map((w) => w.replace(/^#/, '')).filter((w) => w !== '');
  const now = numbers(after);
  const was = numbers(before);
  const added = now.filter((n) => !was.includes(n));
  const removed = was.filter((n) => !now.includes(n));
  return [
    ...(added.length ? [{ op: 'needs' as const, args: { id, others: added.join(' ') } }] : []),
    ...(removed.length ? [{ op: 'needs' as const, args: { id, others: removed.join(' '), remove: true } }] : []),
  ];
}

/**
 * A record with records under it, deleted: what becomes of them, as the store's delete asks —
 * left under nothing, deleted too, or nothing deleted (where the cursor starts: Enter alone
 * deletes nothing).
 */
export const deleteParentPick = (id: number, title: string, children: readonly number[], notes: number, attached: number, words: Words): Dialog => pick(
  words.dialog.deleteParent(id, title, children.map((c) => `#${c}`).join(', '), notes, attached),
  [{ value: 'orphan', label: words.dialog.childrenOrphan }, { value: 'delete', label: words.dialog.childrenDelete }, { value: '', label: words.dialog.deleteNothing }],
  { do: 'delete-parent', id }, '',
);

/** A record's number, to go to it from anywhere (`#` or `:`). */
export const goToForm = (words: Words): Dialog =>
  form('get', words, [argField('get', 'id', words)], { do: 'go-to' }, {}, words.dialog.goTo);

/** The number a go-to form holds (`5301` or `#5301`), or null when it holds none. */
export const numberTyped = (text: string | undefined): number | null => {
  const m = /^\s*#?(\d{1,15})\s*$/.exec(text ?? '');
  return m ? Number(m[1]) : null;
};

export const createListForm = (template: string, title: string, words: Words): Dialog =>
  form('create-list', words, [argField('create-list', 'title', words)], { do: 'create-list', template }, { title });

/** The folder, its name, and whether to make the folder when it is not there (the screen's own field: the catalog registers only what exists). */
export const sideAddForm = (words: Words): Dialog =>
  form('side-add', words, [
    argField('side-add', 'dir', words),
    argField('side-add', 'name', words),
    { name: 'create', label: words.sides.createLabel, hint: words.sides.createHint, kind: 'choice', choices: [{ value: 'no', label: words.sides.no }, { value: 'yes', label: words.sides.yes }] },
  ], { do: 'side-add' });

/** Words the open list's records must hold (`f`): empty shows them all. */
export const filterForm = (text: string, words: Words): Dialog => ({
  kind: 'form', title: words.filter.title, describe: words.filter.describe,
  fields: [{ name: 'text', label: words.filter.label, hint: words.filter.hint, kind: 'text', max: LIMITS.value }],
  values: { text }, initial: { text }, focus: 0, caret: text.length, intent: { do: 'filter-text' },
});

/** `~` or `~/…` at the start of a folder typed, as the home folder; anything else as typed. */
export function expandHome(dir: string, home: string | undefined): string {
  const trimmed = dir.trim();
  if (!home) return trimmed;
  if (trimmed === '~') return home;
  return trimmed.startsWith('~/') ? `${home.replace(/\/$/, '')}${trimmed.slice(1)}` : trimmed;
}

export const listTitleForm = (list: List, words: Words): Dialog =>
  form('edit-list', words, [argField('edit-list', 'title', words)], { do: 'list-title', list: list.id }, { title: safe(list.title) });

/**
 * A new state's name and its place: before any state or at the end, before the last state unless
 * the person says otherwise — the last state is where records end (Done), so a state made after
 * it would silently become the end.
 */
export function stateAddForm(list: List, words: Words): Dialog {
  const le = words.listEditor;
  const n = list.states.length;
  const places: Choice[] = [
    ...list.states.map((s, i) => ({ value: String(i + 1), label: le.beforeState(safe(s.name)) })),
    { value: String(n + 1), label: le.atTheEnd(safe(list.states[n - 1]?.name ?? '')) },
  ];
  const fields: FormField[] = [
    { name: 'name', label: le.newState, hint: '', kind: 'text', max: LIMITS.name },
    { name: 'place', label: le.statePlace, hint: le.statePlaceHint, kind: 'choice', choices: places },
  ];
  return form('edit-list', words, fields, { do: 'state-add', list: list.id }, { place: String(Math.max(1, n)) });
}

export const stateRenameForm = (list: List, state: string, name: string, words: Words): Dialog =>
  form('edit-list', words, [{ name: 'name', label: words.listEditor.renameTo, hint: '', kind: 'text', max: LIMITS.name }], { do: 'state-rename', list: list.id, state }, { name: safe(name) });

export const fieldAddForm = (list: List, words: Words): Dialog =>
  form('edit-list', words, [{ name: 'spec', label: words.listEditor.newField, hint: words.listEditor.fieldHint, kind: 'text', max: LIMITS.value }], { do: 'field-add', list: list.id });

export function pick(title: string, choices: Choice[], intent: Intent, current?: string): Dialog {
  return { kind: 'pick', title, choices, at: Math.max(0, choices.findIndex((c) => c.value === current)), intent };
}

export function confirm(text: string, intent: Intent, expect?: string): Dialog {
  return { kind: 'confirm', text, typed: expect === undefined ? null : { expect, value: '', caret: 0 }, intent };
}

/** Owners as typed: ids or names, split on commas and spaces. */
export function ownersOf(text: string): string[] {
  return text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
}

/** One operation with its arguments, ready for `keeper.act`. */
export interface Act {
  op: OpName;
  args: Record<string, unknown>;
}

/** Values typed for a list's fields: all of them (`changedOnly` false) or only those changed. */
function fieldValues(values: Record<string, string>, initial: Record<string, string>, changedOnly: boolean): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (!name.startsWith(FIELD)) continue;
    if (changedOnly ? value === initial[name] : value === '') continue;
    out[name.slice(FIELD.length)] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * What a dialog's yes means, as one act; null when it needs none (a filter, a template picked:
 * the commands handle those) or when nothing was changed.
 */
export function actOf(dialog: Dialog, picked?: string): Act | null {
  const v = dialog.kind === 'form' ? dialog.values : {};
  const initial = dialog.kind === 'form' ? dialog.initial : {};
  const changed = (name: string) => v[name] !== initial[name];
  const intent = dialog.intent;
  switch (intent.do) {
    case 'add': {
      const args: Record<string, unknown> = { list: intent.list, title: v.title ?? '' };
      if (v.state) args.state = v.state;
      if (v.due?.trim()) args.due = v.due.trim();
      if (v.owners?.trim()) args.owners = ownersOf(v.owners);
      if (v.note?.trim()) args.note = v.note;
      const fields = fieldValues(v, initial, false);
      if (fields) args.fields = fields;
      return { op: 'add', args };
    }
    case 'edit': {
      const args: Record<string, unknown> = { id: intent.id };
      if (changed('title')) args.title = v.title;
      if (changed('due')) args.due = v.due?.trim() || 'none';
      if (changed('owners')) args.owners = ownersOf(v.owners ?? '');
      if (changed('parent')) args.parent = v.parent?.trim() || 'none';
      const fields = fieldValues(v, initial, true);
      if (fields) args.fields = fields;
      return Object.keys(args).length > 1 ? { op: 'edit', args } : null;
    }
    case 'note': return { op: 'note', args: { id: intent.id, text: v.text ?? '' } };
    case 'edit-note': return changed('text') ? { op: 'edit-note', args: { id: intent.id, note: intent.note, text: v.text ?? '' } } : null;
    case 'needs': return dialog.kind === 'form' ? needsActs(dialog)[0] ?? null : null;
    case 'attach': {
      const args: Record<string, unknown> = { id: intent.id, kind: v.kind, ref: v.ref ?? '' };
      if (v.title?.trim()) args.title = v.title;
      return { op: 'attach', args };
    }
    case 'delete': return { op: 'delete', args: { id: intent.id } };
    case 'delete-parent': return picked === 'orphan' || picked === 'delete' ? { op: 'delete', args: { id: intent.id, children: picked } } : null;
    case 'release': return { op: 'release', args: { id: intent.id } };
    case 'withdraw': return { op: 'approve', args: { id: intent.id, withdraw: true } };
    case 'state-remove': return { op: 'edit-list', args: { list: intent.list, removeState: [intent.state] } };
    case 'move': return picked ? { op: 'move', args: { id: intent.id, state: picked } } : null;
    case 'create-list': {
      const args: Record<string, unknown> = { template: intent.template };
      if (v.title?.trim()) args.title = v.title.trim();
      return { op: 'create-list', args };
    }
    case 'delete-list': return { op: 'delete-list', args: { list: intent.list } };
    case 'side-add': return { op: 'side-add', args: { dir: v.dir ?? '', name: v.name ?? '' } };
    case 'list-title': return changed('title') ? { op: 'edit-list', args: { list: intent.list, title: v.title } } : null;
    case 'state-add': {
      const name = v.name?.trim();
      if (!name) return null;
      // Made at the end, then put in its place, in one change (`moveState` counts from 1).
      return { op: 'edit-list', args: { list: intent.list, addState: [name], ...(v.place ? { moveState: [`${name}=${v.place}`] } : {}) } };
    }
    case 'state-rename': return changed('name') && v.name?.trim() ? { op: 'edit-list', args: { list: intent.list, renameState: [`${intent.state}=${v.name.trim()}`] } } : null;
    case 'field-add': return v.spec?.trim() ? { op: 'edit-list', args: { list: intent.list, addField: [v.spec.trim()] } } : null;
    case 'field-remove': return { op: 'edit-list', args: { list: intent.list, removeField: [intent.field] } };
    case 'filter-state': case 'filter-text': case 'template': case 'go-to': case 'undo': return null;
    default: {
      const never: never = intent;
      throw new Error(`unknown intent ${JSON.stringify(never)}`);
    }
  }
}
