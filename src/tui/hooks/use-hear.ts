/**
 * What the screen hears: a key is a command of the keymap where it is pressed, or text for the
 * field that has the keys; text that lands where no field is does nothing and says so (or, typed
 * fast, is keys: the moves done, a change set aside); a click selects, the wheel scrolls. Keys
 * heard before the binder was first read are heard once it has, in order.
 */
import { useCallback, useEffect, useRef } from 'react';
import { terminalSafe } from '../../keeper/terminal-safe.js';
import { useBinder } from '../context.js';
import { cut } from '../../person/format.js';
import { keyLabel } from '../../person/help-lines.js';
import { commandFor, keysFor, type Command, type Context } from '../../person/keymap.js';
import { decodeKey, isText } from '../../person/keys.js';
import { questionOf, takesLines, typingIn, type ScreenState } from '../../person/screen-state.js';
import { hitAt } from '../hit.js';
import { lineBreaks, oneLine, type InputEvent } from '../input-events.js';
import type { Layout } from '../layout.js';
import type { Action } from '../screen-reducer.js';
import { MOVES } from './use-commands.js';
import { useInputGate } from './use-input-gate.js';
import type { ViewData } from './use-view-data.js';

/** How many rows the wheel moves at one notch. */
const WHEEL_ROWS = 3;

export interface Frame {
  state: ScreenState;
  data: ViewData;
  context: Context;
  run: (command: Command) => void;
  layout: Layout;
}

export function useHear(frame: Frame, dispatch: (action: Action) => void, say: (text: string) => void): void {
  const { words } = useBinder();
  // The handler reads the last frame's place through a ref, so keys heard before effects run still land right.
  const latest = useRef(frame);
  latest.current = frame;
  /** The character of the key before, when it did nothing alone (the first `g` of `gg`). */
  const pending = useRef('');

  /** A click selects what it is on; the wheel does what the arrows do where it turns. */
  const heardMouse = useCallback((mouse: Extract<InputEvent, { kind: 'mouse' }>['mouse'], f: Frame) => {
    if (!mouse.press) return;
    if (mouse.button === 'wheelUp' || mouse.button === 'wheelDown') {
      const command = commandFor(f.context, decodeKey(mouse.button === 'wheelUp' ? '\u001b[A' : '\u001b[B'), words.lang);
      if (command) for (let i = 0; i < WHEEL_ROWS; i++) f.run(command);
      return;
    }
    if (mouse.button !== 'left') return;
    const hit = hitAt(mouse.x, mouse.y, f.state, f.data, f.layout, words);
    if (hit) dispatch({ type: 'select', hit, facts: f.data.facts });
  }, [words, dispatch]);

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
    const f = latest.current;
    const typing = typingIn(f.state);
    // Line breaks kept as one kind (a terminal pastes CR): the reducer makes them spaces where a field takes one line.
    const insert = (text: string) => dispatch({
      type: 'edit', edit: { do: 'insert', text: terminalSafe(lineBreaks(text), { multiline: true }) }, cut: (max) => ({ text: words.say.cutAt(max), tone: 'info' }),
    });
    if (event.kind === 'text') {
      pending.current = '';
      if (typing) insert(event.text);
      else if (!event.pasted && burstOfKeys(event.text, f.context, f.run)) return;
      else say(words.say.textSetAside(cut(terminalSafe(oneLine(event.text)), 40), keyLabel(keysFor('search', 'lists')[0]!, words)));
      return;
    }
    if (event.kind === 'mouse') {
      pending.current = '';
      heardMouse(event.mouse, f);
      return;
    }
    const key = event.key;
    // Ctrl-J comes as a line feed, which the keys read as Enter: in a field that takes lines, it is a new line.
    if (event.sequence === '\n' && takesLines(f.state)) {
      pending.current = '';
      f.run('editNewLine');
      return;
    }
    if (typing && isText(key)) {
      pending.current = '';
      insert(key.text);
      return;
    }
    const command = commandFor(f.context, key, words.lang, pending.current !== '' && pending.current === key.text);
    pending.current = !command && isText(key) ? key.text : '';
    if (command) f.run(command);
    else if (key.meta && event.sequence.startsWith('\u001b') && event.sequence.length > 1) {
      // Escape and a key pressed fast come as one (as Alt with that key): where Alt with it means nothing, they are the two keys.
      const rest = event.sequence.slice(1);
      return [{ kind: 'key', sequence: '\u001b', key: decodeKey('\u001b') }, { kind: 'key', sequence: rest, key: decodeKey(rest) }];
    } else if (f.context === 'confirm' && isText(key)) {
      // Anything but an answer leaves the question unanswered: a word typed here never deletes.
      f.run('cancel');
      say(words.say.notAnswered(keysFor('yes', 'confirm', words.lang).map((k) => keyLabel(k, words)).join('/')));
    }
  }, [words, say, dispatch, heardMouse, burstOfKeys]);

  const place = useCallback(() => ({ typing: typingIn(latest.current.state), stopped: latest.current.state.quitting, question: questionOf(latest.current.state) }), []);
  const setAside = useCallback((count: number) => say(words.dialog.setAside(count)), [words, say]);
  useInputGate(hear, place, setAside);
  useEffect(() => {
    if (!frame.data.ready || early.current.length === 0) return;
    const heard = early.current.splice(0);
    for (const event of heard) {
      const more = hear(event);
      if (more) for (const next of more) hear(next);
    }
  }, [frame.data.ready, hear]);
}
