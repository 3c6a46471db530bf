/**
 * A one-line text field as a person edits it: its text and cursor, every edit a pure step
 * (typing, a paste, Backspace, Delete, Home/End, word by word, Ctrl-U/Ctrl-K/Ctrl-W), and the
 * part of it a field of a given width shows around the cursor. The cursor stands between
 * graphemes, never inside one. A field has a limit (in characters, as the store counts them): a
 * paste past it is cut there at once and says so. Pure, with no Ink: a web page edits the same way.
 */
import { cellWidth, graphemesOf } from '../person/display-width.js';

export interface LineText {
  value: string;
  /** Where the cursor stands, as an index into `value` (at a grapheme's start, or the end). */
  cursor: number;
}

export type LineMove = 'left' | 'right' | 'wordLeft' | 'wordRight' | 'home' | 'end';
export type LineDelete = 'backspace' | 'delete' | 'wordBack' | 'killStart' | 'killEnd';

export type LineEdit = { do: 'insert'; text: string } | { do: LineMove } | { do: LineDelete };

export interface Edited {
  line: LineText;
  /** Some of the text inserted did not fit under the limit and was left out. */
  cut: boolean;
}

/** A field with `value`, the cursor at its end. */
export const lineAt = (value: string): LineText => ({ value, cursor: value.length });

/** The characters of a text, as the store counts them (code points). */
export const charCount = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** The start index of every grapheme of `value`, and its end. */
function boundaries(value: string): number[] {
  const out: number[] = [];
  let at = 0;
  for (const g of graphemesOf(value)) {
    out.push(at);
    at += g.length;
  }
  out.push(at);
  return out;
}

/** The grapheme boundary nearest `cursor` (at or before it). */
function snap(value: string, cursor: number): number {
  const at = Math.max(0, Math.min(value.length, cursor));
  let best = 0;
  for (const b of boundaries(value)) if (b <= at) best = b;
  return best;
}

const WORD = /[\p{L}\p{N}\p{M}_]/u;

/** The start of the word before `cursor` (readline's backward-word). */
function wordStart(value: string, cursor: number): number {
  const bounds = boundaries(value).filter((b) => b < cursor);
  let i = bounds.length - 1;
  while (i >= 0 && !WORD.test(value.slice(bounds[i]!, cursor))) i--;
  while (i > 0 && WORD.test(value.slice(bounds[i - 1]!, bounds[i]!))) i--;
  return Math.max(0, bounds[i] ?? 0);
}

/** The end of the word after `cursor` (readline's forward-word). */
function wordEnd(value: string, cursor: number): number {
  const bounds = boundaries(value).filter((b) => b > cursor);
  let from = cursor;
  let i = 0;
  while (i < bounds.length && !WORD.test(value.slice(from, bounds[i]!))) from = bounds[i++]!;
  while (i < bounds.length && WORD.test(value.slice(from, bounds[i]!))) from = bounds[i++]!;
  return from;
}

function step(value: string, cursor: number, delta: -1 | 1): number {
  const bounds = boundaries(value);
  const at = bounds.indexOf(cursor);
  return bounds[Math.max(0, Math.min(bounds.length - 1, at + delta))] ?? cursor;
}

/** As much of `text` as fits in `room` characters, cut between graphemes. */
function fitting(text: string, room: number): string {
  if (charCount(text) <= room) return text;
  let out = '';
  let used = 0;
  for (const g of graphemesOf(text)) {
    const n = charCount(g);
    if (used + n > room) break;
    out += g;
    used += n;
  }
  return out;
}

/** One edit. `max`: the field's limit in characters; text inserted past it is cut. */
export function editLine(line: LineText, edit: LineEdit, max: number): Edited {
  const { value } = line;
  const cursor = snap(value, line.cursor);
  const at = (v: string, c: number): Edited => ({ line: { value: v, cursor: c }, cut: false });
  switch (edit.do) {
    case 'insert': {
      const room = Math.max(0, max - charCount(value));
      const text = fitting(edit.text, room);
      return { line: { value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length }, cut: text.length < edit.text.length };
    }
    case 'left': return at(value, step(value, cursor, -1));
    case 'right': return at(value, step(value, cursor, 1));
    case 'wordLeft': return at(value, wordStart(value, cursor));
    case 'wordRight': return at(value, wordEnd(value, cursor));
    case 'home': return at(value, 0);
    case 'end': return at(value, value.length);
    case 'backspace': {
      const from = step(value, cursor, -1);
      return at(value.slice(0, from) + value.slice(cursor), from);
    }
    case 'delete': {
      const to = step(value, cursor, 1);
      return at(value.slice(0, cursor) + value.slice(to), cursor);
    }
    case 'wordBack': {
      const from = wordStart(value, cursor);
      return at(value.slice(0, from) + value.slice(cursor), from);
    }
    case 'killStart': return at(value.slice(cursor), 0);
    case 'killEnd': return at(value.slice(0, cursor), cursor);
    default: {
      const never: never = edit;
      throw new Error(`unknown edit ${JSON.stringify(never)}`);
    }
  }
}

/** What a field `width` columns wide shows: the text before the cursor, the cell under it, the text after. */
export interface LineView {
  before: string;
  /** The grapheme under the cursor, or a space at the end. */
  at: string;
  after: string;
  /** The cursor's column within the field. */
  column: number;
}

/**
 * The part of the line a field of `width` columns shows: all of it when it fits, else a window
 * that keeps the cursor in view and moves by half a width when the cursor leaves it (so the text
 * does not slide under the cursor at every key), with `…` where text is hidden on either side.
 */
export function lineView(line: LineText, width: number): LineView {
  const w = Math.max(4, width);
  const cursor = snap(line.value, line.cursor);
  const cells: { g: string; w: number; from: number }[] = [];
  let index = 0;
  let col = 0;
  let cursorCell = -1;
  let cursorCol = 0;
  for (const g of graphemesOf(line.value)) {
    if (index === cursor) { cursorCell = cells.length; cursorCol = col; }
    const cw = cellWidth(g);
    cells.push({ g, w: cw, from: col });
    index += g.length;
    col += cw;
  }
  if (cursorCell < 0) { cursorCell = cells.length; cursorCol = col; }
  const atWidth = cells[cursorCell]?.w ?? 1;
  let start = 0;
  if (col + (cursorCell === cells.length ? 1 : 0) > w && cursorCol + atWidth > w - 1) {
    const room = w - 2;
    const stride = Math.max(1, Math.floor(room / 2));
    start = Math.ceil((cursorCol + atWidth - room) / stride) * stride;
  }
  const left = start > 0 ? 1 : 0;
  let before = left ? '…' : '';
  let at = ' ';
  let after = '';
  let used = left;
  let column = left;
  for (const [i, cell] of cells.entries()) {
    if (cell.from < start) continue;
    const more = i < cells.length - 1;
    if (i > cursorCell && used + cell.w + (more ? 1 : 0) > w) {
      after += '…';
      break;
    }
    if (i < cursorCell) before += cell.g;
    else if (i === cursorCell) at = cell.g;
    else after += cell.g;
    used += cell.w;
    if (i < cursorCell) column = used;
  }
  return { before, at, after, column };
}
