/// <reference lib="dom" />
/**
 * In a record's panel, the cursor holds a part (a note, a thing attached, a record it needs) by
 * its id: a note arriving above it moves it with its part; when its part leaves, the part that
 * took its place is asked about for a moment before a key changes it (`T` detaches nothing that
 * only just came under the cursor). The panels that list records (search, what changed) hold
 * their row by its record the same way, without the asking: no key there changes a record. It
 * only moves the cursor.
 */
import { useLayoutEffect, useRef } from 'react';
import { usePage } from './page-context.js';

/**
 * Keeps the cursor of record `id`'s panel (or of another panel, by a number of its own) on the part
 * it holds, among `keys` (each part's `kind:id`, in the order shown). `asks`: what slides under the
 * cursor is asked about before a key changes it.
 */
export function useHeldPart(id: number, keys: readonly string[] | null, asks = true): void {
  const { state, dispatch, now } = usePage();
  const held = useRef<{ id: number; at: number; key: string | undefined } | null>(null);
  const joined = keys?.join(' ') ?? null;
  useLayoutEffect(() => {
    if (keys === null) return;
    const at = state.panelAt;
    const was = held.current;
    const under = keys[at];
    // Another record, or the person moved the cursor: it holds what is under it now.
    if (!was || was.id !== id || was.at !== at || was.key === undefined) {
      held.current = { id, at, key: under };
      return;
    }
    if (was.key === under) return;
    const moved = keys.indexOf(was.key);
    if (moved >= 0) {
      held.current = { id, at: moved, key: was.key };
      dispatch({ type: 'select-row', at: moved });
      return;
    }
    // Its part left: the one now in its place (the last, when it was the last) slid under the cursor.
    const place = Math.min(at, keys.length - 1);
    const next = keys[place];
    held.current = { id, at: place, key: next };
    if (place !== at) dispatch({ type: 'select-row', at: place });
    if (asks) dispatch({ type: 'slid', slid: next === undefined ? null : { id, at: now(), part: next } });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, joined, state.panelAt, asks]);
}
