/**
 * The body of the screen, between the header and the message line: a dialog in front of all,
 * else the screen in front (a record, search, help, access, folders, a list's shape, what
 * changed), else the lists at the left and the open list as a board or a table. It only draws.
 */
import { Box } from 'ink';
import type { SideConfig } from '../../keeper/keeper-types.js';
import { useBinder } from '../context.js';
import { cut, safe } from '../../person/format.js';
import { kindCounts } from '../../person/brief-lines.js';
import { keyLabel } from '../../person/help-lines.js';
import type { ViewData } from '../hooks/use-view-data.js';
import { keysFor } from '../../person/keymap.js';
import { pageOf, type Layout } from '../layout.js';
import { top, type ScreenState } from '../../person/screen-state.js';
import { settle } from '../../person/window.js';
import { BoardView } from './BoardView.js';
import { DialogView } from './DialogView.js';
import { GrantScreen } from './GrantScreen.js';
import { LinesView } from './LinesView.js';
import { ListEditor } from './ListEditor.js';
import { ListsPane } from './ListsPane.js';
import { SearchScreen } from './SearchScreen.js';
import { SidesScreen } from './SidesScreen.js';
import { Styled } from './Styled.js';
import { TableView } from './TableView.js';
import { Welcome } from './Welcome.js';

export interface BodyProps {
  state: ScreenState;
  data: ViewData;
  layout: Layout;
  side: SideConfig | null;
  at: number;
}

export function Body({ state, data, layout, side, at }: BodyProps) {
  const { words } = useBinder();
  const screen = top(state);
  const width = layout.columns;
  if (state.dialog) return <DialogView dialog={state.dialog} width={width} rows={layout.body} top={layout.bodyTop} />;
  if (screen) {
    const page = pageOf(screen.kind, layout);
    const window = (cursor: { at: number; scroll: number }) => settle(cursor, data.facts.rows, page);
    switch (screen.kind) {
      case 'record':
        // Its read not come yet (the last one was of another record): nothing, rather than a word
        // that it is gone for a record that may well be there.
        if (!data.record) return null;
        if (!data.record.ok) return <Styled tone="warn">{safe(data.record.text)}</Styled>;
        return <LinesView lines={data.lines} scroll={window(data.recordCursor ?? screen.cursor).scroll} page={page} at={(data.recordCursor ?? screen.cursor).at} />;
      case 'search':
        return (
          <SearchScreen
            text={screen.text}
            caret={screen.caret}
            typing={screen.focus === 'input'}
            hits={data.search?.ok ? data.search.value : []}
            refused={data.search && !data.search.ok ? data.search.text : null}
            looking={data.searched?.for !== screen.text}
            cut={data.searched?.cut === true}
            filters={screen.filters}
            cursor={window(screen.cursor)}
            page={page}
            width={width}
            top={layout.bodyTop}
          />
        );
      case 'help':
        return (
          <Box flexDirection="column">
            <Styled tone="title">{words.help.title}</Styled>
            <LinesView lines={data.help} scroll={screen.scroll} page={page} at={null} />
          </Box>
        );
      case 'grant':
        return data.managed
          ? <GrantScreen list={data.managed.list} rows={data.agents} at={screen.cursor.at} scroll={window(screen.cursor).scroll} page={page} width={width} />
          : <Styled>{words.say.noList}</Styled>;
      case 'sides':
        return <SidesScreen rows={data.sides} at={screen.cursor.at} scroll={window(screen.cursor).scroll} page={page} now={at} width={width} />;
      case 'brief':
        return (
          <Box flexDirection="column">
            <Styled tone="title">{cut(`${words.brief.title} · ${screen.marked ? words.brief.markedSeen(screen.counts?.total ?? screen.items.length) : `${words.brief.count(screen.counts?.total ?? screen.items.length)}${screen.counts?.atLeast ? '+' : ''}${screen.counts?.total ? `: ${kindCounts(screen.counts, words)}` : ''}`}`, width)}</Styled>
            <Styled tone="dim">{cut(words.brief.keys(keyLabel(keysFor('briefLatest', 'brief')[0]!, words), keyLabel(keysFor('briefSeen', 'brief')[0]!, words)), width)}</Styled>
            <LinesView lines={data.brief} scroll={window(screen.cursor).scroll} page={page} at={screen.cursor.at} />
          </Box>
        );
      case 'list-editor':
        return data.managed
          ? <ListEditor list={data.managed.list} rows={data.editor} at={screen.cursor.at} scroll={window(screen.cursor).scroll} page={page} width={width} />
          : <Styled>{words.say.noList}</Styled>;
      default: {
        const never: never = screen;
        throw new Error(`unknown screen ${JSON.stringify(never)}`);
      }
    }
  }
  if (data.empty && !state.browse.archivedLists) {
    return <Welcome templates={data.templates} at={state.browse.welcome.at} side={side} width={width} />;
  }
  const focused = state.browse.pane === 'records';
  const w = data.window;
  return (
    <Box flexDirection="row">
      {layout.listsWidth ? <><ListsPane
        lists={data.lists}
        selected={data.listId}
        focused={!focused}
        scroll={Math.min(state.browse.listsScroll, Math.max(0, data.lists.length - 1))}
        page={layout.listsPage}
        width={layout.listsWidth}
        archived={state.browse.archivedLists}
        hidden={data.hiddenLists}
        archivedKey={keyLabel(keysFor('archivedLists', 'lists')[0]!, words)}
      />
      <Box width={1} /></> : null}
      {!w
        ? <Styled tone="dim">{words.view.noAccess}</Styled>
        : !w.ok
          ? <Styled tone="warn">{safe(w.text)}</Styled>
          : w.value.kind === 'board'
            ? <BoardView board={w.value} column={data.column} focused={focused} width={layout.mainWidth} rows={layout.cardPage} fit={layout.boardColumns} nameOf={data.nameOf} />
            : <TableView table={w.value} focused={focused} width={layout.mainWidth} nameOf={data.nameOf} />}
    </Box>
  );
}
