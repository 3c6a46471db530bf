/**
 * Lengths of time as people and agents type them — `30m`, `45s`, `2h`, `1d`, or a bare number of
 * seconds where a unit may be left out — read in this one place, and how long an ask may be held open by its keeper (a wait).
 * Light on purpose: the agent's command loads it on every call. It never guesses a unit.
 */
import { operation } from './operations.js';

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3600_000, d: 86_400_000 };

/** The length in ms, or null when `given` is not one. */
export function readDuration(given: unknown): number | null {
  if (typeof given === 'number') return Number.isFinite(given) && given >= 0 ? Math.round(given * 1000) : null;
  if (typeof given !== 'string') return null;
  const found = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|min|m|h|d)?\s*$/i.exec(given);
  if (!found) return null;
  const ms = Number(found[1]) * UNITS[(found[2] ?? 's').toLowerCase()]!;
  return Number.isFinite(ms) ? Math.round(ms) : null;
}

/** Does `given` say its unit (`30m`, not `30`)? A claim's length must: 30 could be seconds or minutes. */
export function hasUnit(given: unknown): boolean {
  return typeof given === 'string' && /[a-z]\s*$/i.test(given);
}

/** `90000` → `1m30s`, `45000` → `45s`: a length as the answers say it. */
export function sayDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m}m${s % 60}s` : `${m}m`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h}h${m % 60}m` : `${h}h`;
}

/** A wait's length when none is given, and the longest one. */
export const WAIT_DEFAULT_MS = 60_000;
export const WAIT_MAX_MS = 10 * 60_000;
/** MCP clients give up on a call after about a minute: a wait through MCP is held at most this. */
export const MCP_WAIT_MAX_MS = 45_000;

/**
 * How long the keeper may hold an ask of `op` open before answering (its timeout argument), or
 * 0 for an operation answered at once. A length that cannot be read is the keeper's to refuse.
 */
export function holdOf(op: string, args: Readonly<Record<string, unknown>>): number {
  const name = operation(op)?.holds;
  if (!name) return 0;
  const given = args[name];
  if (given === undefined) return WAIT_DEFAULT_MS;
  const ms = readDuration(given);
  return ms === null ? 0 : Math.min(ms, WAIT_MAX_MS);
}

/** `args` with the held length cut to `max` (for a face whose clients wait less, like MCP's). */
export function boundHold(op: string, args: Record<string, unknown>, max: number): Record<string, unknown> {
  const name = operation(op)?.holds;
  if (!name) return args;
  const ms = holdOf(op, args);
  if (args[name] !== undefined && readDuration(args[name]) === null) return args;
  return ms > max || args[name] === undefined ? { ...args, [name]: `${Math.min(ms, max) / 1000}s` } : args;
}
