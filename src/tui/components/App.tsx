/**
 * The screen: the header, the body (components/Body.tsx), then the message and status lines.
 * It wires hooks to components and hears input: a key is a command of the keymap where it is
 * pressed, or text for the field that has the keys; text that lands where no field is does
 * nothing and says so; a click selects, the wheel scrolls. It decides nothing a reducer or a
 * command could.
 */
import { Box, useApp, useStdout } from 'ink';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { terminalSafe } from '../../keeper/terminal-safe.js';
import type { DueRecord } from '../../store/types.js';
import { useBinder } from '../context.js';
import { cut, safe, wrap } from '../../person/format.js';
import { hitAt } from '../hit.js';
import { keyHints, keyLabel } from '../../person/help-lines.js';
import { MOVES, useCommands } from '../hooks/use-commands.js';
import { useDue } from '../hooks/use-due.js';
import { useFolders } from '../hooks/use-folders.js';
import { useInputGate } from '../hooks/use-input-gate.js';
import { useLoaded } from '../hooks/use-loaded.js';
import { useScreenSize } from '../hooks/use-screen-size.js';
import { useStoreVersion } from '../hooks/use-store-version.js';
import { useUnseen } from '../hooks/use-unseen.js';
import { useViewData, type ViewData } from '../hooks/use-view-data.js';
import { oneLine, type InputEvent } from '../input-events.js';
import { partKey } from '../../person/record-lines.js';
import { commandFor, keysFor, type Command, type Context } from '../../person/keymap.js';
import { decodeKey, isText } from '../../person/keys.js';
import { layoutFor, MIN_COLUMNS, MIN_ROWS, type Layout } from '../layout.js';
import { BARE, FILTER_MATCHES } from '../../person/reading.js';
import { reduce } from '../screen-reducer.js';
import { contextOf, INITIAL, questionOf, top, typingIn, type Message, type ScreenState } from '../../person/screen-state.js';
import { Body } from './Body.js';
import { StatusLine } from './StatusLine.js';
import { Styled } from './Styled.js';

/** How many rows the wheel moves at one notch. */
const WHEEL_ROWS = 3;
const CLEAR_SCREEN = '\u001b[2J\u001b[H';

