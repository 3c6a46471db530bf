/**
 * Shaping lists, a person's alone: making one from a template, changing its title, view,
 * states, its gate and fields, granting agents access, archiving. A list has one gate at most,
 * never on a first state, and a state is never removed while records are in it.
 */
import { findList } from './access.js';
import { iso, type Context } from './context.js';
import { sides } from './sides.js';
import { slug, uniqueSlug } from './slug.js';
import { Refused, type FieldInput, type ListPatch, type StateInput, type TemplateSummary } from './store.js';
import { findTemplate, TEMPLATES, type Lang } from './templates.js';
import { rowLater } from './text-index.js';
import type { Access, Field, FieldType, List, State, Who } from './types.js';
import { labelsValue } from './labels.js';
import { cleanName, cleanTitle } from './values.js';
import { refusal } from './words/index.js';

export const FIELD_TYPES: readonly FieldType[] = ['text', 'number', 'date', 'choice', 'person', 'url', 'labels'];
const langOf = (lang: unknown): Lang => (lang === 'fr' ? 'fr' : 'en');

export function templates(lang: Lang): TemplateSummary[] {
  return TEMPLATES[langOf(lang)].map((t) => ({ id: t.id, title: t.title, describe: t.describe }));
}

function shapeStates(given: readonly StateInput[], old: readonly State[]): State[] {
  if (given.length === 0) throw refusal('listNeedsState', []);
  const out: State[] = [];
  for (const input of given) {
    const name = cleanName(input.name, 'nameOfAState');
    if (out.some((s) => s.name.toLowerCase() === name.toLowerCase())) {
      throw refusal('stateNamedTwice', [name]);
    }
    let id: string;
    if (input.id !== undefined) {
      const kept = old.find((s) => s.id === input.id);
      if (!kept) {
        throw refusal('noStateToKeep', [input.id]);
      }
      if (out.some((s) => s.id === kept.id)) {
        throw refusal('stateGivenTwice', [kept.name]);
      }
      id = kept.id;
    } else {
      id = uniqueSlug(slug(name), (x) => out.some((s) => s.id === x) || old.some((s) => s.id === x) || given.some((g) => g.id === x));
    }
    out.push({ id, name, gate: input.gate === true });
  }
  if (out[0]!.gate) {
    throw refusal('firstStateGate', [out[0]!.name]);
  }
  const gates = out.filter((s) => s.gate);
  if (gates.length > 1) throw oneGate(gates);
  return out;
}

/**
 * A list has one gate: a record's approval lets it past that gate, and every state after it is
 * past it. A second gate would be a mark a person trusts and no rule keeps (an approved record
 * goes on through it), so it is refused.
 */
export function oneGate(gates: readonly { name: string }[]): Refused {
  return refusal('oneGate', [gates.map((g) => g.name)]);
}

function shapeFields(given: readonly FieldInput[], old: readonly Field[]): Field[] {
  const out: Field[] = [];
  for (const input of given) {
    const name = cleanName(input.name, 'nameOfAField');
    if (out.some((f) => f.name.toLowerCase() === name.toLowerCase())) {
      throw refusal('fieldNamedTwice', [name]);
    }
    if (!FIELD_TYPES.includes(input.type)) {
      throw refusal('notAFieldType', [String(input.type), FIELD_TYPES.join(', ')]);
    }
    let id: string;
    if (input.id !== undefined) {
      const kept = old.find((f) => f.id === input.id);
      if (!kept) {
        throw refusal('noFieldToKeep', [input.id]);
      }
      if (out.some((f) => f.id === kept.id)) {
        throw refusal('fieldGivenTwice', [kept.name]);
      }
      id = kept.id;
    } else {
      id = uniqueSlug(slug(name), (x) => out.some((f) => f.id === x) || old.some((f) => f.id === x) || given.some((g) => g.id === x));
    }
    const field: Field = { id, name, type: input.type };
    if (input.type === 'choice') {
      const choices = [...new Set((input.choices ?? []).map((c) => String(c).trim()).filter((c) => c !== ''))];
      if (choices.length === 0) {
        throw refusal('choicesNeeded', [name]);
      }
      field.choices = choices.map((c) => cleanName(c, 'nameOfAChoice'));
    }
    // A labels field's own set, when given: its labels, each a short word (labels.ts).
    if (input.type === 'labels' && input.choices && input.choices.length > 0) {
      field.choices = labelsValue(field, input.choices.join(' ')).split(' ').filter((l) => l !== '');
    }
    out.push(field);
  }
  return out;
}

