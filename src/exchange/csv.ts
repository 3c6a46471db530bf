/**
 * CSV as RFC 4180 writes it: fields quoted when they hold a comma, a quote or a line break, rows
 * ended by CRLF. Reading gives each row with the line it starts on (a quoted field may span
 * lines), so a refusal can name it. A cell a spreadsheet would run as a formula (`=`, `+`, `-`,
 * `@`, a tab or a return first) is written after a `'`, and read back without it: text that
 * agents wrote is never a formula in a person's spreadsheet.
 */
import { Refused } from '../store/index.js';

const FORMULA = /^[=+\-@\t\r]/;

function cell(text: string): string {
  const safe = FORMULA.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(cell).join(',')}\r\n`;
}

/** A cell as it was before `cell` guarded it. */
export const unguarded = (text: string): string => (/^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text);

export interface CsvRow { line: number; cells: string[] }

/** The rows of `text` (a BOM and blank lines skipped), each with the line it starts on. */
export function parseCsv(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const n = text.length;
  while (at < n) {
    const start = line;
    const cells: string[] = [];
    for (;;) {
      let value = '';
      if (text[at] === '"') {
        at++;
        for (;;) {
          if (at >= n) {
            throw new Refused(
              `Line ${start}: a quoted field is never closed.`,
              `Ligne ${start} : un champ entre guillemets n'est jamais fermé.`,
            );
          }
          const ch = text[at]!;
          if (ch === '"') {
            if (text[at + 1] === '"') { value += '"'; at += 2; continue; }
            at++;
            break;
          }
          if (ch === '\n') line++;
          value += ch;
          at++;
        }
        // Anything between the closing quote and the separator is kept, as spreadsheets do.
        while (at < n && text[at] !== ',' && text[at] !== '\n' && text[at] !== '\r') value += text[at++];
      } else {
        const from = at;
        while (at < n && text[at] !== ',' && text[at] !== '\n' && text[at] !== '\r') at++;
        value = text.slice(from, at);
      }
      cells.push(unguarded(value));
      if (text[at] === ',') { at++; continue; }
      break;
    }
    if (text[at] === '\r') at++;
    if (text[at] === '\n') { at++; line++; }
    if (cells.length === 1 && cells[0] === '') continue;
    rows.push({ line: start, cells });
  }
  return rows;
}
