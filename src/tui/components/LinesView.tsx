/**
 * A window of prepared lines (a record opened, the help): only the rows in view are rendered,
 * the cursor's row marked. The lines are already safe and cut to the width.
 */
import { Box } from 'ink';
import type { Line } from '../../person/record-lines.js';
import { Styled, mark } from './Styled.js';

export interface LinesViewProps {
  lines: readonly Line[];
  scroll: number;
  page: number;
  /** The cursor's line, or null for none. */
  at: number | null;
}

export function LinesView({ lines, scroll, page, at }: LinesViewProps) {
  return (
    <Box flexDirection="column">
      {lines.slice(scroll, scroll + page).map((line, i) => {
        const n = scroll + i;
        const on = at === n;
        return (
          <Styled key={n} tone={line.tone} selected={on}>
            {`${at === null ? '' : mark(on)}${line.text || ' '}`}
          </Styled>
        );
      })}
    </Box>
  );
}
