/**
 * A record's number as people and agents write it — `12` or `#12` — read in this one place, for
 * the store's rules and for the faces that check a command line before asking. Light on purpose:
 * the agent's command loads it on every call.
 */

/** The number `given` names (a whole number from 1, `#` before it or not), or null. */
export function readRecordNumber(given: number | string): number | null {
  const text = String(given).trim();
  if (!/^#?\d{1,15}$/.test(text)) return null;
  const n = Number(text.replace('#', ''));
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
