/**
 * How the HTTP face says an answer: always `{"ok", "text", "data"}`, with a status that says
 * what happened — from what the dispatch said of a refusal, never from what an operation does.
 */
import type { Context } from 'hono';
import type { Answer, Refusal } from '../keeper/protocol.js';
import type { RefusalKind } from '../store/store.js';

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

/** The body every route answers with. */
export const bodyOf = (answer: Answer): { ok: boolean; text: string; data: unknown } =>
  ({ ok: answer.ok, text: answer.text, data: answer.data ?? null });

/** A refusal of the face itself (no token, too large, too many…) with its status. */
export function refuse(c: Context, status: number, text: string, headers: Record<string, string> = {}): Response {
  return c.json({ ok: false, text, data: null }, status as 400, headers);
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
