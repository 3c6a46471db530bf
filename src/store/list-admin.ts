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

export const FIELD_TYPES: readonly FieldType[] = ['text', 'number', 'date', 'choice', 'person', 'url', 'labels'];
const langOf = (lang: unknown): Lang => (lang === 'fr' ? 'fr' : 'en');

export function templates(lang: Lang): TemplateSummary[] {
  return TEMPLATES[langOf(lang)].map((t) => ({ id: t.id, title: t.title, describe: t.describe }));
}

function shapeStates(given: readonly StateInput[], old: readonly State[]): State[] {
  if (given.length === 0) throw new Refused('A list needs at least one state.', 'Une liste a besoin d\'au moins un état.');
  const out: State[] = [];
  for (const input of given) {
    const name = cleanName(input.name, 'A state', 'd\'un état');
    if (out.some((s) => s.name.toLowerCase() === name.toLowerCase())) {
      throw new Refused(
        `Two states are named "${name}": give each state its own name.`,
        `Deux états s'appellent « ${name} » : donnez à chaque état son propre nom.`,
      );
    }
    let id: string;
    if (input.id !== undefined) {
      const kept = old.find((s) => s.id === input.id);
      if (!kept) {
        throw new Refused(
          `There is no state "${input.id}" to keep: leave out the id for a new state.`,
          `Il n'y a aucun état « ${input.id} » à garder : omettez l'identifiant pour un nouvel état.`,
        );
      }
      if (out.some((s) => s.id === kept.id)) {
        throw new Refused(
          `The state "${kept.name}" is given twice: give it once.`,
          `L'état « ${kept.name} » est donné deux fois : donnez-le une seule fois.`,
        );
      }
      id = kept.id;
    } else {
      id = uniqueSlug(slug(name), (x) => out.some((s) => s.id === x) || old.some((s) => s.id === x) || given.some((g) => g.id === x));
    }
    out.push({ id, name, gate: input.gate === true });
  }
  if (out[0]!.gate) {
    throw new Refused(
      `"${out[0]!.name}" cannot be a gate: a gate needs a state before it, where records wait for a person.`,
      `« ${out[0]!.name} » ne peut pas être une porte : une porte a besoin d'un état avant elle, où les fiches attendent une personne.`,
    );
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
  const names = gates.map((g) => `"${g.name}"`).join(' and ');
  const fr = gates.map((g) => `« ${g.name} »`).join(' et ');
  return new Refused(
    `A list has one gate, and ${names} would be ${gates.length}: an approval lets a record past the gate and through every state after it. `
      + 'Keep one (--ungate the others).',
    `Une liste a une seule porte, et ${fr} en feraient ${gates.length} : une approbation fait passer la porte à une fiche, et tous les états après elle. `
      + 'Gardez-en une (--ungate pour les autres).',
  );
}

function shapeFields(given: readonly FieldInput[], old: readonly Field[]): Field[] {
  const out: Field[] = [];
  for (const input of given) {
    const name = cleanName(input.name, 'A field', 'd\'un champ');
    if (out.some((f) => f.name.toLowerCase() === name.toLowerCase())) {
      throw new Refused(
        `Two fields are named "${name}": give each field its own name.`,
        `Deux champs s'appellent « ${name} » : donnez à chaque champ son propre nom.`,
      );
    }
    if (!FIELD_TYPES.includes(input.type)) {
      throw new Refused(
        `"${String(input.type)}" is not a field type: use one of ${FIELD_TYPES.join(', ')}.`,
        `« ${String(input.type)} » n'est pas un type de champ : choisissez parmi ${FIELD_TYPES.join(', ')}.`,
      );
    }
    let id: string;
    if (input.id !== undefined) {
      const kept = old.find((f) => f.id === input.id);
      if (!kept) {
        throw new Refused(
          `There is no field "${input.id}" to keep: leave out the id for a new field.`,
          `Il n'y a aucun champ « ${input.id} » à garder : omettez l'identifiant pour un nouveau champ.`,
        );
      }
      if (out.some((f) => f.id === kept.id)) {
        throw new Refused(
          `The field "${kept.name}" is given twice: give it once.`,
          `Le champ « ${kept.name} » est donné deux fois : donnez-le une seule fois.`,
        );
      }
      id = kept.id;
    } else {
      id = uniqueSlug(slug(name), (x) => out.some((f) => f.id === x) || old.some((f) => f.id === x) || given.some((g) => g.id === x));
    }
    const field: Field = { id, name, type: input.type };
    if (input.type === 'choice') {
      const choices = [...new Set((input.choices ?? []).map((c) => String(c).trim()).filter((c) => c !== ''))];
      if (choices.length === 0) {
        throw new Refused(
          `The choice field "${name}" needs its choices, like High|Normal|Low.`,
          `Le champ à choix « ${name} » a besoin de ses choix, comme Haute|Normale|Basse.`,
        );
      }
      field.choices = choices.map((c) => cleanName(c, 'A choice', 'd\'un choix'));
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
    throw new Refused(
      `There is no template "${shown}": use one of ${ids}.`,
      `Il n'y a aucun modèle « ${shown} » : choisissez parmi ${ids}.`,
    );
  }
  const title = input.title !== undefined && String(input.title).trim() !== ''
    ? cleanTitle(input.title, 'A list\'s title', 'Le titre d\'une liste') : template.title;
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
  throw new Refused(
    `The list ${other.id} is titled "${other.title}" already: give this one another title.`,
    `La liste ${other.id} s'intitule déjà « ${other.title} » : donnez un autre titre à celle-ci.`,
  );
}

export async function editList(ctx: Context, ref: string, patch: ListPatch, who: Who): Promise<List> {
  const { list } = await findList(ctx, ref, who, 'write');
  const change: Record<string, unknown> = {};
  let title = list.title;
  if (patch.title !== undefined) {
    title = cleanTitle(patch.title, 'A list\'s title', 'Le titre d\'une liste');
    if (title !== list.title) await titleFree(ctx, title, list.id);
    if (title !== list.title) change.title = [list.title, title];
  }
  let view = list.view;
  if (patch.view !== undefined) {
    if (patch.view !== 'board' && patch.view !== 'table') {
      throw new Refused('A list opens as a board or a table.', 'Une liste s\'ouvre en tableau (board) ou en table (table).');
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
        throw new Refused(
          `"${gone.name}" still holds ${n} record${n === 1 ? '' : 's'}: move ${n === 1 ? 'it' : 'them'} to another state first.`,
          `« ${gone.name} » contient encore ${n} fiche${n === 1 ? '' : 's'} : déplacez-${n === 1 ? 'la' : 'les'} d'abord vers un autre état.`,
        );
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
  if (Object.keys(change).length === 0) return list;
  (await ctx.q.run('UPDATE lists SET title = ?, view = ?, states = ?, fields = ?, updated = ? WHERE id = ?', [title, view, JSON.stringify(states), JSON.stringify(fields), iso(ctx.now()), list.id]));
  await ctx.log(who, 'edit-list', list.id, null, change);
  return (await findList(ctx, list.id, who, 'read')).list;
}

/** An agent's id from `agent:x`, a side's name, or a bare name. */
async function agentId(ctx: Context, given: string): Promise<string> {
  const text = String(given).trim();
  if (text.startsWith('person:')) {
    throw new Refused(
      'People see and change every list: access is granted to agents only.',
      'Les personnes voient et modifient toutes les listes : l\'accès ne se donne qu\'aux agents.',
    );
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
    throw new Refused(
      `"${shown}" is not an agent: give its name or its id (agent:name).`,
      `« ${shown} » n'est pas un agent : donnez son nom ou son identifiant (agent:nom).`,
    );
  }
  return `agent:${name}`;
}

export async function grant(ctx: Context, ref: string, agent: string, access: Access | null, who: Who): Promise<List> {
  const { list } = await findList(ctx, ref, who, 'write');
  if (access !== null && access !== 'read' && access !== 'write') {
    throw new Refused('Access is read, write, or none to take it away.', 'L\'accès est read, write, ou none pour le retirer.');
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

