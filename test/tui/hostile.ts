/** Hostile record text, and the check that none of it reached a terminal. */

/** Clearing the screen, OSC 52 (clipboard), OSC 8 (a link), OSC 0 (the window title), 8-bit CSI and NEL, bidi overrides, BEL, backspace. */
export const EVIL = 'Evil\u001b[2J\u001b]52;c;c2VjcmV0\u0007\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\\u001b]0;pwned-title\u0007\u009b31m\u0085\u202eesrever\u2066iso\u2069\u200f\u0007\u0008end';

/**
 * What in `bytes` is not the screen's own: the screen may write colours and styles (SGR), and a
 * terminal turns its newlines into CR LF; anything else escaping is a leak.
 */
export function leaks(bytes: string): string[] {
  const found: string[] = [];
  const rest = bytes.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r\n|\r/g, '\n');
  const esc = rest.indexOf('\u001b');
  if (esc >= 0) found.push(`an escape: ${JSON.stringify(rest.slice(esc, esc + 12))}`);
  const control = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.exec(rest);
  if (control) found.push(`a control character: ${JSON.stringify(rest.slice(Math.max(0, control.index - 10), control.index + 10))}`);
  if (/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(rest)) found.push('a bidi control');
  for (const payload of ['c2VjcmV0', 'evil.example', 'pwned-title']) if (rest.includes(payload)) found.push(`the payload ${payload}`);
  return found;
}