export async function createList(
  ctx: Context, input: { template: string; title?: string; lang?: Lang }, who: Who,
): Promise<List> {
  const lang = langOf(input.lang);
  const template = findTemplate(String(input.template ?? ''), lang);
  if (!template) {
    const shown = String(input.template).slice(0, 40);
    const ids = TEMPLATES[lang].map((t) => t.id).join(', ');
    throw refusal('noTemplate', [shown, ids]);
  }
  const title = input.title !== undefined && String(input.title).trim() !== ''
    ? cleanTitle(input.title, 'titleOfAList') : template.title;
  await titleFree(ctx, title);
  const base = slug(title) || 'list';
  const taken = new Set(await ctx.q.column<string>('SELECT id FROM lists'));
  const id = uniqueSlug(base, (x) => taken.has(x));
  const states = shapeStates(template.states, []);
  const fields = shapeFields(template.fields, []);
  const at = iso(ctx.now());
  const position = ((await ctx.q.value('SELECT coalesce(max(position), 0) + 1 FROM lists')) as number);
  (await ctx.q.run(`INSERT INTO lists (id, title, states, fields, view, archived, position, created, updated, lang)
      VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`, [id, title, JSON.stringify(states), JSON.stringify(fields), template.view, position, at, at, lang]));
  await ctx.log(who, 'create-list', id, null, { title, template: template.id, lang });
  return (await findList(ctx, id, who, 'read')).list;
}

/**
 * Two lists of one title would differ only by their ids' suffix (`tasks`, `tasks-2`), and agents
 * name lists by title: a title another list holds (archived or not, whatever its case) is refused.
 */
async function titleFree(ctx: Context, title: string, self?: string): Promise<void> {
  const lower = title.toLowerCase();
  const rows = await ctx.q.all<{ id: string; title: string }>('SELECT id, title FROM lists');
  const other = rows.find((r) => r.id !== self && r.title.toLowerCase() === lower);
  if (!other) return;
  throw refusal('titleTaken', [other.id, other.title]);
}

