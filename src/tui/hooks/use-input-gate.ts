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
import { useInput, useStdin } from 'ink';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { InputReader, textOfBurst, type InputEvent } from '../input-events.js';
import { isText } from '../keys.js';

export interface Place {
  /** A text field has the keys: typed letters that follow one another go to it as one piece. */
  typing: boolean;
  /** The screen is closing: events still waiting are dropped. */
  stopped: boolean;
  /** The question on the screen that only a key pressed after it was drawn may answer, or null. */
  question: string | null;
}

export function useInputGate(hear: (event: InputEvent) => void, place: () => Place, setAside: (count: number) => void): void {
  // Ink's own input events (a read cut at escape sequences, nothing more), which every `useInput` listens to.
  const { internal_eventEmitter: events } = useStdin();
  const reader = useRef(new InputReader());
  /** Events not yet handed on, in the order they came. */
  const waiting = useRef<InputEvent[]>([]);
  /** The events of the read being received (Ink emits one read's pieces one after another, at once). */
  const burst = useRef<InputEvent[] | null>(null);
  /** An event went on and the frame it makes has not been drawn yet: `place()` may be stale. */
  const unsettled = useRef(false);
  const passing = useRef<InputEvent | null>(null);
  const passOn = useRef<((event: InputEvent) => void) | null>(null);
  const asked = useRef<string | null>(null);
  const [, setTurn] = useState(0);

  const drain = useRef(() => {});
  drain.current = () => {
    if (unsettled.current || !passOn.current) return;
    const here = place();
    if (here.stopped) {
      waiting.current = [];
      return;
    }
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
    passOn.current(event);
    // An event may change nothing on the screen: a frame is asked for all the same, to go on from.
    setTurn((n) => n + 1);
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

  useInput(() => {
    const event = passing.current;
    if (event) hear(event);
  });

  // After every frame (its place fresh): a question just drawn sets aside what came before it; then the next event may go.
  useEffect(() => {
    unsettled.current = false;
    const question = place().question;
    if (question !== asked.current) {
      asked.current = question;
      if (question !== null && waiting.current.length) {
        const count = waiting.current.length;
        waiting.current = [];
        setAside(count);
      }
    }
    const timer = setImmediate(() => drain.current());
    return () => clearImmediate(timer);
  });
}
