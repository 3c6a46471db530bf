/**
 * How the HTTP face says an answer: always `{"ok", "text", "data"}`, with a status that says
 * what happened — from what the dispatch said of a refusal, never from what an operation does.
 * Its text is made terminal-safe as every face's, and the JSON is written with every control
 * escaped (as `--json`), whatever reads it: a person may be reading curl's output.
 */
import type { Context } from 'hono';
import { jsonDocument } from '../keeper/json-document.js';
import type { Answer, Refusal } from '../keeper/protocol.js';
import { safeAnswer } from '../keeper/terminal-safe.js';
import { asWritten } from '../keeper/text-values.js';
import { stepsOrSentence, type StepAt } from '../keeper/answer-steps.js';
import { commandStep } from '../keeper/step-words.js';
import type { RefusalKind, Sentence } from '../store/index.js';

/** The status of each kind of refusal. */
export const STATUS: Readonly<Record<Refusal, number>> = {
  'unknown-op': 404,
  'person-only': 403,
  'not-understood': 400,
  access: 403,
  rule: 409,
  busy: 429,
  failed: 500,
  stopped: 503,
};

export function statusOf(answer: Answer): number {
  if (answer.ok) return 200;
  // A refusal that does not say what it is about is one of the binder's rules.
  return STATUS[answer.refusal ?? 'rule'];
}

/**
 * A client that writes an answer's next steps itself (`binder-mcp --url`, as tool calls) sends
 * this header with the value `marked`: the body then carries the answer's `steps`, as data with
 * their places in its text, and `binder ` inside a value keeps the no-break space the keeper
 * writes it with. Any other client reads the text as written.
 */
export const TEXT_HEADER = 'binder-text';

/** An answer's text as this face says it: safe, and values' `binder ` as written unless `marked`. */
export const textOf = (text: string, marked = false): string => (marked ? safeAnswer(text) : asWritten(safeAnswer(text)));

/**
 * The body every route answers with; `marked`, with the answer's steps as places in its text
 * (as answers.jsonl carries them), or its sentence where the text was made safe around them.
 */
export function bodyOf(answer: Answer, marked = false): { ok: boolean; text: string; data: unknown; steps?: StepAt[]; sentence?: Sentence } {
  const text = textOf(answer.text, marked);
  return { ok: answer.ok, text, data: answer.data ?? null, ...(marked ? stepsOrSentence(text, answer.sentence, commandStep) : {}) };
}

/** `value` as the JSON of a response, with its status and headers. */
export function jsonOf(c: Context, value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return c.body(jsonDocument(value), status as 200, { 'Content-Type': 'application/json', ...headers });
}

/** A refusal of the face itself (no token, too large, too many…) with its status. */
export function refuse(c: Context, status: number, text: string, headers: Record<string, string> = {}): Response {
  return jsonOf(c, { ok: false, text: textOf(text), data: null }, status, headers);
}

/** Seconds a busy asker should wait before asking again. */
export const BUSY_RETRY_S = 5;

/**
 * A refusal thrown by the store, known by its name: the HTTP face is a bundle of its own, whose
 * `Refused` is not the keeper's class, so `instanceof` cannot tell.
 */
export function refusalOf(error: unknown): { text: string; kind: RefusalKind } | null {
  if (!(error instanceof Error) || error.name !== 'Refused') return null;
  const kind = (error as { kind?: unknown }).kind;
  return { text: error.message, kind: kind === 'access' || kind === 'not-understood' ? kind : 'rule' };
}
