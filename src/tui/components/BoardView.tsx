/**
 * A list as a board: one column per state, each record a two-row card (`#id title`, then its
 * claim and when it lapses, approval, owners, due, things attached), cut to the column. Only the
 * cards in each column's window are rendered; the counts above and below say how many more.
 */
import { Box } from 'ink';
import type { RecordSummary } from '../../store/types.js';
import { useBinder } from '../context.js';
import { claimMark, cut, dueStatus, owners, safe, shortDue } from '../format.js';
import { columnWindow } from '../layout.js';
import type { BoardWindow } from '../reading.js';
import { Styled, mark } from './Styled.js';

export interface BoardViewProps {
  board: BoardWindow;
  column: number;
  focused: boolean;
  width: number;
  page: number;
  fit: number;
}

function Card({ record, selected, focused, width }: { record: RecordSummary; selected: boolean; focused: boolean; width: number }) {
  const { words, now } = useBinder();
  const overdue = dueStatus(record.due, now()) === 'overdue';
  const meta = [
    record.lease ? claimMark(record.lease, words, now()) : '',
    record.approved ? `✓ ${words.view.approved}` : '',
    record.owners.length ? owners(record.owners) : '',
    record.due ? `${overdue ? '! ' : ''}${shortDue(record.due, now())}` : '',
    record.attached ? words.view.attached(record.attached) : '',
  ].filter(Boolean).join(' · ');
  // Two rows straight in the column, no box of its own: fewer nodes for Ink to lay out.
  return (
    <>
      <Styled selected={selected && focused}>{cut(`${mark(selected)}#${record.id} ${safe(record.title)}`, width)}</Styled>
      <Styled tone={overdue ? 'warn' : 'dim'}>{cut(`  ${meta}`, width)}</Styled>
    </>
  );
}

export function BoardView({ board, column, focused, width, page, fit }: BoardViewProps) {
  const { words } = useBinder();
  const at = Math.min(column, board.columns.length - 1);
  const { from, to } = columnWindow(board.columns.length, fit, at);
  const shown = board.columns.slice(from, to);
  const colWidth = Math.max(8, Math.floor(width / Math.max(1, shown.length)));
  return (
    <Box flexDirection="row" width={width}>
      {shown.map((col, i) => {
        const here = from + i === at;
        const above = col.cursor.scroll;
        const below = Math.max(0, col.count - col.cursor.scroll - col.records.length);
        return (
          <Box key={col.state.id} flexDirection="column" width={colWidth} paddingRight={1}>
            <Styled tone={here && focused ? 'title' : 'head'}>
              {cut(`${i === 0 && from > 0 ? '‹ ' : ''}${safe(col.state.name)} (${col.count})${col.state.gate ? ` · ${words.view.gate}` : ''}${i === shown.length - 1 && to < board.columns.length ? ' ›' : ''}`, colWidth - 1)}
            </Styled>
            <Styled tone="dim">{above ? words.view.moreAbove(above) : ' '}</Styled>
            {col.records.length === 0 ? <Styled tone="dim">{` ${words.view.empty}`}</Styled> : null}
            {col.records.slice(0, page).map((r, row) => (
              <Card key={r.id} record={r} selected={here && col.cursor.scroll + row === col.cursor.at} focused={focused} width={colWidth - 1} />
            ))}
            {below ? <Styled tone="dim">{words.view.moreBelow(below)}</Styled> : null}
          </Box>
        );
      })}
    </Box>
  );
}
