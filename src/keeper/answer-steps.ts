/**
 * An answer's next steps in its line of answers.jsonl, as places in its text. The text already
 * holds each step written as a command line, so the line says where each one stands (`at`, `to`)
 * and which step it is, instead of carrying the whole sentence a second time (a page of `show`
 * was written, kept in the ledger and read twice). The asking side puts the sentence back
 * together from the two. Light: the agent's command reads it on every call.
 */
import { isStep, type Sentence, type Step } from '../store/light.js';

/** A step and where its command line stands in the answer's text. */
export interface StepAt { at: number; to: number; op: string; args: Step['args'] }

/** Where each step of `words` stands in `text`, each written by `write`; null when `text` is not `words` written so. */
export function stepsIn(text: string, words: Sentence, write: (step: Step) => string): StepAt[] | null {
  const places: StepAt[] = [];
  let at = 0;
  for (const part of words) {
    const piece = typeof part === 'string' ? part : write(part);
    if (!text.startsWith(piece, at)) return null;
    if (typeof part !== 'string') places.push({ at, to: at + piece.length, op: part.op, args: part.args });
    at += piece.length;
  }
  return at === text.length ? places : null;
}

/** An answer's steps as a line or a body carries them: their places in its text, else (its text written otherwise) the sentence. */
export function stepsOrSentence(text: string, words: Sentence | undefined, write: (step: Step) => string): { steps?: StepAt[]; sentence?: Sentence } {
  if (!words) return {};
  const steps = stepsIn(text, words, write);
  return steps ? { steps } : { sentence: words };
}

/**
 * The sentence of `text` with the steps put back in their places; undefined when they do not fit
 * it (out of order, outside the text, not steps): the text is then read as it is.
 */
export function sentenceIn(text: string, steps: unknown): Sentence | undefined {
  if (!Array.isArray(steps) || steps.length === 0) return undefined;
  const parts: (string | Step)[] = [];
  let from = 0;
  for (const place of steps as unknown[]) {
    const { at, to, op, args } = (typeof place === 'object' && place !== null ? place : {}) as Partial<StepAt>;
    const step = { op, args };
    if (!Number.isSafeInteger(at) || !Number.isSafeInteger(to) || at! < from || to! <= at! || to! > text.length || !isStep(step)) return undefined;
    if (at! > from) parts.push(text.slice(from, at));
    parts.push(step);
    from = to!;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}
