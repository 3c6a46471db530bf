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

const prefixOnly = (text: string): string => text.replace(TOKEN, 'binder_$1…');

/** `value` with every token as its prefix, and (`shown`: a shown-once answer's) the secret's own fields left out. */
function withoutSecrets(value: unknown, shown = false): unknown {
  if (typeof value === 'string') return prefixOnly(value);
  if (Array.isArray(value)) return value.map((inner) => withoutSecrets(inner, shown));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) if (!(shown && SECRET_FIELDS.has(name))) out[name] = withoutSecrets(inner, shown);
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

/** `answer` as the ledger may keep it. */
export function keptAnswer(op: string, answer: Answer): Answer {
  if (operation(op)?.shownOnce && answer.ok) {
    return { ok: true, text: shownOnceText(answer.data), ...(answer.data !== undefined ? { data: withoutSecrets(answer.data, true) } : {}) };
  }
  const kept: Answer = { ...answer, text: prefixOnly(answer.text) };
  if (answer.data !== undefined) kept.data = withoutSecrets(answer.data);
  return kept;
}
