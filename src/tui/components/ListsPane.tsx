/**
 * The lists at the left: title, how many records, and a mark for those waiting for a person's
 * approval. Only the lists that fit are rendered. When it has the keys, its title says so
 * (highlighted, and marked `▸` for a screen without colour).
 */
import { Box } from 'ink';
import type { ListSummary } from '../../store/index.js';
import { useBinder } from '../context.js';
import { cut, displayWidth, padTo, safe, wrap } from '../../person/format.js';
import { Styled, mark } from './Styled.js';

export interface ListsPaneProps {
  lists: readonly ListSummary[];
  selected: string | null;
  focused: boolean;
  scroll: number;
  page: number;
  width: number;
  archived: boolean;
  /** Lists kept out of sight because they are archived, when none is shown: said instead of "no list". */
  hidden: number;
  /** The key that shows archived lists. */
  archivedKey: string;
}

export function ListsPane({ lists, selected, focused, scroll, page, width, archived, hidden, archivedKey }: ListsPaneProps) {
  const { words } = useBinder();
  const shown = lists.slice(scroll, scroll + page);
  const empty = hidden > 0 ? words.lists.allArchived(hidden, archivedKey) : words.lists.none;
  return (
    <Box flexDirection="column" width={width}>
      <Styled tone="head" selected={focused}>{padTo(`${focused ? '▸ ' : '  '}${archived ? words.lists.archivedTitle : words.lists.title}`, width)}</Styled>
      {lists.length === 0 ? wrap(empty, width - 2).slice(0, page).map((row, i) => <Styled key={`empty-${i}`} tone="dim">{`  ${row}`}</Styled>) : null}
      {shown.map((l) => {
        const on = l.id === selected;
        const tail = `${l.count}${l.waiting ? ` ●${l.waiting}` : ''}${l.archived ? ` ${words.lists.archivedMark}` : ''}`;
        const room = Math.max(3, width - displayWidth(tail) - 3);
        return (
          <Styled key={l.id} selected={on && focused} tone={on ? 'plain' : 'dim'}>
            {cut(`${mark(on)} ${padTo(safe(l.title), room)} ${tail}`, width)}
          </Styled>
        );
      })}
    </Box>
  );
}
