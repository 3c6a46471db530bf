/**
 * The screen: the header, the body (components/Body.tsx), then the message and status lines.
 * It wires hooks to components: what it hears (hooks/use-hear.ts), the record its cursor holds
 * (hooks/use-held-cursor.ts), the message it says (hooks/use-message.ts). It decides nothing a
 * reducer or a command could.
 */
import { Box, useApp, useStdout } from 'ink';
import { useCallback, useEffect, useReducer, useState } from 'react';
import type { DueRecord } from '../../store/index.js';
import { useBinder } from '../context.js';
import { cut, safe, wrap } from '../../person/format.js';
import { keyHints, keyLabel } from '../../person/help-lines.js';
import { useCommands } from '../hooks/use-commands.js';
import { useDue } from '../hooks/use-due.js';
import { useFolders } from '../hooks/use-folders.js';
import { useHear } from '../hooks/use-hear.js';
import { useHeardWork } from '../hooks/use-heard-work.js';
import { useHeldCursor } from '../hooks/use-held-cursor.js';
import { useMessage } from '../hooks/use-message.js';
import { useScreenSize } from '../hooks/use-screen-size.js';
import { useStoreVersion } from '../hooks/use-store-version.js';
import { useUnseen } from '../hooks/use-unseen.js';
import { useViewData, type ViewData } from '../hooks/use-view-data.js';
import { keysFor } from '../../person/keymap.js';
import { layoutFor, MIN_COLUMNS, MIN_ROWS } from '../layout.js';
import { FILTER_MATCHES } from '../../person/reading.js';
import { reduce } from '../screen-reducer.js';
import { contextOf, INITIAL, top, zoomed, type Message, type ScreenState } from '../../person/screen-state.js';
import { Body } from './Body.js';
import { StatusLine } from './StatusLine.js';
import { Styled } from './Styled.js';

const CLEAR_SCREEN = '\u001b[2J\u001b[H';

