/**
 * A list as a board: one column per state, each record a card (`#id title`, and under it, only
 * when there is something to say, its claim and when it lapses, how many records it waits on,
 * approval, owners, due, things attached), cut to the column. Only the cards in each column's window are rendered; the counts
 * above and below say how many more. Each column's name is in its state's colour, as the table's
 * states are (none with NO_COLOR); the focused column's name is highlighted. Columns that do not
 * fit at a readable width are off to the side, signed ‹ and ›, and come into view with the cursor.
 */
import { Box } from 'ink';
import type { RecordSummary } from '../../store/index.js';
import { useBinder } from '../context.js';
import { boardPlaces, hasMeta } from '../board-layout.js';
import { claimMark, cut, dueStatus, safe, shortDue } from '../../person/format.js';
import { ownerNames, type NameOf } from '../../person/names.js';
import type { BoardWindow } from '../../person/reading.js';
import { stateTone } from '../../person/state-tones.js';
import { Styled, mark } from './Styled.js';

export interface BoardViewProps {
  board: BoardWindow;
  column: number;
  focused: boolean;
  width: number;
  /** Rows for cards in a column. */
  rows: number;
  fit: number;
  nameOf: NameOf;
}

function Card({ record, selected, focused, width, nameOf }: { record: RecordSummary; selected: boolean; focused: boolean; width: number; nameOf: NameOf }) {
  const { words, now } = useBinder();
  const overdue = dueStatus(record.due, now()) === 'overdue';
  const title = <Styled selected={selected && focused}>{cut(`${mark(selected)}#${record.id} ${safe(record.title)}`, width)}</Styled>;
  if (!hasMeta(record)) return title;
  const meta = [
    record.lease ? claimMark(record.lease, words, now()) : '',
    record.blocked ? words.view.waitsOn(record.blocked) : '',
    record.approved ? `✓ ${words.view.approved}` : '',
    record.owners.length ? ownerNames(record.owners, nameOf) : '',
    record.due ? `${overdue ? '! ' : ''}${shortDue(record.due, now())}` : '',
    record.attached ? words.view.attached(record.attached) : '',
  ].filter(Boolean).join(' · ');
  // Rows straight in the column, no box of their own: fewer nodes for Ink to lay out.
  return (
    <>
      {title}
      <Styled tone={overdue ? 'warn' : 'dim'}>{cut(`  ${meta}`, width)}</Styled>
    </>
  );
}

export function BoardView({ board, column, focused, width, rows, fit, nameOf }: BoardViewProps) {
  const { words } = useBinder();
  const at = Math.min(column, board.columns.length - 1);
  const { from, to, columns } = boardPlaces(board, column, width, fit, rows);
  return (
    <Box flexDirection="row" width={width}>
      {columns.map((place, i) => {
        const col = board.columns[place.index]!;
        const here = place.index === at;
        const above = col.cursor.scroll;
        const below = Math.max(0, col.count - col.cursor.scroll - place.cards.length);
        // Columns off to either side are signed at the edges, never cut away with a long name.
        const left = i === 0 && from > 0 ? '‹ ' : '';
        const right = i === columns.length - 1 && to < board.columns.length ? ' ›' : '';
        const name = `${left}${cut(`${here && focused ? '▸ ' : ''}${safe(col.state.name)} (${col.count})${col.state.gate ? ` · ${words.view.gate}` : ''}`, place.width - 1 - left.length - right.length)}${right}`;
        return (
          <Box key={col.state.id} flexDirection="column" width={place.width} paddingRight={1}>
            <Styled tone={`state-${stateTone(board.list.states, col.state.id)}`} strong selected={here && focused}>{name}</Styled>
            <Styled tone="dim">{above ? words.view.moreAbove(above) : ' '}</Styled>
            {col.records.length === 0 ? <Styled tone="dim">{` ${words.view.empty}`}</Styled> : null}
            {place.cards.map((card) => (
              <Card key={card.record.id} record={card.record} selected={here && card.at === col.cursor.at} focused={focused} width={place.width - 1} nameOf={nameOf} />
            ))}
            {below ? <Styled tone="dim">{words.view.moreBelow(below)}</Styled> : null}
          </Box>
        );
      })}
    </Box>
  );
}
