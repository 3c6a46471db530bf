/**
 * The lists at the left: title, how many records, and a mark for those waiting for a person's
 * approval. Only the lists that fit are rendered.
 */
import { Box } from 'ink';
import type { ListSummary } from '../../store/types.js';
import { useBinder } from '../context.js';
import { cut, safe } from '../format.js';
import { Styled, mark } from './Styled.js';

export interface ListsPaneProps {
  lists: readonly ListSummary[];
  selected: string | null;
  focused: boolean;
  scroll: number;
  page: number;
  width: number;
  archived: boolean;
}

export function ListsPane({ lists, selected, focused, scroll, page, width, archived }: ListsPaneProps) {
  const { words } = useBinder();
  const shown = lists.slice(scroll, scroll + page);
  return (
    <Box flexDirection="column" width={width}>
      <Styled tone="head">{`${focused ? '▸ ' : '  '}${archived ? words.lists.archivedTitle : words.lists.title}`}</Styled>
      {lists.length === 0 ? <Styled tone="dim">{`  ${words.lists.none}`}</Styled> : null}
      {shown.map((l) => {
        const on = l.id === selected;
        const tail = `${l.count}${l.waiting ? ` ●${l.waiting}` : ''}${l.archived ? ` ${words.lists.archivedMark}` : ''}`;
        const room = Math.max(3, width - tail.length - 3);
        const title = cut(safe(l.title), room);
        return (
          <Styled key={l.id} selected={on && focused} tone={on ? 'plain' : 'dim'}>
            {`${mark(on)} ${title.padEnd(room)} ${tail}`}
          </Styled>
        );
      })}
    </Box>
  );
}
