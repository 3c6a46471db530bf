/**
 * An answer's data as one JSON document, for `--json` on every face: the value exact, on one line,
 * every character a terminal or a JavaScript reader might act on written as a \u escape. Light on
 * purpose: the agent's command loads it on every call.
 */

// Characters JSON.stringify leaves raw but a terminal may act on (C1 controls, bidirectional
// controls) or a JavaScript reader may split on (line separators); escaped, the value is the same.
const UNESCAPED = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `value` as one line of JSON with every control character \u-escaped. */
export function jsonDocument(value: unknown): string {
  return (JSON.stringify(value ?? null) ?? 'null').replace(UNESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