export function App() {
  const { keeper, person, words, now, pollMs, dueMs, firstSide, onDiagnostic, terminal, noFolder, notify } = useBinder();
  const size = useScreenSize();
  const [state, dispatch] = useReducer(reduce, INITIAL);
  const version = useStoreVersion(keeper, pollMs);
  const { folders, at } = useFolders(keeper, now);
  const [diagnostic, setDiagnostic] = useState<string | null>(null);

  const message = useMessage(state, version, diagnostic);
  // A long sentence (a refusal, most often) takes a second row rather than being cut.
  const messageRows = message ? Math.min(2, wrap(message.text, Math.max(MIN_COLUMNS, size.columns)).length) : 1;
  const layout = layoutFor(size, state.notices.length > 0, messageRows, zoomed(state));
  const data = useViewData(state, version, layout, folders);
  const context = contextOf(state, data.empty);
  const run = useCommands(state, dispatch, data, context, layout);
  const shown = top(state);
  const unseen = useUnseen(keeper, person, version, shown?.kind === 'brief' ? shown : null, 2000);
  const heard = useHeardWork(keeper, person, words, version, shown?.kind === 'brief' ? shown : null, notify ?? null, 1000);
  const say = useCallback((text: string, tone: Message['tone'] = 'info') => dispatch({ type: 'message', message: { text, tone } }), []);

  const tell = useCallback((records: DueRecord[]) => {
    dispatch({ type: 'notices', add: records.map((r) => ({ id: r.id, title: safe(r.title), due: safe(r.due) })) });
  }, []);
  useDue(keeper, dueMs, tell);
  useEffect(() => onDiagnostic((line) => setDiagnostic(safe(line))), [onDiagnostic]);
  useEffect(() => {
    if (noFolder) say(words.say.noFolder(keyLabel(keysFor('sides', 'lists')[0]!, words)));
  }, [noFolder, words, say]);

  const { exit } = useApp();
  useEffect(() => {
    if (state.quitting) exit();
  }, [state.quitting, exit]);

  // Back from a suspension (`fg`): the terminal was the shell's meanwhile, so the whole frame is drawn again.
  const { write } = useStdout();
  useEffect(() => terminal?.onResume(() => write(CLEAR_SCREEN)), [terminal, write]);

  // A board column whose cards needed more rows than a count says keeps the window it was drawn with.
  const scrolled = JSON.stringify(data.scrolled);
  useEffect(() => {
    if (data.scrolled.length) dispatch({ type: 'board-scroll', scrolled: data.scrolled });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scrolled]);

  useHeldCursor(state, data, dispatch);
  useHear({ state, data, context, run, layout }, dispatch, say);
  // Nothing is drawn until the binder was read: never a frame of an empty binder that is not.
  if (!data.ready) return null;

  if (layout.tooSmall) {
    return (
      <Box flexDirection="column" width={size.columns}>
        {wrap(words.say.tooSmall(size.columns, size.rows, MIN_COLUMNS, MIN_ROWS), Math.max(1, size.columns)).slice(0, Math.max(1, size.rows - 1)).map((row, i) => <Styled key={i} tone="warn">{row}</Styled>)}
      </Box>
    );
  }

  return (
    <Box flexDirection="column" width={layout.columns} height={layout.rows - 1}>
      {layout.frame ? <Styled tone="title">{cut(header(state, data, 'Binder', words), layout.columns)}</Styled> : null}
      {state.notices.length ? <Styled tone="warn">{cut(notices(state, words), layout.columns)}</Styled> : null}
      {/* Rows are cut to the width before Ink sees them: only the height needs a clip (a clip across
          is a slice of every row, each first frame). */}
      <Box height={layout.body} overflowY="hidden" flexDirection="column">
        <Body state={state} data={data} layout={layout} side={firstSide()} at={at} />
      </Box>
      <MessageLines message={message} rows={messageRows} columns={layout.columns} />
      {layout.frame ? <StatusLine
        store={keeper.store.path}
        folders={folders}
        at={at}
        keys={keyHints(context, words, layout.columns)}
        unseen={unseen && unseen.count ? words.status.unseen(unseen.count, unseen.more, keyLabel(keysFor('brief', 'lists')[0]!, words)) : null}
        heard={heard ? `${heard.text}${heard.more ? ` (${words.heard.more(heard.more)})` : ''}` : null}
        width={layout.columns}
      /> : null}
    </Box>
  );
}

/** The message, wrapped to its rows: what is past the last row is cut on it. */
function MessageLines({ message, rows, columns }: { message: Message | null; rows: number; columns: number }) {
  const tone = message?.tone === 'refused' ? 'warn' : message?.tone === 'done' ? 'good' : 'plain';
  const lines = message ? wrap(message.text, columns) : [' '];
  const shown = lines.length > rows ? [...lines.slice(0, rows - 1), cut(lines.slice(rows - 1).join(' '), columns)] : lines;
  return <>{shown.map((row, i) => <Styled key={`message-${i}`} tone={tone}>{row || ' '}</Styled>)}</>;
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
  const { filters } = state.browse;
  const shown = words.view.filters(
    filters.state ? safe(w.list.states.find((s) => s.id === filters.state)?.name ?? '') : null,
    filters.mine,
    filters.archived,
  );
  const text = filters.text ? `${words.filter.shown(safe(filters.text))}${w.capped ? ` (${words.filter.capped(FILTER_MATCHES)})` : ''}` : '';
  const waiting = data.lists.find((l) => l.id === w.list.id)?.waiting ?? 0;
  return `${brand} · ${safe(w.list.title)} · ${words.view.count(w.total)}${waiting ? ` · ●${waiting} ${words.lists.waiting(waiting)}` : ''}${shown ? ` · ${shown}` : ''}${text ? ` · ${text}` : ''}`;
}

function notices(state: ScreenState, words: Words): string {
  const [first, ...rest] = state.notices;
  if (!first) return '';
  return `${words.notice.due(first.id, first.title, first.due)}${rest.length ? ` · ${words.notice.more(rest.length)}` : ''} · ${words.notice.dismiss}`;
}
