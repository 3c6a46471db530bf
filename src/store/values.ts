/**
 * The rules for what a record may hold: titles, notes, states and gates, typed field values,
 * owners and their limits. Each check refuses with a sentence saying what would be accepted;
 * none of them writes to the database.
 */
import { readDue, isDate, type DueReading } from './due.js';
import { Refused } from './store.js';
import { slug } from './slug.js';
import type { Field, List, State, Who } from './types.js';

export const LIMITS = { title: 300, note: 8000, value: 2000, ref: 2000, owners: 20, name: 100 } as const;

const chars = (text: string): number => [...text].length;

export function cleanTitle(given: string, what = 'A title'): string {
  const title = String(given).replace(/\r\n|\r|\n/g, ' ').trim();
  if (!title) throw new Refused(`${what} cannot be empty: give a few words.`);
  if (chars(title) > LIMITS.title) throw new Refused(`${what} is at most ${LIMITS.title} characters: shorten it, and put the rest in a note.`);
  return title;
}

export function cleanNote(given: string): string {
  const text = String(given);
  if (!text.trim()) throw new Refused('A note cannot be empty: write what happened.');
  if (chars(text) > LIMITS.note) throw new Refused(`A note is at most ${LIMITS.note} characters: split it into several notes.`);
  return text;
}

export function cleanName(given: string, what: string): string {
  const name = String(given).replace(/\s+/g, ' ').trim();
  if (!name || !slug(name)) throw new Refused(`${what} needs a name with letters or digits.`);
  if (chars(name) > LIMITS.name) throw new Refused(`${what}'s name is at most ${LIMITS.name} characters.`);
  return name;
}

const names = (items: { name: string }[]): string => items.map((i) => i.name).join(', ');

export function findState(list: List, ref: string): State {
  const given = String(ref).trim();
  const lower = given.toLowerCase();
  const state = list.states.find((s) => s.name.toLowerCase() === lower) ?? list.states.find((s) => s.id === given)
    ?? list.states.find((s) => s.id === slug(given));
  if (!state) throw new Refused(`"${given}" is not a state of "${list.title}": its states are ${names(list.states)}.`);
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
    throw new Refused(list.fields.length
      ? `"${given}" is not a field of "${list.title}": its fields are ${names(list.fields)}.`
      : `"${given}" is not a field of "${list.title}": it has no fields.`);
  }
  return field;
}

/** Who an owner or a person field names: `me`, an id, or a bare name. */
export type NameToAgent = (name: string) => string | undefined;

export function personId(given: string, who: Who, agentNamed: NameToAgent): string {
  const text = given.trim();
  if (text.toLowerCase() === 'me') return who.id;
  if (/^(person|agent):./.test(text)) return text;
  return agentNamed(text) ?? `person:${text}`;
}

export function cleanOwners(given: readonly string[], who: Who, agentNamed: NameToAgent): string[] {
  const items = given.map((o) => String(o).trim()).filter((o) => o !== '');
  if (items.length === 1 && items[0]!.toLowerCase() === 'none') return [];
  const out: string[] = [];
  for (const item of items) {
    if (chars(item) > LIMITS.name + 7) throw new Refused(`An owner is at most ${LIMITS.name} characters: give an id or a short name.`);
    const id = personId(item, who, agentNamed);
    if (!out.includes(id)) out.push(id);
  }
  if (out.length > LIMITS.owners) throw new Refused(`A record has at most ${LIMITS.owners} owners: keep the ones who act on it.`);
  return out;
}

/** One field's value as it will be kept, or '' to clear it. */
export function fieldValue(field: Field, given: string, who: Who, agentNamed: NameToAgent): string {
  const text = String(given).trim();
  if (text === '') return '';
  if (chars(text) > LIMITS.value) throw new Refused(`A field's value is at most ${LIMITS.value} characters: put longer text in a note.`);
  switch (field.type) {
    case 'text':
      return text;
    case 'number':
      if (!/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text) || !Number.isFinite(Number(text))) {
        throw new Refused(`The field ${field.name} is a number: "${text.slice(0, 40)}" is not one (write it like 1200 or 3.5).`);
      }
      return text;
    case 'date':
      if (!isDate(text)) throw new Refused(`The field ${field.name} is a date: write it as YYYY-MM-DD, like 2026-11-04.`);
      return text;
    case 'choice': {
      const choices = field.choices ?? [];
      const choice = choices.find((c) => c.toLowerCase() === text.toLowerCase());
      if (!choice) throw new Refused(`The field ${field.name} is one of ${choices.join(', ')}: "${text.slice(0, 40)}" is not.`);
      return choice;
    }
    case 'person':
      return personId(text, who, agentNamed);
    case 'url': {
      let url: URL | undefined;
      try { url = new URL(text); } catch { url = undefined; }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        throw new Refused(`The field ${field.name} is a web address: write it as http://… or https://….`);
      }
      return text;
    }
    default: {
      const never: never = field.type;
      throw new Error(`unknown field type ${String(never)}`);
    }
  }
}

/** Field changes by field id ('' clears), from values given by field name or id. */
export function fieldChanges(list: List, given: Record<string, string>, who: Who, agentNamed: NameToAgent): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [ref, value] of Object.entries(given)) {
    const field = findField(list, ref);
    out[field.id] = fieldValue(field, value ?? '', who, agentNamed);
  }
  return out;
}

export function dueOf(given: string): DueReading & { kind: 'clear' | 'due' } {
  const reading = readDue(String(given));
  if (reading.kind === 'bad') {
    throw new Refused(`"${String(given).slice(0, 40)}" is not a due date: write 2026-11-04 or "2026-11-04 09:00", or none to clear it.`);
  }
  return reading;
}
