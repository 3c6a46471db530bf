/**
 * One row of text in a tone of the theme, cut (never wrapped) to its box. With NO_COLOR the tone
 * adds nothing; the words and marks carry the meaning. It renders text already made safe.
 */
import { Text } from 'ink';
import { useBinder } from '../context.js';
import type { Tone } from '../../person/record-lines.js';

export interface StyledProps {
  tone?: Tone;
  /** The cursor is on it. */
  selected?: boolean;
  children: string;
}

export function Styled({ tone = 'plain', selected = false, children }: StyledProps) {
  const { theme } = useBinder();
  const color = tone === 'warn' ? theme.warn : tone === 'good' ? theme.good : tone === 'head' || tone === 'title' ? theme.accent : undefined;
  return (
    <Text
      wrap="truncate-end"
      color={color}
      dimColor={tone === 'dim' && theme.dim}
      bold={(tone === 'title' || tone === 'head') && theme.bold}
      inverse={selected && theme.inverse}
    >
      {children}
    </Text>
  );
}

/** The cursor's mark, shown whether or not there is colour. */
export const mark = (selected: boolean) => (selected ? '>' : ' ');
