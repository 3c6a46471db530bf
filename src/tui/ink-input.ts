/**
 * The one place the screen reaches inside Ink at run time: `useStdin().internal_eventEmitter`,
 * the emitter on which Ink hands each read of the terminal (cut at escape sequences) to every
 * `useInput` listener, as `emit('input', chunk)` called through the emitter's own `emit`. The
 * input gate (hooks/use-input-gate.ts) stands in that `emit` to hand keys on one at a time.
 * Held to the pinned Ink by test/tui/ink-input.test.tsx.
 */
import type { EventEmitter } from 'node:events';
import { useStdin } from 'ink';

/** Ink's emitter of input events, which every `useInput` listens to. */
export function useInkInputEvents(): EventEmitter {
  return useStdin().internal_eventEmitter;
}
