/**
 * A search's snippet with the words found marked (<mark>): the text cut into pieces and each
 * piece given to React as text, so a record's words are never read as HTML. Words match as the
 * store's search folds them: without case or accents.
 */
import type { ReactNode } from 'react';

const fold = (text: string): string => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

export function marked(text: string, asked: string): ReactNode[] {
  const words = [...new Set(asked.split(/\s+/).map((w) => fold(w.replace(/^[#-]/, ''))).filter((w) => w.length > 0))];
  // Folding keeps one character for one where the text is precomposed; where it is not, nothing is marked.
  const folded = fold(text);
  if (!words.length || folded.length !== text.length) return [text];
  const pieces: ReactNode[] = [];
  let at = 0;
  while (at < text.length) {
    let next = -1;
    let word = '';
    for (const w of words) {
      const found = folded.indexOf(w, at);
      if (found !== -1 && (next === -1 || found < next)) {
        next = found;
        word = w;
      }
    }
    if (next === -1) break;
    if (next > at) pieces.push(text.slice(at, next));
    pieces.push(<mark key={next}>{text.slice(next, next + word.length)}</mark>);
    at = next + word.length;
  }
  if (at < text.length) pieces.push(text.slice(at));
  return pieces;
}
