/**
 * The screen: the lists at the left, the open list as a board or a table, a screen in front
 * when one is open (a record, search, help, access, folders, a list's shape), a dialog in front
 * of all, then the message and status lines. It wires hooks to components; it decides nothing a
 * reducer or a command could.
 */
import { Box, useApp, type Key } from 'ink';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { DueRecord } from '../../store/types.js';
import { useBinder } from '../context.js';
import { cut, safe } from '../format.js';
import { keyHints, keyLabel } from '../help-lines.js';
import { useCommands } from '../hooks/use-commands.js';
import { useDue } from '../hooks/use-due.js';
import { useFolders } from '../hooks/use-folders.js';
import { useKeyChunks } from '../hooks/use-key-chunks.js';
import { useScreenSize } from '../hooks/use-screen-size.js';
import { useStoreVersion } from '../hooks/use-store-version.js';
import { useUnseen } from '../hooks/use-unseen.js';
import { useViewData, type ViewData } from '../hooks/use-view-data.js';
import { textFieldFocused } from '../key-chunks.js';
import { commandFor, keysFor } from '../keymap.js';
import { layoutFor, pageOf, type Layout } from '../layout.js';
import { reduce, type Action } from '../screen-reducer.js';
import { contextOf, INITIAL, top, type ScreenState } from '../screen-state.js';
import { BoardView } from './BoardView.js';
import { DialogView } from './DialogView.js';
import { GrantScreen } from './GrantScreen.js';
import { LinesView } from './LinesView.js';
import { ListEditor } from './ListEditor.js';
import { ListsPane } from './ListsPane.js';
import { SearchScreen } from './SearchScreen.js';
import { SidesScreen } from './SidesScreen.js';
import { StatusLine } from './StatusLine.js';
import { Styled } from './Styled.js';
import { TableView } from './TableView.js';
import { Welcome } from './Welcome.js';

export function App() {
  const { keeper, person, words, now, pollMs, dueMs, firstSide, onDiagnostic } = useBinder();
  const size = useScreenSize();
  const [state, dispatch] = useReducer(reduce, INITIAL);
  const version = useStoreVersion(keeper, pollMs);
  const { folders, at } = useFolders(keeper, now);
  const layout = layoutFor(size, state.notices.length > 0);
  const data = useViewData(state, version, layout, folders);
  const context = contextOf(state, data.empty);
  const run = useCommands(state, dispatch, data, context, layout);
  const shown = top(state);
  const unseen = useUnseen(keeper, person, version, shown?.kind === 'brief' ? shown.items : null, 2000);
  const [diagnostic, setDiagnostic] = useState<string | null>(null);

  const tell = useCallback((records: DueRecord[]) => {
    dispatch({ type: 'notices', add: records.map((r) => ({ id: r.id, title: safe(r.title), due: safe(r.due) })) });
  }, []);
  useDue(keeper, dueMs, tell);
  useEffect(() => onDiagnostic((line) => setDiagnostic(safe(line))), [onDiagnostic]);

  const { exit } = useApp();
  useEffect(() => {
    if (state.quitting) exit();
  }, [state.quitting, exit]);

  // The handler reads the last frame's place through a ref, so keys typed faster than effects run still land right.
  const latest = useRef({ context, run, typing: false, stopped: false });
  latest.current = { context, run, typing: textFieldFocused(state), stopped: state.quitting };
  const hear = useCallback((input: string, key: Key) => {
    const command = commandFor(latest.current.context, input, key);
    if (command) latest.current.run(command);
  }, []);
  const place = useCallback(() => latest.current, []);
  useKeyChunks(hear, place);

  const message = state.message ?? (diagnostic ? { text: diagnostic, tone: 'refused' as const } : null);
  return (
    <Box flexDirection="column" width={layout.columns} height={layout.rows - 1}>
      <Styled tone="title">{cut(header(state, data, 'Binder', words), layout.columns)}</Styled>
      {state.notices.length ? <Styled tone="warn">{cut(notices(state, words), layout.columns)}</Styled> : null}
      {/* Rows are cut to the width before Ink sees them: only the height needs a clip (a clip across
          is a slice of every row, each first frame). */}
      <Box height={layout.body} overflowY="hidden" flexDirection="column">
        <Body state={state} data={data} layout={layout} dispatch={dispatch} side={firstSide()} at={at} />
      </Box>
      <Styled tone={message?.tone === 'refused' ? 'warn' : message?.tone === 'done' ? 'good' : 'plain'}>{cut(message?.text ?? ' ', layout.columns)}</Styled>
      <StatusLine
        store={keeper.store.path}
        folders={folders}
        at={at}
        keys={keyHints(context, words)}
        unseen={unseen && unseen.count ? words.status.unseen(unseen.count, unseen.more, keyLabel(keysFor('brief', 'lists')[0]!, words)) : null}
        width={layout.columns}
      />
    </Box>
  );
}

