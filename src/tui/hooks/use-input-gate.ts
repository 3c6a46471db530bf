/**
 * Every piece of input passes one gate before the screen hears it, as events (keys, a paste,
 * the mouse) handed on one at a time, each on the screen the one before it left: Ink hands every
 * read of input to its listeners at once and draws later, so keys that come together (a fast
 * typist, key repeat, a slow link) would otherwise all be read against a stale screen. What came
 * in one read is a burst: a burst of plain letters outside a paste is text, not keys (the screen
 * decides what text means where it lands). A question that must be answered by a fresh key (a
 * confirmation) sets aside every key that came before it was drawn. It must never alter or
 * reorder what it hands on, and never drop anything without saying so.
 */
import type { EventEmitter } from 'node:events';
import { useInput } from 'ink';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useInkInputEvents } from '../ink-input.js';
import { InputReader, textOfBurst, type InputEvent } from '../input-events.js';
import { isText } from '../../person/keys.js';

export interface Place {
  /** A text field has the keys: typed letters that follow one another go to it as one piece. */
  typing: boolean;
  /** The screen is closing: events still waiting are dropped. */
  stopped: boolean;
  /** The question on the screen that only a key pressed after it was drawn may answer, or null. */
  question: string | null;
}

/**
 * `hear` may give events back, to be heard next, before anything waiting (Alt with a key that
 * means nothing here is Escape and that key, pressed fast: each is heard on its own frame).
 */
export function useInputGate(hear: (event: InputEvent) => InputEvent[] | void, place: () => Place, setAside: (count: number) => void): void {
  // Ink's own input events (a read cut at escape sequences, nothing more), which every `useInput` listens to.
  const events = useInkInputEvents();
  const reader = useRef(new InputReader());
  /** Events not yet handed on, in the order they came. */
  const waiting = useRef<InputEvent[]>([]);
  /** The events of the read being received (Ink emits one read's pieces one after another, at once). */
  const burst = useRef<InputEvent[] | null>(null);
  /** An event went on and the frame it makes has not been drawn yet: `place()` may be stale. */
  const unsettled = useRef(false);
  /**
   * Each event handed on is a turn, and asks for a frame of that turn: the screen is settled only
   * once a frame of the last turn is drawn (a frame asked for earlier may be drawn after an event
   * went on, with its own effects: those must not let the next one go early).
   */
  const turns = useRef(0);
  const passing = useRef<InputEvent | null>(null);
  const givenBack = useRef<InputEvent[]>([]);
  const passOn = useRef<((event: InputEvent) => void) | null>(null);
  const asked = useRef<string | null>(null);
  const [turn, setTurn] = useState(0);

  /** A question drawn since the last look sets aside what waits: it all came before the question could be read. */
  const lookForQuestion = () => {
    const question = place().question;
    if (question === asked.current) return;
    asked.current = question;
    if (question !== null && waiting.current.length) {
      const count = waiting.current.length;
      waiting.current = [];
      setAside(count);
    }
  };

  const drain = useRef(() => {});
  drain.current = () => {
    if (unsettled.current || !passOn.current) return;
    const here = place();
    if (here.stopped) {
      waiting.current = [];
      return;
    }
    lookForQuestion();
    let event = waiting.current.shift();
    if (!event) return;
    if (here.typing && event.kind === 'key' && isText(event.key)) {
      let text = event.key.text;
      for (let next = waiting.current[0]; next?.kind === 'key' && isText(next.key); next = waiting.current[0]) {
        text += next.key.text;
        waiting.current.shift();
      }
      if (text !== event.key.text) event = { kind: 'text', text, pasted: false };
    }
    turns.current += 1;
    passOn.current(event);
    if (givenBack.current.length) waiting.current.unshift(...givenBack.current.splice(0));
    // An event may change nothing on the screen: a frame is asked for all the same, to go on from.
    setTurn(turns.current);
  };

  useLayoutEffect(() => {
    const own = events.emit;
    passOn.current = (event) => {
      unsettled.current = true;
      passing.current = event;
      try {
        // Through Ink's own listeners, so that what the screen does for one event is one render.
        own.call(events, 'input', event.kind === 'key' ? event.sequence : '');
      } finally {
        passing.current = null;
      }
    };
    events.emit = function gate(this: EventEmitter, name: string | symbol, ...args: unknown[]): boolean {
      const chunk = args[0];
      if (name !== 'input' || typeof chunk !== 'string') return own.call(this, name, ...args);
      if (!burst.current) {
        burst.current = [];
        queueMicrotask(() => {
          const got = burst.current ?? [];
          burst.current = null;
          const text = textOfBurst(got);
          waiting.current.push(...(text === null ? got : [{ kind: 'text', text, pasted: false } as const]));
          drain.current();
        });
      }
      burst.current.push(...reader.current.read(chunk));
      return true;
    };
    return () => {
      events.emit = own;
      passOn.current = null;
    };
  }, [events]);

  // One listener for the screen's whole life: Ink subscribes a `useInput` handler in an effect, and
  // a new handler at each render would leave moments with none, when an event handed on is lost.
  const heard = useRef(hear);
  heard.current = hear;
  const listen = useCallback(() => {
    const event = passing.current;
    if (event) givenBack.current = heard.current(event) ?? [];
  }, []);
  useInput(listen);

  // After every frame (its place fresh): a question just drawn sets aside what came before it; then the next event may go.
  useEffect(() => {
    if (turn < turns.current) return undefined;
    unsettled.current = false;
    lookForQuestion();
    const timer = setImmediate(() => drain.current());
    return () => clearImmediate(timer);
  });
}