export async function editList(ctx: Context, ref: string, patch: ListPatch, who: Who): Promise<List> {
  const { list } = await findList(ctx, ref, who, 'write');
  const change: Record<string, unknown> = {};
  let title = list.title;
  if (patch.title !== undefined) {
    title = cleanTitle(patch.title, 'titleOfAList');
    if (title !== list.title) await titleFree(ctx, title, list.id);
    if (title !== list.title) change.title = [list.title, title];
  }
  let view = list.view;
  if (patch.view !== undefined) {
    if (patch.view !== 'board' && patch.view !== 'table') {
      throw refusal('notAView', []);
    }
    if (patch.view !== list.view) change.view = [list.view, patch.view];
    view = patch.view;
  }
  let states = list.states;
  if (patch.states !== undefined) {
    states = shapeStates(patch.states, list.states);
    for (const gone of list.states.filter((s) => !states.some((k) => k.id === s.id))) {
      const n = (await ctx.q.value('SELECT count(*) FROM records WHERE list = ? AND state = ?', [list.id, gone.id])) as number;
      if (n > 0) {
        throw refusal('stateStillHolds', [gone.name, n]);
      }
    }
    if (JSON.stringify(states) !== JSON.stringify(list.states)) change.states = [list.states, states];
  }
  let fields = list.fields;
  if (patch.fields !== undefined) {
    fields = shapeFields(patch.fields, list.fields);
    const dropped = list.fields.filter((f) => !fields.some((k) => k.id === f.id));
    for (const field of dropped) {
      const ids = await ctx.q.column<number>(`SELECT id FROM records WHERE list = ? AND ${ctx.q.dialect.textAt('fields', field.id)} IS NOT NULL`, [list.id]);
      for (const id of ids) {
        await ctx.q.run(`UPDATE records SET fields = ${ctx.q.dialect.withoutKey('fields')} WHERE id = ?`, [field.id, id]);
        rowLater(ctx, id);
      }
    }
    if (JSON.stringify(fields) !== JSON.stringify(list.fields)) change.fields = [list.fields, fields];
  }
  const childrenFirst = patch.childrenFirst ?? list.childrenFirst === true;
  if (childrenFirst !== (list.childrenFirst === true)) change.childrenFirst = [!childrenFirst, childrenFirst];
  if (Object.keys(change).length === 0) return list;
  (await ctx.q.run('UPDATE lists SET title = ?, view = ?, states = ?, fields = ?, children_first = ?, updated = ? WHERE id = ?',
    [title, view, JSON.stringify(states), JSON.stringify(fields), childrenFirst ? 1 : 0, iso(ctx.now()), list.id]));
  await ctx.log(who, 'edit-list', list.id, null, change);
  return (await findList(ctx, list.id, who, 'read')).list;
}

/** An agent's id from `agent:x`, a side's name, or a bare name. */
async function agentId(ctx: Context, given: string): Promise<string> {
  const text = String(given).trim();
  if (text.startsWith('person:')) {
    throw refusal('grantToPerson', []);
  }
  if (text.startsWith('agent:')) {
    const name = slug(text.slice('agent:'.length));
    if (name) return `agent:${name}`;
  }
  const lower = text.toLowerCase();
  const side = (await sides(ctx)).find((s) => s.name.toLowerCase() === lower || s.agent === text);
  if (side) return side.agent;
  const name = slug(text);
  if (!name) {
    const shown = text.slice(0, 40);
    throw refusal('notAnAgent', [shown]);
  }
  return `agent:${name}`;
}

export async function grant(ctx: Context, ref: string, agent: string, access: Access | null, who: Who): Promise<List> {
  const { list } = await findList(ctx, ref, who, 'write');
  if (access !== null && access !== 'read' && access !== 'write') {
    throw refusal('notAnAccess', []);
  }
  const id = await agentId(ctx, agent);
  const before = list.access[id] ?? null;
  if (before === access) return list;
  if (access === null) (await ctx.q.run('DELETE FROM access WHERE list = ? AND agent = ?', [list.id, id]));
  else (await ctx.q.run('INSERT INTO access (list, agent, level) VALUES (?, ?, ?) ON CONFLICT (list, agent) DO UPDATE SET level = excluded.level', [list.id, id, access]));
  (await ctx.q.run('UPDATE lists SET updated = ? WHERE id = ?', [iso(ctx.now()), list.id]));
  await ctx.log(who, 'grant', list.id, null, { agent: id, access: [before, access] });
  return (await findList(ctx, list.id, who, 'read')).list;
}

export async function archiveList(ctx: Context, ref: string, archived: boolean, who: Who): Promise<List> {
  const { list } = await findList(ctx, ref, who, 'write');
  if (list.archived === archived) return list;
  (await ctx.q.run('UPDATE lists SET archived = ?, updated = ? WHERE id = ?', [archived ? 1 : 0, iso(ctx.now()), list.id]));
  await ctx.log(who, archived ? 'archive-list' : 'restore-list', list.id, null, { archived });
  return (await findList(ctx, list.id, who, 'read')).list;
}

