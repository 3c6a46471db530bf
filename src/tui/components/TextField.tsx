/**
 * A one-line text field as it is drawn: the part of its text around the cursor (`lineView`), the
 * cursor's cell highlighted, and the terminal's own cursor put there (so it shows without colour
 * too, and an input method composes in place). It only draws: what is typed is edited by the
 * reducer (line-edit.ts), already made safe.
 */
import { Text, useCursor } from 'ink';
import { useBinder } from '../context.js';
import { cut } from '../../person/format.js';
import { lineView } from '../line-edit.js';

export interface TextFieldProps {
  value: string;
  caret: number;
  width: number;
  /** Shown dim after the cursor while the field is empty. */
  placeholder?: string;
  /** The field's first cell in the frame, for the terminal's cursor. */
  origin?: { x: number; y: number };
}

/** The field that has the keys (one at a time: the terminal has one cursor). */
export function TextField({ value, caret, width, placeholder, origin }: TextFieldProps) {
  const { theme } = useBinder();
  const { setCursorPosition } = useCursor();
  // A line break shown as ↵ (one cell, one character: the caret stays where it is): the field is one row.
  const view = lineView({ value: value.replace(/\n/g, '↵'), cursor: caret }, width);
  setCursorPosition(origin ? { x: origin.x + view.column, y: origin.y } : undefined);
  const hint = !value && placeholder ? cut(placeholder, Math.max(0, width - 2)) : '';
  return (
    <Text wrap="truncate-end">
      {view.before}
      <Text inverse={theme.inverse}>{view.at}</Text>
      {view.after}
      {hint ? <Text dimColor={theme.dim}>{` ${hint}`}</Text> : null}
    </Text>
  );
}