export function App() {
  const { keeper, person, words, now, pollMs, dueMs, firstSide, onDiagnostic, terminal, noFolder } = useBinder();
  const size = useScreenSize();
  const [state, dispatch] = useReducer(reduce, INITIAL);
  const version = useStoreVersion(keeper, pollMs);
  const { folders, at } = useFolders(keeper, now);
  const [diagnostic, setDiagnostic] = useState<string | null>(null);

  // A message about a record that is gone is gone too.
  const messageRecord = state.message?.record;
  const recordGone = useLoaded(async () => {
    if (messageRecord === undefined) return false;
    try {
      await keeper.store.get(messageRecord, person, BARE);
      return false;
    } catch {
      return true;
    }
  }, [keeper, person, messageRecord, version], false).value;
  const own = state.message && !recordGone ? state.message : null;
  const offered = own && state.undo ? { ...own, text: words.say.undoOffer(own.text, keyLabel(keysFor('undo', 'lists')[0]!, words)) } : own;
  const message = offered ?? (diagnostic ? { text: diagnostic, tone: 'refused' as const } : null);
  // A long sentence (a refusal, most often) takes a second row rather than being cut.
  const messageRows = message ? Math.min(2, wrap(message.text, Math.max(MIN_COLUMNS, size.columns)).length) : 1;
  const layout = layoutFor(size, state.notices.length > 0, messageRows);
  const data = useViewData(state, version, layout, folders);
  const context = contextOf(state, data.empty);
  const run = useCommands(state, dispatch, data, context, layout);
  const shown = top(state);
  const unseen = useUnseen(keeper, person, version, shown?.kind === 'brief' ? shown.items : null, 2000);
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

  // The cursor holds a record: kept where the read found it, moved to its neighbour when it left, or held anew after a move.
  const { heldNews, toKeep } = data;
  const selectedId = data.selected?.id ?? null;
  const heard = useRef<typeof heldNews>(null);
  /** The record under the cursor as the last frame showed it, and its state. */
  const shownUnder = useRef<{ id: number; state: string } | null>(null);
  useEffect(() => {
    if (toKeep?.heldId == null) return;
    dispatch({ type: 'held-moved', id: toKeep.heldId, placed: toKeep.placed });
    const was = shownUnder.current;
    const went = toKeep.held.kind === 'moved' ? toKeep.held.state : null;
    // Moved by someone else to another state, the record is in another place than the person saw: asked again for a moment.
    if (went && was?.id === toKeep.heldId && was.state !== went && state.moving !== toKeep.heldId && toKeep.window.ok) {
      const name = toKeep.window.value.list.states.find((s) => s.id === went)?.name ?? went;
      dispatch({ type: 'held-left', id: toKeep.heldId, at: now(), message: { text: words.say.heldWent(toKeep.heldId, safe(name)), tone: 'info' } });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [toKeep]);
  useEffect(() => {
    shownUnder.current = data.selected ? { id: data.selected.id, state: data.selected.state } : null;
  });
  useEffect(() => {
    const fresh = heldNews !== heard.current;
    heard.current = heldNews;
    const held = fresh ? heldNews?.held : undefined;
    if (held?.kind === 'left') {
      dispatch({ type: 'held-left', id: selectedId, at: now(), message: { text: words.say.heldLeft(held.id, held.why, selectedId), tone: 'info' } });
    } else if (state.browse.held === null && selectedId !== null) dispatch({ type: 'hold', id: selectedId });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [heldNews, selectedId, state.browse.held]);

  // In a record opened: the part held kept under the cursor; held anew after a move; another in its place when it left, asked about for a moment.
  const recordShown = shown?.kind === 'record' ? shown : null;
  const { recordCursor } = data;
  useEffect(() => {
    if (!recordShown || !recordCursor) return;
    const under = partKey(data.lines[recordCursor.at]?.part);
    if (recordCursor !== recordShown.cursor) dispatch({ type: 'record-place', cursor: recordCursor, held: recordShown.held });
    else if (recordShown.held !== under && data.lines.length) {
      const left = recordShown.held !== undefined && !data.lines.some((l) => partKey(l.part) === recordShown.held);
      dispatch({ type: 'record-place', cursor: recordCursor, held: under, ...(left && under ? { slid: { id: recordShown.id, at: now(), part: under } } : {}) });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [recordShown, recordCursor, data.lines]);

  // The offer to take a change back lasts a few seconds.
  useEffect(() => {
    if (!state.undo) return undefined;
    const timer = setTimeout(() => dispatch({ type: 'undo', undo: null }), Math.max(0, state.undo.until - now()));
    return () => clearTimeout(timer);
  }, [state.undo, now]);

  // The handler reads the last frame's place through a ref, so keys heard before effects run still land right.
  const latest = useRef({ state, data, context, run, layout });
  latest.current = { state, data, context, run, layout };
  /** The character of the key before, when it did nothing alone (the first `g` of `gg`). */
  const pending = useRef('');

  /** A click selects what it is on; the wheel does what the arrows do where it turns. */
  const heardMouse = useCallback((mouse: Extract<InputEvent, { kind: 'mouse' }>['mouse'], s: ScreenState, d: ViewData, l: Layout, where: Context, doIt: (command: Command) => void) => {
    if (!mouse.press) return;
    if (mouse.button === 'wheelUp' || mouse.button === 'wheelDown') {
      const command = commandFor(where, decodeKey(mouse.button === 'wheelUp' ? '\u001b[A' : '\u001b[B'), words.lang);
      if (command) for (let i = 0; i < WHEEL_ROWS; i++) doIt(command);
      return;
    }
    if (mouse.button !== 'left') return;
    const hit = hitAt(mouse.x, mouse.y, s, d, l, words);
    if (hit) dispatch({ type: 'select', hit, facts: d.facts });
  }, [words]);

  /**
   * Letters that came in one read, not pasted (bracketed paste is on): keys typed fast, or over a
   * slow link. The moves among them are done in order; a key that would change something is set
   * aside, and the screen says which. False when none of them is a key here (text, said as such).
   */
  const burstOfKeys = useCallback((text: string, where: Context, doIt: (command: Command) => void): boolean => {
    const commands = [...text].map((ch) => ({ ch, command: commandFor(where, decodeKey(ch), words.lang) }));
    if (!commands.some((c) => c.command)) return false;
    for (const { command } of commands) if (command && MOVES.has(command)) doIt(command);
    const aside = commands.filter((c) => c.command && !MOVES.has(c.command)).map((c) => terminalSafe(c.ch));
    if (aside.length) say(words.say.keysSetAside(aside.join(' ')));
    return true;
  }, [words, say]);

  /** Keys heard before the first reads came: heard once they have, in order. */
  const early = useRef<InputEvent[]>([]);
  const hear = useCallback((event: InputEvent): InputEvent[] | void => {
    if (!latest.current.data.ready) {
      early.current.push(event);
      return;
    }
    const { state: s, data: d, context: where, run: doIt, layout: l } = latest.current;
    const typing = typingIn(s);
    const insert = (text: string) => dispatch({
      type: 'edit', edit: { do: 'insert', text: terminalSafe(oneLine(text)) }, cut: (max) => ({ text: words.say.cutAt(max), tone: 'info' }),
    });
    if (event.kind === 'text') {
      pending.current = '';
      if (typing) insert(event.text);
      else if (!event.pasted && burstOfKeys(event.text, where, doIt)) return;
      else say(words.say.textSetAside(cut(terminalSafe(oneLine(event.text)), 40), keyLabel(keysFor('search', 'lists')[0]!, words)));
      return;
    }
    if (event.kind === 'mouse') {
      pending.current = '';
      heardMouse(event.mouse, s, d, l, where, doIt);
      return;
    }
    const key = event.key;
    if (typing && isText(key)) {
      pending.current = '';
      insert(key.text);
      return;
    }
    const command = commandFor(where, key, words.lang, pending.current !== '' && pending.current === key.text);
    pending.current = !command && isText(key) ? key.text : '';
    if (command) doIt(command);
    else if (key.meta && event.sequence.startsWith('\u001b') && event.sequence.length > 1) {
      // Escape and a key pressed fast come as one (as Alt with that key): where Alt with it means nothing, they are the two keys.
      const rest = event.sequence.slice(1);
      return [{ kind: 'key', sequence: '\u001b', key: decodeKey('\u001b') }, { kind: 'key', sequence: rest, key: decodeKey(rest) }];
    } else if (where === 'confirm' && isText(key)) {
      // Anything but an answer leaves the question unanswered: a word typed here never deletes.
      doIt('cancel');
      say(words.say.notAnswered(keysFor('yes', 'confirm', words.lang).map((k) => keyLabel(k, words)).join('/')));
    }
  }, [words, say, heardMouse, burstOfKeys]);

  const place = useCallback(() => ({ typing: typingIn(latest.current.state), stopped: latest.current.state.quitting, question: questionOf(latest.current.state) }), []);
  const setAside = useCallback((count: number) => say(words.dialog.setAside(count)), [words, say]);
  useInputGate(hear, place, setAside);
  useEffect(() => {
    if (!data.ready || early.current.length === 0) return;
    const heard = early.current.splice(0);
    for (const event of heard) {
      const more = hear(event);
      if (more) for (const next of more) hear(next);
    }
  }, [data.ready, hear]);
  // Nothing is drawn until the binder was read: never a frame of an empty binder that is not.
  if (!data.ready) return null;

  if (layout.tooSmall) {
    return (
      <Box flexDirection="column" width={size.columns}>
        {wrap(words.say.tooSmall(size.columns, size.rows, MIN_COLUMNS, MIN_ROWS), Math.max(1, size.columns)).slice(0, Math.max(1, size.rows - 1)).map((row, i) => <Styled key={i} tone="warn">{row}</Styled>)}
      </Box>
    );
  }

  const messageTone = message?.tone === 'refused' ? 'warn' : message?.tone === 'done' ? 'good' : 'plain';
  const messageLines = message ? wrap(message.text, layout.columns) : [' '];
  const shownLines = messageLines.length > messageRows
    ? [...messageLines.slice(0, messageRows - 1), cut(messageLines.slice(messageRows - 1).join(' '), layout.columns)]
    : messageLines;
  return (
    <Box flexDirection="column" width={layout.columns} height={layout.rows - 1}>
      <Styled tone="title">{cut(header(state, data, 'Binder', words), layout.columns)}</Styled>
      {state.notices.length ? <Styled tone="warn">{cut(notices(state, words), layout.columns)}</Styled> : null}
      {/* Rows are cut to the width before Ink sees them: only the height needs a clip (a clip across
          is a slice of every row, each first frame). */}
      <Box height={layout.body} overflowY="hidden" flexDirection="column">
        <Body state={state} data={data} layout={layout} side={firstSide()} at={at} />
      </Box>
      {shownLines.map((row, i) => <Styled key={`message-${i}`} tone={messageTone}>{row || ' '}</Styled>)}
      <StatusLine
        store={keeper.store.path}
        folders={folders}
        at={at}
        keys={keyHints(context, words, layout.columns)}
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
