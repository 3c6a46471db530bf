/**
 * One row of text in a tone of the theme, cut (never wrapped) to its box; or a row of pieces each
 * in its own tone (a state's colour in a table's row, a key in the hints). With NO_COLOR the tone
 * adds nothing; the words and marks carry the meaning. It renders text already made safe.
 */
import { Text } from 'ink';
import { useBinder } from '../context.js';
import type { Tone } from '../../person/record-lines.js';
import { toneColor } from '../theme.js';

export interface StyledProps {
  tone?: Tone;
  /** The cursor is on it. */
  selected?: boolean;
  /** Bold where the theme has it, whatever its tone (a board column's name, in its state's colour). */
  strong?: boolean;
  children: string;
}

export function Styled({ tone = 'plain', selected = false, strong = false, children }: StyledProps) {
  const { theme } = useBinder();
  return (
    <Text
      wrap="truncate-end"
      color={toneColor(theme, tone)}
      dimColor={tone === 'dim' && theme.dim}
      bold={(strong || tone === 'title' || tone === 'head') && theme.bold}
      inverse={selected && theme.inverse}
    >
      {children}
    </Text>
  );
}

export interface Piece {
  text: string;
  tone?: Tone;
}

/** One row of pieces, each in its tone, the row in `tone` where a piece has none; cut to its box. */
export function Pieces({ pieces, tone = 'plain', selected = false }: { pieces: readonly Piece[]; tone?: Tone; selected?: boolean }) {
  const { theme } = useBinder();
  return (
    <Text wrap="truncate-end" color={toneColor(theme, tone)} dimColor={tone === 'dim' && theme.dim} inverse={selected && theme.inverse}>
      {pieces.map((p, i) => (p.tone && p.tone !== tone
        ? <Text key={i} color={toneColor(theme, p.tone)} dimColor={p.tone === 'dim' && theme.dim}>{p.text}</Text>
        : p.text))}
    </Text>
  );
}

/** The cursor's mark, shown whether or not there is colour. */
export const mark = (selected: boolean) => (selected ? '>' : ' ');
