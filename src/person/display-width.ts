/**
 * How wide text is on a terminal, and text cut, padded and wrapped to a width, all by the columns
 * each grapheme takes (a CJK character two, a combining accent none), measured as Ink measures
 * its rows (`string-width`), so a row cut here is never cut or wrapped again by Ink. Rows whose
 * every character is one column and one grapheme (nearly all of them) are measured without
 * Unicode segmentation (`plainWidth`), as the first frame needs. It never returns a control
 * character it was not given, and never a row wider than asked.
 */
import stringWidth from 'string-width';
import { segmenterWhenNeeded } from './graphemes.js';
import { eachCharacterAlone, plainWidth } from './text-width.js';

const segmenter = segmenterWhenNeeded(undefined, { granularity: 'grapheme' });

/** The mark at the end of a cut text. One column wide wherever the screen runs (ambiguous width is narrow, as Ink counts it). */
export const ELLIPSIS = '…';

/** The graphemes of `text`, in order. */
export function graphemesOf(text: string): string[] {
  if (eachCharacterAlone(text)) return text.split('');
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** Columns one grapheme takes. */
export function cellWidth(grapheme: string): number {
  return plainWidth(grapheme) ?? stringWidth(grapheme);
}

/** Columns `text` takes. */
export function displayWidth(text: string): number {
  return plainWidth(text) ?? stringWidth(text);
}

/** `text` in at most `width` columns, ending in `…` where it was cut. */
export function cut(text: string, width: number): string {
  if (width <= 0) return '';
  const plain = plainWidth(text);
  if (plain !== undefined) return plain <= width ? text : `${text.slice(0, width - 1)}${ELLIPSIS}`;
  if (stringWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const g of graphemesOf(text)) {
    const w = cellWidth(g);
    if (used + w > width - 1) break;
    out += g;
    used += w;
  }
  return `${out}${ELLIPSIS}`;
}

/** `text` cut to `width` columns and filled with spaces up to it. */
export function padTo(text: string, width: number): string {
  const shown = cut(text, width);
  return shown + ' '.repeat(Math.max(0, width - displayWidth(shown)));
}

/**
 * `text` in rows of at most `width` columns (`next` for the rows after the first), broken at
 * spaces where it can, else between graphemes.
 */
export function wrap(text: string, width: number, next = width): string[] {
  const first = Math.max(1, width);
  const plain = plainWidth(text);
  if (plain !== undefined && plain <= first) return [text];
  const cells = graphemesOf(text).map((g) => ({ g, w: cellWidth(g) }));
  const rows: string[] = [];
  let row: typeof cells = [];
  let used = 0;
  for (const cell of cells) {
    const w = rows.length ? Math.max(1, next) : first;
    if (used + cell.w > w && row.length) {
      // Break at the last space of the row when it is not too far back.
      const space = row.map((c) => c.g).lastIndexOf(' ');
      const keptWidth = space > 0 ? row.slice(0, space).reduce((n, c) => n + c.w, 0) : 0;
      if (space > 0 && keptWidth >= w / 2) {
        rows.push(row.slice(0, space).map((c) => c.g).join('').trimEnd());
        row = row.slice(space + 1);
      } else {
        rows.push(row.map((c) => c.g).join('').trimEnd());
        row = [];
      }
      used = row.reduce((n, c) => n + c.w, 0);
      if (cell.g === ' ' && row.length === 0) continue;
    }
    row.push(cell);
    used += cell.w;
  }
  rows.push(row.map((c) => c.g).join(''));
  return rows;
}
