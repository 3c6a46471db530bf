/**
 * Finding the pieces of a JSON file without parsing it whole: the top-level values (one, or one
 * per line in JSON Lines), the members of an object, the elements of an array — each with the
 * line it starts on, so that a refusal names the line, and each parsed on its own. It only finds
 * where values begin and end; JSON.parse judges each piece. It never reads past the text given.
 */
import { Refused } from '../store/index.js';

/** A piece of the text: [start, end) and the line it starts on; `key` for an object's member. */
export interface Span { start: number; end: number; line: number; key?: string }

interface At { i: number; line: number }

const notJson = (line: number, what: string): Refused => new Refused(
  `Line ${line}: this is not JSON (${what}).`,
  `Ligne ${line} : ce n'est pas du JSON (${what}).`,
);

function space(text: string, at: At): void {
  for (; at.i < text.length; at.i++) {
    const c = text.charCodeAt(at.i);
    if (c === 10) at.line++;
    else if (c !== 32 && c !== 9 && c !== 13 && c !== 0xfeff) return;
  }
}

/** Moves `at` past the string that starts there. */
function string(text: string, at: At): void {
  const line = at.line;
  for (at.i++; at.i < text.length; at.i++) {
    const c = text.charCodeAt(at.i);
    if (c === 92) at.i++;
    else if (c === 34) { at.i++; return; }
    else if (c === 10) at.line++;
  }
  throw notJson(line, 'a string is never closed');
}

/** Moves `at` past the value that starts there. */
function value(text: string, at: At): void {
  const line = at.line;
  const c = text.charCodeAt(at.i);
  if (c === 34) { string(text, at); return; }
  if (c === 123 || c === 91) {
    let depth = 0;
    for (; at.i < text.length; at.i++) {
      const d = text.charCodeAt(at.i);
      if (d === 34) { string(text, at); at.i--; continue; }
      if (d === 10) at.line++;
      else if (d === 123 || d === 91) depth++;
      else if (d === 125 || d === 93) {
        depth--;
        if (depth === 0) { at.i++; return; }
      }
    }
    throw notJson(line, `${c === 123 ? 'an object' : 'an array'} is never closed`);
  }
  const from = at.i;
  for (; at.i < text.length; at.i++) {
    const d = text.charCodeAt(at.i);
    if (d === 44 || d === 93 || d === 125 || d === 32 || d === 9 || d === 10 || d === 13) break;
  }
  if (at.i === from) throw notJson(line, `"${text[from]}" where a value should be`);
}

/** The values at the top of `text`: one for a JSON document, one per line for JSON Lines. */
export function topValues(text: string): Span[] {
  const at: At = { i: 0, line: 1 };
  const out: Span[] = [];
  for (;;) {
    space(text, at);
    if (at.i >= text.length) return out;
    const start = at.i;
    const line = at.line;
    value(text, at);
    out.push({ start, end: at.i, line });
  }
}

/** The elements of the array `span` (or the members of the object), in order, one at a time. */
export function* children(text: string, span: Span): Generator<Span> {
  const at: At = { i: span.start, line: span.line };
  const open = text.charCodeAt(at.i);
  const object = open === 123;
  if (!object && open !== 91) throw notJson(span.line, 'an array or an object was expected');
  const close = object ? 125 : 93;
  at.i++;
  for (let first = true; ; first = false) {
    space(text, at);
    if (text.charCodeAt(at.i) === close) return;
    if (!first) {
      if (text.charCodeAt(at.i) !== 44) throw notJson(at.line, 'a comma was expected');
      at.i++;
      space(text, at);
    }
    let key: string | undefined;
    if (object) {
      if (text.charCodeAt(at.i) !== 34) throw notJson(at.line, 'a member\'s name was expected');
      const from = at.i;
      string(text, at);
      key = JSON.parse(text.slice(from, at.i)) as string;
      space(text, at);
      if (text.charCodeAt(at.i) !== 58) throw notJson(at.line, 'a colon was expected');
      at.i++;
      space(text, at);
    }
    if (at.i >= span.end) throw notJson(at.line, 'the file ends too soon');
    const start = at.i;
    const line = at.line;
    value(text, at);
    yield key === undefined ? { start, end: at.i, line } : { start, end: at.i, line, key };
  }
}

/** The piece parsed, or a refusal naming its line and what JSON found wrong. */
export function parsed(text: string, span: Span): unknown {
  try {
    return JSON.parse(text.slice(span.start, span.end)) as unknown;
  } catch (error) {
    throw notJson(span.line, error instanceof Error ? error.message.replace(/ in JSON at position \d+.*$/s, '') : 'unreadable');
  }
}
