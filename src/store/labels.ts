/**
 * A labels field: a set of short words on a record, from the list's own set when the field has
 * one (its choices), else free. Kept as one text, the labels in the order given, each once,
 * between single spaces, so a query finds one whole (query-sql.ts). Changed as a whole
 * (`bug ui`) or label by label (`+bug -wontfix`).
 */
import type { Field, List } from './types.js';
import { refusal } from './words/index.js';

/** The longest label, and the most a record has in one field. */
export const LABEL_MAX = 32;
export const LABELS_MOST = 20;

const LABEL = /^[\p{L}\p{N}][\p{L}\p{N}_.-]*$/u;

function oneLabel(field: Field, given: string): string {
  const label = given.toLowerCase();
  if (!LABEL.test(label) || label.length > LABEL_MAX) {
    throw refusal('notALabel', [field.name, given.slice(0, 40), LABEL_MAX]);
  }
  const own = field.choices;
  if (own && own.length > 0 && !own.some((c) => c.toLowerCase() === label)) {
    throw refusal('notOwnLabel', [field.name, own.join(', '), given.slice(0, 40)]);
  }
  return label;
}

/**
 * The field's labels after `given`: labels alone replace them all; `+bug` adds, `-wontfix` takes
 * away, from those it had (`now`) when every word says + or -, else from the bare words given.
 * Commas and spaces both separate.
 */
export function labelsValue(field: Field, given: string, now = ''): string {
  const words = given.split(/[\s,]+/).filter((w) => w !== '');
  const relative = words.length > 0 && words.every((w) => w.startsWith('+') || w.startsWith('-'));
  const out = relative ? now.split(' ').filter((w) => w !== '') : [];
  for (const word of words) {
    if (word.startsWith('-')) {
      const gone = oneLabel(field, word.slice(1));
      const at = out.indexOf(gone);
      if (at >= 0) out.splice(at, 1);
      continue;
    }
    const label = oneLabel(field, word.startsWith('+') ? word.slice(1) : word);
    if (!out.includes(label)) out.push(label);
  }
  if (out.length > LABELS_MOST) {
    throw refusal('labelsTooMany', [field.name, LABELS_MOST]);
  }
  return out.join(' ');
}

/** Does `ref`, a key of the field values given, name `field` (by its name, as findField reads it, or its id)? */
const names = (ref: string, field: Field): boolean => {
  const given = ref.trim();
  return given.toLowerCase() === field.name.toLowerCase() || given === field.id;
};

/**
 * Field values with `labels` (`bug`, `+ui`, `-wontfix`, as labelsValue reads them) given to the
 * list's labels field, by its id; refused, naming the list, where it has none, and refused where
 * the field values give that field too: one of the two would be dropped without a word.
 */
export function withLabels(list: List, fields: Record<string, string> | undefined, labels: readonly string[] | undefined): Record<string, string> | undefined {
  if (labels === undefined) return fields;
  const field = list.fields.find((f) => f.type === 'labels');
  if (!field) throw refusal('noLabelsField', [list.title]);
  if (fields && Object.keys(fields).some((ref) => names(ref, field))) throw refusal('labelsTwice', [field.name], 'not-understood');
  return { ...fields, [field.id]: labels.join(' ') };
}
