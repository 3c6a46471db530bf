/**
 * Reading a due date as a person or an agent types it: `2026-11-04`, `2026-11-04 09:00` or
 * `2026-11-04T09:00`. Only real dates pass; the time is local. It never guesses a format.
 */

export type DueReading =
  | { kind: 'clear' }
  | { kind: 'due'; due: string; at: number }
  | { kind: 'bad' };

const pattern = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?$/;

export function readDue(given: string): DueReading {
  const text = given.trim();
  if (text === '' || text.toLowerCase() === 'none') return { kind: 'clear' };
  const m = pattern.exec(text);
  if (!m) return { kind: 'bad' };
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const timed = m[4] !== undefined;
  const [h, mi] = timed ? [Number(m[4]), Number(m[5])] : [0, 0];
  if (h > 23 || mi > 59) return { kind: 'bad' };
  const at = new Date(y, mo - 1, d, h, mi);
  if (at.getFullYear() !== y || at.getMonth() !== mo - 1 || at.getDate() !== d) return { kind: 'bad' };
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  return { kind: 'due', due: timed ? `${day} ${m[4]}:${m[5]}` : day, at: at.getTime() };
}

/** A plain date `YYYY-MM-DD` that exists in the calendar. */
export function isDate(text: string): boolean {
  const r = readDue(text);
  return r.kind === 'due' && !r.due.includes(' ');
}
