/**
 * One chunk of terminal input (a paste, keys sent together, a fast typist over a slow link) cut
 * into the keys a person would have pressed one by one: an escape sequence is one key, never
 * ESC, '[' and a letter. Pure. It must never alter, drop or reorder a character: the pieces,
 * joined, are the chunk.
 */
const ESC = '\u001b';

const isParameter = (code: number) => code >= 0x30 && code <= 0x3f;
const isIntermediate = (code: number) => code >= 0x20 && code <= 0x2f;
const isFinal = (code: number) => code >= 0x40 && code <= 0x7e;

/** A character that is a key of its own rather than text a field would keep. */
export function isControl(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f);
}

/** The end of the control sequence whose introducer ('[' or 'O') is at `at`; undefined if none is there. */
function sequenceEnd(chunk: string, at: number): number | undefined {
  const kind = chunk[at];
  if (kind === 'O') {
    if (at + 1 >= chunk.length) return chunk.length;
    return isFinal(chunk.charCodeAt(at + 1)) ? at + 2 : undefined;
  }
  if (kind !== '[') return undefined;
  let i = at + 1;
  // The legacy function keys of some terminals: ESC [ [ A.
  if (chunk[i] === '[') i++;
  for (; i < chunk.length; i++) {
    const code = chunk.charCodeAt(i);
    if (isParameter(code) || isIntermediate(code)) continue;
    return isFinal(code) ? i + 1 : undefined;
  }
  // Cut short: what is left is the start of one key, not several.
  return chunk.length;
}

/** The length of the key that starts at `at`. */
function keyLength(chunk: string, at: number): number {
  const code = chunk.codePointAt(at) ?? 0;
  if (chunk[at] !== ESC) return code > 0xffff ? 2 : 1;
  if (at + 1 >= chunk.length) return 1;
  const sequence = sequenceEnd(chunk, at + 1);
  if (sequence !== undefined) return sequence - at;
  if (chunk[at + 1] === ESC) {
    // Alt with an arrow: ESC ESC [ A. Otherwise Escape pressed with Alt.
    const meta = at + 2 < chunk.length ? sequenceEnd(chunk, at + 2) : undefined;
    return meta !== undefined ? meta - at : 2;
  }
  // Alt with a character, as the terminal sends it.
  return 1 + keyLength(chunk, at + 1);
}

/** Every key in the chunk, in order. */
export function keysOf(chunk: string): string[] {
  const keys: string[] = [];
  for (let at = 0; at < chunk.length;) {
    const length = keyLength(chunk, at);
    keys.push(chunk.slice(at, at + length));
    at += length;
  }
  return keys;
}
