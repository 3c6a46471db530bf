/**
 * How a value (a title, a note, a field, a name — text someone wrote) sits in an answer's text:
 * on its line, made terminal-safe, never starting a line of its own. `said` builds an answer's
 * line from its own words and the values it shows; each value is made safe unless it is already
 * a `Shown` piece. A value never reads as a step to take: `binder ` in it is written with a
 * no-break space, so a face that rewrites the steps (`binder take --next batches`, for MCP) never
 * rewrites what someone wrote. It must never let a value's line break or control through.
 */
import { terminalSafe } from './terminal-safe.js';

/** A piece of an answer that is already as it must be shown: kept whole by `said`. */
export class Shown {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Where a value's line would break: each is shown as ⏎ on one line, or indented in a block. */
const BREAKS = /[\n\u2028\u2029]/g;
const NO_BREAK_SPACE = '\u00a0';
/** The one form a step to take has in an answer's text (see src/mcp/mcp-steps.ts). */
const STEP_WORD = /binder /g;

const defused = (text: string): string => text.replace(STEP_WORD, `binder${NO_BREAK_SPACE}`);

/** An answer's text with its values' `binder ` as they were written: for a face once it found the steps. */
export function asWritten(text: string): string {
  return text.replace(/binder\u00a0/g, 'binder ');
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

const piece = (value: unknown): string =>
  value instanceof Shown ? value.text : typeof value === 'number' ? String(value) : oneLine(value);

/** A line (or part of one) of an answer: its own words as written, every value made safe on one line. */
export function said(strings: TemplateStringsArray, ...values: unknown[]): Shown {
  let text = strings[0] ?? '';
  values.forEach((value, at) => {
    text += piece(value) + (strings[at + 1] ?? '');
  });
  return new Shown(text);
}

/** Pieces joined by `between`, as one piece. */
export function joined(pieces: readonly Shown[], between: string): Shown {
  return new Shown(pieces.map((p) => p.text).join(between));
}

/** An answer's lines as its text. */
export function lines(all: readonly Shown[]): string {
  return all.map((p) => p.text).join('\n');
}
