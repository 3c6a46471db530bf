/**
 * Search across every list, live as the person types: the words, the filters, and the matches
 * (`#id title`, list, state, and the piece of text that matched), only those in view rendered.
 */
import { Box } from 'ink';
import type { SearchHit } from '../../store/index.js';
import { useBinder } from '../context.js';
import { cut, displayWidth, safe } from '../../person/format.js';
import { keyLabel } from '../../person/help-lines.js';
import { keysFor } from '../../person/keymap.js';
import type { Filters } from '../../person/screen-state.js';
import type { Cursor } from '../../person/window.js';
import { Styled, mark } from './Styled.js';
import { TextField } from './TextField.js';

export interface SearchScreenProps {
  text: string;
  caret: number;
  typing: boolean;
  hits: readonly SearchHit[];
  refused: string | null;
  /** The hits shown are not yet for the words typed. */
  looking: boolean;
  /** The search found more than it shows. */
  cut: boolean;
  filters: Filters;
  cursor: Cursor;
  page: number;
  width: number;
  /** The frame's row the screen starts on. */
  top: number;
}

export function SearchScreen({ text, caret, typing, hits, refused, looking, cut: wasCut, filters, cursor, page, width, top }: SearchScreenProps) {
  const { words } = useBinder();
  const filter = words.view.filters(filters.state ? safe(filters.state) : null, filters.mine, filters.archived);
  const narrow = (['filterState', 'filterMine'] as const).map((c) => `${keysFor(c, 'results').map((k) => keyLabel(k, words)).join('/')} ${words.commands[c]}`).join(', ');
  // "Nothing matches" only once the words typed were looked for: never while the search still looks.
  const summary = !text.trim() ? words.search.typeToSearch : looking ? words.search.looking : refused ? safe(refused)
    : wasCut ? words.search.cut(hits.length, narrow) : hits.length ? words.search.results(hits.length) : words.search.noMatch;
  const label = `${words.search.title}: `;
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        <Styled tone="title">{label}</Styled>
        {typing
          ? <TextField value={text} caret={caret} width={Math.max(4, width - displayWidth(label))} placeholder={words.search.placeholder} origin={{ x: displayWidth(label), y: top }} />
          : <Styled>{cut(text, Math.max(4, width - displayWidth(label)))}</Styled>}
      </Box>
      <Styled tone="dim">{cut(`${summary}${filter ? ` · ${filter}` : ''}`, width)}</Styled>
      {hits.slice(cursor.scroll, cursor.scroll + page).map((h, i) => {
        const on = !typing && cursor.scroll + i === cursor.at;
        return (
          <Styled key={h.id} selected={on} tone={h.archived ? 'dim' : 'plain'}>
            {cut(`${mark(on)} #${h.id} ${safe(h.title)} — ${safe(h.listTitle)} · ${safe(h.stateName)}${h.snippet && h.snippet !== h.title ? ` · ${safe(h.snippet)}` : ''}`, width)}
          </Styled>
        );
      })}
    </Box>
  );
}
