/**
 * Search across every list, live as the person types: the words, the filters, and the matches
 * (`#id title`, list, state, and the piece of text that matched), only those in view rendered.
 */
import { Box } from 'ink';
import TextInput from 'ink-text-input';
import { terminalSafe } from '../../keeper/terminal-safe.js';
import type { SearchHit } from '../../store/types.js';
import { useBinder } from '../context.js';
import { safe } from '../format.js';
import type { Filters } from '../screen-state.js';
import type { Cursor } from '../window.js';
import { Styled, mark } from './Styled.js';

export interface SearchScreenProps {
  text: string;
  typing: boolean;
  hits: readonly SearchHit[];
  refused: string | null;
  filters: Filters;
  cursor: Cursor;
  page: number;
  width: number;
  onText: (text: string) => void;
}

export function SearchScreen({ text, typing, hits, refused, filters, cursor, page, width, onText }: SearchScreenProps) {
  const { words } = useBinder();
  const filter = words.view.filters(filters.state ? safe(filters.state) : null, filters.mine, filters.archived);
  const summary = !text.trim() ? words.search.typeToSearch : refused ? safe(refused) : hits.length ? words.search.results(hits.length) : words.search.noMatch;
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        <Styled tone="title">{`${words.search.title}: `}</Styled>
        {typing
          ? <TextInput value={text} onChange={(v) => onText(terminalSafe(v))} placeholder={words.search.placeholder} focus showCursor />
          : <Styled>{text}</Styled>}
      </Box>
      <Styled tone="dim">{`${summary}${filter ? ` · ${filter}` : ''}`}</Styled>
      {hits.slice(cursor.scroll, cursor.scroll + page).map((h, i) => {
        const on = !typing && cursor.scroll + i === cursor.at;
        return (
          <Styled key={h.id} selected={on} tone={h.archived ? 'dim' : 'plain'}>
            {`${mark(on)} #${h.id} ${safe(h.title)} — ${safe(h.listTitle)} · ${safe(h.stateName)}${h.snippet && h.snippet !== h.title ? ` · ${safe(h.snippet)}` : ''}`}
          </Styled>
        );
      })}
    </Box>
  );
}
