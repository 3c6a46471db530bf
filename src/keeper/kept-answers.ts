/**
 * What the ask ledger keeps of an answer, to give it again to a key asked twice: never a secret.
 * An operation whose answer shows a secret once (`shownOnce`: a token made) is kept without it —
 * its data without the secret, its text saying that it was made and shown, by its prefix — and any
 * agent's token found in any other answer is kept as its prefix. The secret lives in the one
 * answer given when it was made, and nowhere else: not in the ledger's row, nor in a database's
 * log or write-ahead file that saw the row written.
 */
import { operation } from './operations.js';
import type { Answer } from './protocol.js';

const TOKEN = /binder_([A-Za-z0-9_-]{8})[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g;
/** The fields of a shown-once answer's data that hold the secret itself. */
const SECRET_FIELDS = new Set(['token', 'key', 'cookie', 'secret']);

/** `value` without the fields of a shown-once answer's data that hold its secret, at any depth. */
function withoutSecretFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecretFields);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) if (!SECRET_FIELDS.has(name)) out[name] = withoutSecretFields(inner);
  return out;
}

/** The sentence a replay of a shown-once answer gives in its place. */
export function shownOnceText(data: unknown): string {
  const made = (data ?? {}) as { prefix?: unknown; name?: unknown };
  const prefix = typeof made.prefix === 'string' ? made.prefix : 'its prefix';
  const whose = typeof made.name === 'string' ? ` (${made.name}'s)` : '';
  return `This ask was answered before: the token ${prefix}${whose} was made then and shown once, in that answer; it is kept nowhere. `
    + `If that answer was lost, revoke it (binder admin token revoke ${prefix}) and make another.`;
}

/** An answer as the ledger keeps it, with what was asked under its key. */
export interface Kept extends Answer { asked?: string }

/**
 * `answer` as the ledger keeps it (`asked`: what was asked under its key), one line of JSON. A
 * token is found in the line whole, wherever it is — the text, the sentence that says it with its
 * steps, the data's values and names: its characters are none that JSON escapes.
 */
export function keptLine(op: string, answer: Answer, asked?: string): string {
  const kept: Kept = operation(op)?.shownOnce && answer.ok
    ? { ok: true, text: shownOnceText(answer.data), ...(answer.data !== undefined ? { data: withoutSecretFields(answer.data) } : {}) }
    : { ok: answer.ok, text: answer.text, ...(answer.sentence ? { sentence: answer.sentence } : {}), ...(answer.data !== undefined ? { data: answer.data } : {}) };
  if (answer.refusal) kept.refusal = answer.refusal;
  if (asked) kept.asked = asked;
  return JSON.stringify(kept).replace(TOKEN, 'binder_$1…');
}
