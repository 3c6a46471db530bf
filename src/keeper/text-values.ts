/**
 * How a value (a title, a note, a field, a name — text someone wrote) sits in an answer's text:
 * on its line, made terminal-safe, never starting a line of its own. `said` builds an answer's
 * line from its own words and the values it shows; each value is made safe unless it is already
 * a `Shown` piece; a step (`{op, args}`) is kept as data, for each face to write in its own terms.
 * `binder ` in a value is written with a no-break space (and written back by `asWritten`), as
 * answers read by a client that looks for steps in the text (an older `binder-mcp --url`) were.
 * It must never let a value's line break or control through.
 */
import { terminalSafe } from './terminal-safe.js';
import { isStep, sentence, withSteps, written, type Sentence, type Step } from '../store/light.js';
import { commandStep } from './step-words.js';

/**
 * A piece of an answer that is already as it must be shown: kept whole by `said`. One that names
 * next steps keeps them as data (`sentence`), and its text writes them as a command line.
 */
export class Shown {
  readonly text: string;
  readonly sentence: Sentence | undefined;
  constructor(words: string | Sentence) {
    // Plain words (most pieces: a record's line has several) need neither writing nor a look for steps.
    this.text = typeof words === 'string' ? words : written(words, commandStep);
    this.sentence = typeof words === 'string' ? undefined : withSteps(words);
  }
  /** Its words and steps, in reading order. */
  get parts(): Sentence {
    return this.sentence ?? [this.text];
  }
  toString(): string {
    return this.text;
  }
}

/** Where a value's line would break: each is shown as ⏎ on one line, or indented in a block. */
const BREAKS = /[\n\u2028\u2029]/g;
const NO_BREAK_SPACE = '\u00a0';
/** The words a step to take begins with in an answer's text. */
const STEP_WORD = /binder /g;

const defused = (text: string): string => text.replace(STEP_WORD, `binder${NO_BREAK_SPACE}`);

/** An answer's text with its values' `binder ` as they were written: for a face once it found the steps. */
export function asWritten(text: string): string {
  return text.includes('binder\u00a0') ? text.replace(/binder\u00a0/g, 'binder ') : text;
}

/** What `oneLine` and `block` would change: most values hold none of it, and are kept as they are. */
const CHANGED = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|binder /;

/** `value` on one line: safe, each line break shown as ⏎. */
export function oneLine(value: unknown): string {
  const text = String(value ?? '');
  if (!CHANGED.test(text)) return text;
  return defused(terminalSafe(text, { multiline: true }).replace(BREAKS, '⏎'));
}

/** `value` over several lines, each after the first indented by `indent`: a note's text. */
export function block(value: unknown, indent: string): Shown {
  return new Shown(defused(terminalSafe(String(value ?? ''), { multiline: true }).replace(BREAKS, `\n${indent}`)));
}

/**
 * `value` as one word of a step (`--state "In review"`): on one line, quoted when it holds a
 * space or is empty.
 */
export function word(value: unknown): Shown {
  const text = oneLine(value);
  if (text !== '' && !/[\s"'\u00a0]/.test(text)) return new Shown(text);
  return new Shown(text.includes('"') ? `'${text.replace(/'/g, '’')}'` : `"${text}"`);
}

const namesSteps = (value: unknown): boolean => (value instanceof Shown ? value.sentence !== undefined : isStep(value));

const piece = (value: unknown): string | Sentence =>
  value instanceof Shown ? value.parts : isStep(value) ? [value] : typeof value === 'number' ? String(value) : oneLine(value);

/**
 * A line (or part of one) of an answer: its own words as written, every value made safe on one
 * line, a step (`step('wait', { on })`) kept as a step.
 */
export function said(strings: TemplateStringsArray, ...values: unknown[]): Shown {
  if (values.some(namesSteps)) return new Shown(sentence(strings, ...values.map(piece)));
  // Most lines name no step (a list's record lines): written straight, as many as a page holds.
  let text = strings[0] ?? '';
  values.forEach((value, at) => {
    text += (value instanceof Shown ? value.text : typeof value === 'number' ? String(value) : oneLine(value)) + (strings[at + 1] ?? '');
  });
  return new Shown(text);
}

/** An answer's text as an operation says it: plain, or a piece that names next steps. */
export type Told = string | Shown;

/** An answer's text, and its next steps as data when it names any. */
export function toldAs(told: Told): { text: string; sentence?: Sentence } {
  if (typeof told === 'string') return { text: told };
  return told.sentence ? { text: told.text, sentence: told.sentence } : { text: told.text };
}

/** Pieces joined by `between`, as one piece. */
export function joined(pieces: readonly Shown[], between: string): Shown {
  if (!pieces.some(namesSteps)) return new Shown(pieces.map((p) => p.text).join(between));
  // The text between two steps kept as one string: an answer of many lines names few steps.
  const parts: (string | Step)[] = [];
  let run = '';
  pieces.forEach((p, at) => {
    if (at) run += between;
    for (const part of p.parts) {
      if (typeof part === 'string') run += part;
      else {
        if (run !== '') parts.push(run);
        run = '';
        parts.push(part);
      }
    }
  });
  if (run !== '') parts.push(run);
  return new Shown(parts);
}

/** An answer's lines as its text. */
export function lines(all: readonly Shown[]): string {
  return all.map((p) => p.text).join('\n');
}

/** An answer's lines as one piece: its text, and the next steps it names. */
export function told(all: readonly Shown[]): Shown {
  return joined(all, '\n');
}
