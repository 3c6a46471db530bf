/**
 * A sentence with its next steps in it, as data: text and steps (`{op, args}`) in reading order.
 * The store and the keeper say what to do next this way; each face writes a step in its own
 * terms (a command line, an MCP tool call), so that no face ever reads a step back out of prose.
 * It must never hold someone's text in a step's place: a step is made by the binder's own code.
 */

/** A value a step's argument reads as a placeholder the reader fills in (`TEXT`, `ID`). */
export interface Placeholder { readonly placeholder: string }

/** A step's argument: a value, `true` for a flag, or a placeholder. */
export type StepValue = string | number | true | Placeholder;

/** A next step: an operation of the catalog and its arguments, in the order they read. */
export interface Step {
  readonly op: string;
  readonly args: Readonly<Record<string, StepValue>>;
}

/** A sentence and its steps, in reading order. */
export type Sentence = readonly (string | Step)[];

export const step = (op: string, args: Record<string, StepValue> = {}): Step => ({ op, args });
export const placeholder = (word: string): Placeholder => ({ placeholder: word });

export const isStep = (part: unknown): part is Step =>
  typeof part === 'object' && part !== null && typeof (part as Step).op === 'string'
  && typeof (part as Step).args === 'object' && (part as Step).args !== null && !Array.isArray((part as Step).args);

export const isPlaceholder = (value: unknown): value is Placeholder =>
  typeof value === 'object' && value !== null && typeof (value as Placeholder).placeholder === 'string';

/** A sentence written with steps in it: sentence`Restore it first (${step('restore', { id })}).` */
export function sentence(strings: TemplateStringsArray, ...values: readonly (string | number | Step | Sentence)[]): Sentence {
  const parts: (string | Step)[] = [];
  const text = (t: string): void => {
    if (t === '') return;
    const last = parts.length - 1;
    if (typeof parts[last] === 'string') parts[last] += t;
    else parts.push(t);
  };
  strings.forEach((piece, i) => {
    text(piece);
    if (i >= values.length) return;
    const value = values[i]!;
    if (Array.isArray(value)) for (const part of value as Sentence) (typeof part === 'string' ? text(part) : parts.push(part));
    else if (isStep(value)) parts.push(value);
    else text(String(value));
  });
  return parts;
}

/** The steps a sentence names. */
export const stepsOf = (words: Sentence): Step[] => words.filter(isStep);

/** `words` with each step written by `write`. */
export function written(words: string | Sentence, write: (step: Step) => string): string {
  if (typeof words === 'string') return words;
  return words.map((part) => (typeof part === 'string' ? part : write(part))).join('');
}

/** `sentence` when it names a step: what a face writes in its own terms; undefined for plain text. */
export const withSteps = (words: string | Sentence): Sentence | undefined =>
  typeof words !== 'string' && words.some(isStep) ? words : undefined;

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * A step on a command line, as the store's own refusals read where no face writes them (a
 * person's command printing a refusal): each value a word in the order given, a flag as
 * `--name`. The keeper writes steps from the catalog (`binder take --next batches`).
 */
export function commandLine(of: Step): string {
  const words = Object.entries(of.args).map(([name, value]) =>
    value === true ? `--${kebab(name)}` : isPlaceholder(value) ? value.placeholder : String(value));
  return ['binder', of.op, ...words].join(' ');
}
