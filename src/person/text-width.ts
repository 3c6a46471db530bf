/**
 * How many columns a row of the screen takes, when that needs no Unicode segmentation: a row
 * made only of printable ASCII and of the characters below (Latin, Greek, Cyrillic, punctuation,
 * arrows, box drawing, shapes and symbols, each one column wide and never joined to a
 * neighbour into one character) is as wide as it is long. Ink measures every row with
 * `string-width`, which segments any row beyond ASCII and, the first time, builds its emoji
 * expression (tens of milliseconds of the first frame): in the screen's bundle, rows like these
 * are measured here first (scripts/screen-plugins.mjs). It must never say a width `string-width` would
 * not: any other row is left to it (undefined). The characters were chosen by asking
 * `string-width` and `Intl.Segmenter` themselves (test/tui/text-width.test.ts asks again).
 */

/** Characters that are one column each and never join a neighbour, besides printable ASCII. */
export const ONE_COLUMN =
  '\u00A0-\u00AC\u00AE-\u024F\u0370-\u0377\u037A-\u037F\u0384-\u038A\u038C\u038E-\u03A1' +
  '\u03A3-\u0482\u048A-\u04FF\u1E00-\u1EFF\u2000-\u200A\u2010-\u2027\u202F-\u205F\u2070' +
  '\u2071\u2074-\u208E\u2090-\u209C\u20A0-\u20C1\u2100-\u218B\u2190-\u2319\u231C-\u2328' +
  '\u232B-\u23E8\u23ED-\u23EF\u23F1\u23F2\u23F4-\u2429\u2440-\u244A\u2460-\u25FC' +
  '\u25FF-\u2613\u2616-\u262F\u2638-\u2647\u2654-\u267E\u2680-\u2689\u2690-\u2692' +
  '\u2694-\u26A0\u26A2-\u26A9\u26AC-\u26BC\u26BF-\u26C3\u26C6-\u26CD\u26CF-\u26D3' +
  '\u26D5-\u26E9\u26EB-\u26F1\u26F4\u26F6-\u26F9\u26FB\u26FC\u26FE-\u2704\u2706-\u2709' +
  '\u270C-\u2727\u2729-\u274B\u274D\u274F-\u2752\u2756\u2758-\u2794\u2798-\u27AF' +
  '\u27B1-\u27BE\u27C0-\u2B1A\u2B1D-\u2B4F\u2B51-\u2B54\u2B56-\u2B73\u2B76-\u2BFF';

const ROW = new RegExp(`^[\\u0020-\\u007E${ONE_COLUMN}]*$`);
// Control characters, the escape of a colour included, are characters of their own too; only CR
// is left out, as CR LF is one.
const ALONE = new RegExp(`^[\\u0000-\\u000C\\u000E-\\u007F${ONE_COLUMN}]*$`);

/**
 * The width of `text` in columns if every character in it is one column on its own, else
 * undefined. Characters of ambiguous width (`·`, `▸`, `↓`…) are one column, as `string-width`
 * counts them unless told otherwise.
 */
export function plainWidth(text: string): number | undefined {
  return ROW.test(text) ? text.length : undefined;
}

/**
 * A colour or style of the terminal's (SGR: `ESC [ 31 m`), in the one shape that `string-width`'s
 * own pattern (ansi-regex) takes whole: at most four digits before the first `;`, four after each.
 */
const SGR = /\u001B\[(?:\d{1,4}(?:;\d{0,4})*)?m/g;

/**
 * As `plainWidth`, for a row that may hold colours: Ink measures a row whose words are coloured
 * (a state, a key of the hints) with its colours in it, and `string-width` counts them as nothing.
 * Undefined for any row with another escape, or with characters `plainWidth` leaves.
 */
export function styledWidth(text: string): number | undefined {
  return text.includes('\u001B') ? plainWidth(text.replace(SGR, '')) : plainWidth(text);
}

/**
 * Whether every character of `text` (one UTF-16 unit each) is a grapheme of its own: ASCII
 * without CR, and the characters above.
 */
export function eachCharacterAlone(text: string): boolean {
  return ALONE.test(text);
}

/** A cell as Ink's output keeps it (ansi-tokenize's styled character). */
export interface StyledCell {
  type: 'char';
  value: string;
  fullWidth: boolean;
  styles: readonly never[];
}

const NO_STYLES: readonly never[] = Object.freeze([]);

/**
 * The cells of a row with no style and only one-column characters, each a grapheme of its own,
 * as ansi-tokenize would make them (`styledCharsFromTokens(tokenize(row))`), without tokenizing:
 * one object a character and no copy of an empty style list each. Undefined for any other row.
 */
export function plainCells(row: string): StyledCell[] | undefined {
  if (!ROW.test(row)) return undefined;
  const cells: StyledCell[] = new Array(row.length);
  for (let i = 0; i < row.length; i++) cells[i] = { type: 'char', value: row[i]!, fullWidth: false, styles: NO_STYLES };
  return cells;
}

/**
 * A row of cells back into text when no cell has a style (what ansi-tokenize's
 * `styledCharsToString` gives then: the characters, with no code between them); undefined when
 * any cell has one.
 */
export function unstyledRow(cells: readonly { value: string; styles: readonly unknown[] }[]): string | undefined {
  let text = '';
  for (const cell of cells) {
    if (cell.styles.length) return undefined;
    text += cell.value;
  }
  return text;
}
