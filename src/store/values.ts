/**
 * The rules for what a record may hold: titles, notes, states and gates, typed field values,
 * owners and their limits. Each check refuses with a sentence saying what would be accepted;
 * none of them writes to the database.
 */
import { readDue, isDate, type DueReading } from './due.js';
import { Refused } from './store.js';
import { slug } from './slug.js';
import { labelsValue } from './labels.js';
import type { Field, List, State, Who } from './types.js';

export const LIMITS = { title: 300, note: 8000, value: 2000, ref: 2000, owners: 20, name: 100 } as const;

const chars = (text: string): number => [...text].length;

/** `what` and `whatFr` name a title: 'A title' and 'Un titre', 'A list's title' and 'Le titre d'une liste'. */
export function cleanTitle(given: string, what = 'A title', whatFr = 'Un titre'): string {
  const title = String(given).replace(/\r\n|\r|\n/g, ' ').trim();
  if (!title) throw new Refused(`${what} cannot be empty: give a few words.`, `${whatFr} ne peut pas être vide : écrivez quelques mots.`);
  if (chars(title) > LIMITS.title) {
    throw new Refused(
      `${what} is at most ${LIMITS.title} characters: shorten it, and put the rest in a note.`,
      `${whatFr} compte au plus ${LIMITS.title} caractères : raccourcissez-le et mettez le reste dans une note.`,
    );
  }
  return title;
}

export function cleanNote(given: string): string {
  const text = String(given);
  if (!text.trim()) throw new Refused('A note cannot be empty: write what happened.', 'Une note ne peut pas être vide : écrivez ce qui s\'est passé.');
  if (chars(text) > LIMITS.note) {
    throw new Refused(
      `A note is at most ${LIMITS.note} characters: split it into several notes.`,
      `Une note compte au plus ${LIMITS.note} caractères : découpez-la en plusieurs notes.`,
    );
  }
  return text;
}

/** `what` says whose name it is ('A state'), `ofWhatFr` the same after « Le nom » ('d'un état'). */
export function cleanName(given: string, what: string, ofWhatFr: string): string {
  const name = String(given).replace(/\s+/g, ' ').trim();
  const theName = `Le nom ${ofWhatFr}`;
  if (!name || !slug(name)) {
    throw new Refused(`${what} needs a name with letters or digits.`, `${theName} doit contenir des lettres ou des chiffres.`);
  }
  if (chars(name) > LIMITS.name) {
    throw new Refused(`${what}'s name is at most ${LIMITS.name} characters.`, `${theName} compte au plus ${LIMITS.name} caractères.`);
  }
  return name;
}

const names = (items: { name: string }[]): string => items.map((i) => i.name).join(', ');

export function findState(list: List, ref: string): State {
  const given = String(ref).trim();
  const lower = given.toLowerCase();
  const state = list.states.find((s) => s.name.toLowerCase() === lower) ?? list.states.find((s) => s.id === given)
    ?? list.states.find((s) => s.id === slug(given));
  if (!state) {
    throw new Refused(
      `"${given}" is not a state of "${list.title}": its states are ${names(list.states)}.`,
      `« ${given} » n'est pas un état de « ${list.title} » : ses états sont ${names(list.states)}.`,
    );
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
      ? new Refused(
        `"${given}" is not a field of "${list.title}": its fields are ${names(list.fields)}.`,
        `« ${given} » n'est pas un champ de « ${list.title} » : ses champs sont ${names(list.fields)}.`,
      )
      : new Refused(
        `"${given}" is not a field of "${list.title}": it has no fields.`,
        `« ${given} » n'est pas un champ de « ${list.title} » : elle n'a aucun champ.`,
      );
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
      throw new Refused(
        `An owner is at most ${LIMITS.name} characters: give an id or a short name.`,
        `Un responsable compte au plus ${LIMITS.name} caractères : donnez un identifiant ou un nom court.`,
      );
    }
    const id = await personId(item, who, agentNamed);
    if (!out.includes(id)) out.push(id);
  }
  if (out.length > LIMITS.owners) {
    throw new Refused(
      `A record has at most ${LIMITS.owners} owners: keep the ones who act on it.`,
      `Une fiche a au plus ${LIMITS.owners} responsables : gardez ceux qui s'en occupent.`,
    );
  }
  return out;
}

/** One field's value as it will be kept, or '' to clear it. */
export async function fieldValue(field: Field, given: string, who: Who, agentNamed: NameToAgent, now?: string): Promise<string> {
  const text = String(given).trim();
  if (text === '') return '';
  if (chars(text) > LIMITS.value) {
    throw new Refused(
      `A field's value is at most ${LIMITS.value} characters: put longer text in a note.`,
      `La valeur d'un champ compte au plus ${LIMITS.value} caractères : mettez un texte plus long dans une note.`,
    );
  }
  const shown = text.slice(0, 40);
  switch (field.type) {
    case 'text':
      return text;
    case 'number':
      if (!/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text) || !Number.isFinite(Number(text))) {
        throw new Refused(
          `The field ${field.name} is a number: "${shown}" is not one (write it like 1200 or 3.5).`,
          `Le champ ${field.name} est un nombre : « ${shown} » n'en est pas un (écrivez-le comme 1200 ou 3.5).`,
        );
      }
      return text;
    case 'date':
      if (!isDate(text)) {
        throw new Refused(
          `The field ${field.name} is a date: write it as YYYY-MM-DD, like 2026-11-04.`,
          `Le champ ${field.name} est une date : écrivez-la sous la forme AAAA-MM-JJ, comme 2026-11-04.`,
        );
      }
      return text;
    case 'choice': {
      const choices = field.choices ?? [];
      const choice = choices.find((c) => c.toLowerCase() === text.toLowerCase());
      if (!choice) {
        throw new Refused(
          `The field ${field.name} is one of ${choices.join(', ')}: "${shown}" is not.`,
          `Le champ ${field.name} prend l'une de ces valeurs : ${choices.join(', ')} ; « ${shown} » n'en fait pas partie.`,
        );
      }
      return choice;
    }
    case 'person':
      return await personId(text, who, agentNamed);
    case 'url': {
      let url: URL | undefined;
      try { url = new URL(text); } catch { url = undefined; }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        throw new Refused(
          `The field ${field.name} is a web address: write it as http://… or https://….`,
          `Le champ ${field.name} est une adresse web : écrivez-la sous la forme http://… ou https://….`,
        );
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
    throw new Refused(
      `"${shown}" is not a due date: write 2026-11-04 or "2026-11-04 09:00", or none to clear it.`,
      `« ${shown} » n'est pas une échéance : écrivez 2026-11-04 ou « 2026-11-04 09:00 », ou none pour l'effacer.`,
    );
  }
  return reading;
}
