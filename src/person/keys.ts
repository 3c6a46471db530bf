/**
 * One key as the terminal sent it (a character, a control character, or an escape sequence),
 * read into what was pressed: a named key, a character, and Ctrl, Alt, Shift. Pure, with no Ink:
 * a web page can read its own keys into the same shape. It never guesses: a sequence it does not
 * know is a key with no name and no text, which no command matches.
 */

export type KeyName =
  | 'up' | 'down' | 'left' | 'right' | 'pageUp' | 'pageDown' | 'home' | 'end'
  | 'return' | 'escape' | 'tab' | 'backspace' | 'delete' | 'insert';

export interface KeyPress {
  /** A named key, or null for a character (with or without Ctrl or Alt). */
  name: KeyName | null;
  /** The character, for a character key (lower case for Ctrl with a letter); '' otherwise. */
  text: string;
  ctrl: boolean;
  /** Alt (Meta), sent by terminals as ESC before the key. */
  meta: boolean;
  shift: boolean;
}

const ESC = '\u001b';

const press = (name: KeyName | null, text = '', mods: Partial<Pick<KeyPress, 'ctrl' | 'meta' | 'shift'>> = {}): KeyPress => ({
  name, text, ctrl: mods.ctrl ?? false, meta: mods.meta ?? false, shift: mods.shift ?? false,
});

/** Nothing a command can match. */
export const NO_KEY: KeyPress = press(null);

const LETTER_KEYS: Record<string, KeyName> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' };
const TILDE_KEYS: Record<string, KeyName> = { 1: 'home', 2: 'insert', 3: 'delete', 4: 'end', 5: 'pageUp', 6: 'pageDown', 7: 'home', 8: 'end' };
/** rxvt's shifted arrows (ESC [ a) and ctrl arrows (ESC O a). */
const RXVT_KEYS: Record<string, KeyName> = { a: 'up', b: 'down', c: 'right', d: 'left' };

/** xterm's modifier parameter: 1 + shift·1 + alt·2 + ctrl·4. */
function modifiers(param: string | undefined): Pick<KeyPress, 'ctrl' | 'meta' | 'shift'> {
  const bits = Math.max(0, (Number(param) || 1) - 1);
  return { shift: (bits & 1) !== 0, meta: (bits & 2) !== 0, ctrl: (bits & 4) !== 0 };
}

/** A CSI or SS3 sequence without its ESC: `[A`, `[1;3D`, `[3~`, `OH`. */
function sequenceKey(body: string): KeyPress {
  if (body.length === 2 && body[0] === 'O') {
    const name = LETTER_KEYS[body[1]!];
    if (name) return press(name);
    const ctrlArrow = RXVT_KEYS[body[1]!];
    return ctrlArrow ? press(ctrlArrow, '', { ctrl: true }) : NO_KEY;
  }
  if (body === '[Z') return press('tab', '', { shift: true });
  const rxvt = /^\[([abcd])$/.exec(body);
  if (rxvt) return press(RXVT_KEYS[rxvt[1]!]!, '', { shift: true });
  const letter = /^\[(?:1?;(\d+))?([ABCDHF])$/.exec(body);
  if (letter) return press(LETTER_KEYS[letter[2]!]!, '', modifiers(letter[1]));
  const tilde = /^\[(\d+)(?:;(\d+))?([~$^])$/.exec(body);
  if (tilde) {
    const name = TILDE_KEYS[tilde[1]!];
    if (!name) return NO_KEY;
    const mods = modifiers(tilde[2]);
    if (tilde[3] === '$') mods.shift = true;
    if (tilde[3] === '^') mods.ctrl = true;
    return press(name, '', mods);
  }
  return NO_KEY;
}

/** A control character (below space, or DEL) as the key it is. */
function controlKey(char: string): KeyPress {
  switch (char) {
    case '\r': case '\n': return press('return');
    case '\t': return press('tab');
    case '\u007f': case '\b': return press('backspace');
    case ESC: return press('escape');
    case '\u0000': return press(null, ' ', { ctrl: true });
    default: {
      const code = char.charCodeAt(0);
      // Ctrl with a letter: \x01 is Ctrl-A.
      return code >= 1 && code <= 26 ? press(null, String.fromCharCode(code + 96), { ctrl: true }) : NO_KEY;
    }
  }
}

/** The key one sequence means (one key, as `keysOf` cuts a chunk). */
export function decodeKey(sequence: string): KeyPress {
  if (sequence === '') return NO_KEY;
  if (sequence[0] !== ESC) {
    const code = sequence.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f) return sequence.length === 1 ? controlKey(sequence) : NO_KEY;
    if (code >= 0x80 && code <= 0x9f) return NO_KEY;
    const text = String.fromCodePoint(code);
    if (text !== sequence) return NO_KEY;
    return press(null, text, { shift: text !== text.toLowerCase() && text === text.toUpperCase() });
  }
  if (sequence === ESC) return press('escape');
  const rest = sequence.slice(1);
  if (rest[0] === '[' || rest[0] === 'O') {
    if (rest.length > 1) return sequenceKey(rest);
  }
  // Alt with a key: ESC before it (ESC ESC [ A is Alt with an arrow).
  const inner = decodeKey(rest);
  if (inner === NO_KEY) return NO_KEY;
  return { ...inner, meta: true };
}

/** Whether the key is a character typed as text (no Ctrl, no Alt). */
export function isText(key: KeyPress): boolean {
  return key.name === null && key.text !== '' && !key.ctrl && !key.meta;
}