type Words = ReturnType<typeof useBinder>['words'];

function header(state: ScreenState, data: ViewData, brand: string, words: Words): string {
  const screen = top(state);
  if (screen?.kind === 'record') {
    const r = data.record?.ok ? data.record.value.record : null;
    return r ? `${brand} · #${r.id} ${safe(r.title)}` : brand;
  }
  if (screen) return `${brand} · ${screen.kind === 'search' ? words.search.title : words.contexts[screen.kind]}`;
  const w = data.window?.ok ? data.window.value : null;
  if (!w) return brand;
  const filters = words.view.filters(
    state.browse.filters.state ? safe(w.list.states.find((s) => s.id === state.browse.filters.state)?.name ?? '') : null,
    state.browse.filters.mine,
    state.browse.filters.archived,
  );
  const waiting = data.lists.find((l) => l.id === w.list.id)?.waiting ?? 0;
  return `${brand} · ${safe(w.list.title)} · ${words.view.count(w.total)}${waiting ? ` · ●${waiting} ${words.lists.waiting(waiting)}` : ''}${filters ? ` · ${filters}` : ''}`;
}

function notices(state: ScreenState, words: Words): string {
  const [first, ...rest] = state.notices;
  if (!first) return '';
  return `${words.notice.due(first.id, first.title, first.due)}${rest.length ? ` · ${words.notice.more(rest.length)}` : ''} · ${words.notice.dismiss}`;
}

interface BodyProps {
  state: ScreenState;
  data: ViewData;
  layout: Layout;
  dispatch: (action: Action) => void;
  side: ReturnType<ReturnType<typeof useBinder>['firstSide']>;
  at: number;
}

function Body({ state, data, layout, dispatch, side, at }: BodyProps) {
  const { words } = useBinder();
  const screen = top(state);
  const width = layout.columns;
  if (state.dialog) {
    return (
      <DialogView
        dialog={state.dialog}
        width={width}
        onValue={(name, value) => dispatch({ type: 'form-value', name, value })}
        onTyped={(value) => dispatch({ type: 'confirm-typed', value })}
      />
    );
  }
  if (screen) {
    switch (screen.kind) {
      case 'record':
        if (!data.record?.ok) return <Styled tone="warn">{data.record ? safe(data.record.text) : words.record.gone}</Styled>;
        return <LinesView lines={data.lines} scroll={Math.min(screen.cursor.scroll, Math.max(0, data.lines.length - 1))} page={pageOf('record', layout)} at={screen.cursor.at} />;
      case 'search':
        return (
          <SearchScreen
            text={screen.text}
            typing={screen.focus === 'input'}
            hits={data.search?.ok ? data.search.value : []}
            refused={data.search && !data.search.ok ? data.search.text : null}
            filters={screen.filters}
            cursor={screen.cursor}
            page={pageOf('search', layout)}
            width={width}
            onText={(text) => dispatch({ type: 'search-text', text })}
          />
        );
      case 'help':
        return (
          <Box flexDirection="column">
            <Styled tone="title">{words.help.title}</Styled>
            <LinesView lines={data.help} scroll={screen.scroll} page={pageOf('help', layout)} at={null} />
          </Box>
        );
      case 'grant':
        return data.managed ? <GrantScreen list={data.managed.list} rows={data.agents} at={screen.cursor.at} width={width} /> : <Styled>{words.say.noList}</Styled>;
      case 'sides':
        return <SidesScreen rows={data.sides} at={screen.cursor.at} now={at} width={width} />;
      case 'brief':
        return (
          <Box flexDirection="column">
            <Styled tone="title">{`${words.brief.title} · ${words.brief.count(screen.items.length)}${screen.more ? '+' : ''}`}</Styled>
            <LinesView lines={data.brief} scroll={Math.min(screen.cursor.scroll, Math.max(0, data.brief.length - 1))} page={pageOf('brief', layout)} at={screen.cursor.at} />
          </Box>
        );
      case 'list-editor':
        return data.managed ? <ListEditor list={data.managed.list} rows={data.editor} at={screen.cursor.at} width={width} /> : <Styled>{words.say.noList}</Styled>;
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
      <ListsPane
        lists={data.lists}
        selected={data.listId}
        focused={!focused}
        scroll={Math.min(state.browse.listsScroll, Math.max(0, data.lists.length - 1))}
        page={layout.listsPage}
        width={layout.listsWidth}
        archived={state.browse.archivedLists}
      />
      <Box width={1} />
      {!w
        ? <Styled tone="dim">{words.view.noAccess}</Styled>
        : !w.ok
          ? <Styled tone="warn">{safe(w.text)}</Styled>
          : w.value.kind === 'board'
            ? <BoardView board={w.value} column={state.browse.column} focused={focused} width={layout.mainWidth} page={layout.cardPage} fit={layout.boardColumns} />
            : <TableView table={w.value} focused={focused} width={layout.mainWidth} />}
    </Box>
  );
}
