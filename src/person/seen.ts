/**
 * A key acts on what the person saw: a record (or a part of one) that came under the cursor
 * without the person's key, a moment ago, was not looked at yet. The screen and the page both
 * ask this before a key that changes a record; neither decides it on its own. Pure.
 */
import type { Command } from './keymap.js';
import type { Slid } from './screen-state.js';

/** Keys that change the record under the cursor: not done on one that only just slid there. */
export const CHANGES: ReadonlySet<Command> = new Set<Command>(['approve', 'moveOn', 'moveBack', 'movePick', 'delete', 'archive', 'detach', 'release']);

/** How long a record must have been shown under the cursor before a key changes it, in ms. */
export const SEEN_MS = 500;

/**
 * What to do with `command` on record `id` (and, in a record opened, its part `part` under the
 * cursor) when `slid` came under the cursor: `go` when the slide is none of this key's business;
 * `ask` when the key is not done and the person is asked again; `seen` when the slide is over
 * (a moment passed) and the key is done. Both `ask` and `seen` end the slide.
 */
export function afterSlide(slid: Slid | null, command: Command, id: number | null, part: string | undefined, inRecord: boolean, now: number): 'go' | 'ask' | 'seen' {
  if (!slid || !CHANGES.has(command) || id === null || slid.id !== id) return 'go';
  // In a record opened, only the part that slid is guarded; in a list, only the record.
  if (inRecord ? slid.part === undefined || slid.part !== part : slid.part !== undefined) return 'go';
  return now - slid.at < SEEN_MS ? 'ask' : 'seen';
}
