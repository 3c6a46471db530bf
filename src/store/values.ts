/**
 * The rules for what a record may hold: titles, notes, states and gates, typed field values,
 * owners and their limits. Each check refuses with a sentence saying what would be accepted;
 * none of them writes to the database.
 */
import { readDue, isDate, type DueReading } from './due.js';
import { slug } from './slug.js';
import { labelsValue } from './labels.js';
import type { Field, List, State, Who } from './types.js';
import { refusal, refusalSaid } from './words/index.js';

export const LIMITS = { title: 300, note: 8000, value: 2000, ref: 2000, owners: 20, name: 100 } as const;

const chars = (text: string): number => [...text].length;

/** What a title is of, as the refusals name it: a record's, a list's, an attachment's. */
export type TitleOf = 'titleOfARecord' | 'titleOfAList' | 'titleOfAnAttachment';

export function cleanTitle(given: string, of: TitleOf = 'titleOfARecord'): string {
  const title = String(given).replace(/\r\n|\r|\n/g, ' ').trim();
  if (!title) throw refusalSaid((w) => w.titleEmpty(w[of]()));
  if (chars(title) > LIMITS.title) throw refusalSaid((w) => w.titleTooLong(w[of](), LIMITS.title));
  return title;
}

export function cleanNote(given: string): string {
  const text = String(given);
  if (!text.trim()) throw refusal('noteEmpty', []);
  if (chars(text) > LIMITS.note) {
    throw refusal('noteTooLong', [LIMITS.note]);
  }
  return text;
}

/** Whose name it is, as the refusals name it: a state's, a field's, an agent's… */
export type NameOf = 'nameOfAState' | 'nameOfAField' | 'nameOfAChoice' | 'nameOfAPerson' | 'nameOfAnAgent';

export function cleanName(given: string, of: NameOf): string {
  const name = String(given).replace(/\s+/g, ' ').trim();
  if (!name || !slug(name)) throw refusalSaid((w) => w.nameEmpty(w[of]()));
  if (chars(name) > LIMITS.name) throw refusalSaid((w) => w.nameTooLong(w[of](), LIMITS.name));
  return name;
}

const names = (items: { name: string }[]): string => items.map((i) => i.name).join(', ');

export function findState(list: List, ref: string): State {
  const given = String(ref).trim();
  const lower = given.toLowerCase();
  const state = list.states.find((s) => s.name.toLowerCase() === lower) ?? list.states.find((s) => s.id === given)
    ?? list.states.find((s) => s.id === slug(given));
  if (!state) {
    throw refusal('notAState', [given, list.title, names(list.states)]);
  }
  return state;
}

export function firstGate(list: List): State | undefined {
  return list.states.find((s) => s.gate);
}

/** Is this state the first gate or after it? */
export function pastGate(list: List, stateId: string): boolean {
  const gate = list.states.findIndex((s) => s.gate);
  return gate >= 0 && list.states.findIndex((s) => s.id === stateId) >= gate;
}

/** The state just before the first gate, where a record waits for a person. */
export function beforeGate(list: List): State | undefined {
  const gate = list.states.findIndex((s) => s.gate);
  return gate > 0 ? list.states[gate - 1] : undefined;
}

export function findField(list: List, ref: string): Field {
  const given = String(ref).trim();
  const lower = given.toLowerCase();
  const field = list.fields.find((f) => f.name.toLowerCase() === lower) ?? list.fields.find((f) => f.id === given);
  if (!field) {
    throw list.fields.length
      ? refusal('notAField', [given, list.title, names(list.fields)])
      : refusal('noFields', [given, list.title]);
  }
  return field;
}

/** Who an owner or a person field names: `me`, an id, or a bare name. */
export type NameToAgent = (name: string) => Promise<string | undefined>;

/**
 * Someone's words inside a refusal's sentence: in double quotes that nothing in them closes, and
 * with no `binder ` in them that a face would take for a step to make (the faces look for steps
 * outside double quotes, and `binder` with a no-break space is no step).
 */
export const quoted = (text: string): string => `"${text.replace(/"/g, '\u201d').replace(/binder /gi, 'binder\u00a0')}"`;

export async function personId(given: string, who: Who, agentNamed: NameToAgent): Promise<string> {
  const text = given.trim();
  if (text.toLowerCase() === 'me') return who.id;
  if (/^(person|agent):./.test(text)) return text;
  return await agentNamed(text) ?? `person:${text}`;
}

export async function cleanOwners(given: readonly string[], who: Who, agentNamed: NameToAgent): Promise<string[]> {
  const items = given.map((o) => String(o).trim()).filter((o) => o !== '');
  if (items.length === 1 && items[0]!.toLowerCase() === 'none') return [];
  const out: string[] = [];
  for (const item of items) {
    if (chars(item) > LIMITS.name + 7) {
      throw refusal('ownerTooLong', [LIMITS.name]);
    }
    const id = await personId(item, who, agentNamed);
    if (!out.includes(id)) out.push(id);
  }
  if (out.length > LIMITS.owners) {
    throw refusal('ownersTooMany', [LIMITS.owners]);
  }
  return out;
}

/** One field's value as it will be kept, or '' to clear it. */
export async function fieldValue(field: Field, given: string, who: Who, agentNamed: NameToAgent, now?: string): Promise<string> {
  const text = String(given).trim();
  if (text === '') return '';
  if (chars(text) > LIMITS.value) {
    throw refusal('valueTooLong', [LIMITS.value]);
  }
  const shown = text.slice(0, 40);
  switch (field.type) {
    case 'text':
      return text;
    case 'number':
      if (!/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text) || !Number.isFinite(Number(text))) {
        throw refusal('notANumber', [field.name, shown]);
      }
      return text;
    case 'date':
      if (!isDate(text)) {
        throw refusal('notADate', [field.name]);
      }
      return text;
    case 'choice': {
      const choices = field.choices ?? [];
      const choice = choices.find((c) => c.toLowerCase() === text.toLowerCase());
      if (!choice) {
        throw refusal('notAChoice', [field.name, choices.join(', '), shown]);
      }
      return choice;
    }
    case 'person':
      return await personId(text, who, agentNamed);
    case 'url': {
      let url: URL | undefined;
      try { url = new URL(text); } catch { url = undefined; }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        throw refusal('notAWebAddress', [field.name]);
      }
      return text;
    }
    case 'labels':
      return labelsValue(field, text, now);
    default: {
      const never: never = field.type;
      throw new Error(`unknown field type ${String(never)}`);
    }
  }
}

/** Field changes by field id ('' clears), from values given by field name or id. */
export async function fieldChanges(
  list: List, given: Record<string, string>, who: Who, agentNamed: NameToAgent, now: Record<string, string> = {},
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [ref, value] of Object.entries(given)) {
    const field = findField(list, ref);
    out[field.id] = await fieldValue(field, value ?? '', who, agentNamed, now[field.id]);
  }
  return out;
}

export function dueOf(given: string): DueReading & { kind: 'clear' | 'due' } {
  const reading = readDue(String(given));
  if (reading.kind === 'bad') {
    const shown = String(given).slice(0, 40);
    throw refusal('notADueDate', [shown]);
  }
  return reading;
}
