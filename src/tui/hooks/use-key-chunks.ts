/**
 * Keys heard one at a time, each on the screen the key before it left. Ink hands every chunk of
 * input to all its `useInput` listeners at once and draws later: several keys in one chunk (a
 * paste, keys sent together, a fast typist over a slow link), or keys arriving before the last
 * one is drawn, would all be read against a stale screen. So every input event passes a gate
 * here first: while the screen is settled a key goes straight on; otherwise, and for a chunk of
 * several keys, the keys wait and are handed on one by one, each after the frame the one before
 * it made (Enter after j j opens the third row; the words after / go into the search field).
 * A chunk that arrives while a text field has focus is that field's, whole: a paste stays text.
 * It must never drop, alter or reorder a key.
 */
import type { EventEmitter } from 'node:events';
import { useApp, useInput, useStdin, type Key } from 'ink';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { keysOf, nextPiece } from '../key-chunks.js';

export interface Place {
  /** A text field has the keys. */
  typing: boolean;
  /** The screen is closing: keys still waiting are dropped. */
  stopped: boolean;
}

const CTRL_C = '\u0003';

export function useKeyChunks(hear: (input: string, key: Key) => void, place: () => Place): void {
  // Ink's own input events (stdin cut at escape sequences, nothing more), which every `useInput` listens to.
  const { internal_eventEmitter: events, internal_exitOnCtrlC: exitOnCtrlC } = useStdin();
  const { exit } = useApp();
  /** Chunks not yet handed on, in the order they came; the first may be partly handed on already. */
  const waiting = useRef<string[]>([]);
  const begun = useRef(false);
  /** A key went on and its frame has not been drawn yet: the place in `place()` may be stale. */
  const unsettled = useRef(false);
  /** Ink's own emit, under the gate. */
  const pass = useRef<EventEmitter['emit'] | null>(null);
  const [, setTurn] = useState(0);

  useLayoutEffect(() => {
    const own = events.emit;
    const passOn = (input: string) => {
      unsettled.current = true;
      return own.call(events, 'input', input);
    };
    pass.current = own;
    events.emit = function gate(this: EventEmitter, name: string | symbol, ...args: unknown[]): boolean {
      const chunk = args[0];
      if (name !== 'input' || typeof chunk !== 'string') return own.call(this, name, ...args);
      if (!waiting.current.length && !unsettled.current) {
        const here = place();
        if (here.typing || keysOf(chunk).length < 2) return passOn(chunk);
      }
      waiting.current.push(chunk);
      setTurn((n) => n + 1);
      return true;
    };
    return () => {
      events.emit = own;
      pass.current = null;
    };
  }, [events, place]);

  useInput(hear);

  // After every frame of the screen (its text fields subscribed in their own effects, which run
  // before this one): the place is fresh, so the next waiting key may go.
  useEffect(() => {
    unsettled.current = false;
    const chunk = waiting.current[0];
    if (chunk === undefined || !pass.current) return;
    const here = place();
    if (here.stopped) {
      waiting.current = [];
      return;
    }
    // A chunk whose first key meets a text field is that field's, whole, as if it had come now.
    const { piece, rest } = here.typing && !begun.current ? { piece: chunk, rest: '' } : nextPiece(chunk, here.typing);
    if (rest) waiting.current[0] = rest;
    else waiting.current.shift();
    begun.current = rest !== '';
    if (piece === CTRL_C && exitOnCtrlC) {
      waiting.current = [];
      exit();
      return;
    }
    unsettled.current = true;
    pass.current.call(events, 'input', piece);
    // A key may change nothing on the screen: a frame is asked for all the same, to go on from.
    setTurn((n) => n + 1);
  });
}
