/**
 * Terminal input as what the person did: keys (one escape sequence is one key), a paste (the
 * terminal's bracketed paste, `ESC [ 200 ~ … ESC [ 201 ~`, which may span several reads), and
 * mouse reports (SGR, `ESC [ < b ; x ; y M`). And which bursts of keys are text rather than
 * commands: letters that came all at once, outside a paste, as a paste or a word typed in the
 * wrong place comes. Pure, with no Ink. It must never alter, drop or reorder what a key or a
 * paste holds; what it sets aside, it says.
 */
import { keysOf } from './key-chunks.js';
import { decodeKey, isText, type KeyPress } from '../person/keys.js';

export const PASTE_ON = '\u001b[?2004h';
export const PASTE_OFF = '\u001b[?2004l';
const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';
/** A paste longer than this is kept only this long: no field takes more, and nothing is run from it. */
const MAX_PASTE = 100_000;

export type MouseButton = 'left' | 'middle' | 'right' | 'wheelUp' | 'wheelDown' | 'other';

export interface MouseReport {
  button: MouseButton;
  /** Column and row, from 0 at the top left. */
  x: number;
  y: number;
  /** Pressed (or the wheel turned), not released. */
  press: boolean;
}

export type InputEvent =
  | { kind: 'key'; sequence: string; key: KeyPress }
  /** Text the terminal said was pasted, or letters that came together (never commands). */
  | { kind: 'text'; text: string; pasted: boolean }
  | { kind: 'mouse'; mouse: MouseReport };

const SGR_MOUSE = /^\u001b\[<(\d+);(\d+);(\d+)([Mm])$/;

/** A mouse report in SGR form, or null if `sequence` is not one. */
export function mouseOf(sequence: string): MouseReport | null {
  const m = SGR_MOUSE.exec(sequence);
  if (!m) return null;
  const code = Number(m[1]);
  const low = code & 3;
  const wheel = (code & 64) !== 0;
  const motion = (code & 32) !== 0;
  const button: MouseButton = wheel
    ? (low === 0 ? 'wheelUp' : low === 1 ? 'wheelDown' : 'other')
    : motion ? 'other' : (['left', 'middle', 'right', 'other'] as const)[low]!;
  return { button, x: Math.max(0, Number(m[2]) - 1), y: Math.max(0, Number(m[3]) - 1), press: m[4] === 'M' };
}

function eventOf(sequence: string): InputEvent {
  const mouse = mouseOf(sequence);
  return mouse ? { kind: 'mouse', mouse } : { kind: 'key', sequence, key: decodeKey(sequence) };
}

/** Reads pieces of input in the order they came into events; a paste is one event however many pieces it spans. */
export class InputReader {
  private pasting: string | null = null;

  read(piece: string): InputEvent[] {
    const out: InputEvent[] = [];
    let rest = piece;
    while (rest) {
      if (this.pasting !== null) {
        const end = rest.indexOf(PASTE_END);
        const part = end < 0 ? rest : rest.slice(0, end);
        if (this.pasting.length < MAX_PASTE) this.pasting = (this.pasting + part).slice(0, MAX_PASTE);
        if (end < 0) break;
        out.push({ kind: 'text', text: this.pasting, pasted: true });
        this.pasting = null;
        rest = rest.slice(end + PASTE_END.length);
        continue;
      }
      const start = rest.indexOf(PASTE_START);
      for (const sequence of keysOf(start < 0 ? rest : rest.slice(0, start))) out.push(eventOf(sequence));
      if (start < 0) break;
      this.pasting = '';
      rest = rest.slice(start + PASTE_START.length);
    }
    return out;
  }

  /** Whether a paste has begun and not ended. */
  get inPaste(): boolean {
    return this.pasting !== null;
  }
}

/**
 * A burst (events that came in one read) that is text rather than keys: two characters or more,
 * every one typed text (no Enter, arrow, Ctrl or Alt), and not one key repeated (a held key, or
 * `gg`, is keys). Such a burst is what a paste or a word typed where no field is looks like.
 */
export function textOfBurst(events: readonly InputEvent[]): string | null {
  if (events.length < 2) return null;
  let text = '';
  for (const e of events) {
    if (e.kind !== 'key' || !isText(e.key)) return null;
    text += e.key.text;
  }
  const first = (events[0] as { sequence: string }).sequence;
  return events.every((e) => e.kind === 'key' && e.sequence === first) ? null : text;
}

/** Pasted or typed text as one line for a field: line breaks and tabs become spaces. */
export function oneLine(text: string): string {
  return text.replace(/\r\n|[\r\n\t\v\f\u2028\u2029]/g, ' ');
}

/** Pasted or typed text with its line breaks as `\n` (a terminal pastes CR) and tabs as spaces. */
export function lineBreaks(text: string): string {
  return text.replace(/\r\n|[\r\u2028\u2029]/g, '\n').replace(/[\t\v\f]/g, ' ');
}
