/**
 * The cursor holds a record, and in a record opened a part (a note, an attachment): kept where
 * the read found it, moved to its neighbour when it left, held anew after a move. A record that
 * someone else moved to another state, or a part that slid under the cursor when the one held
 * left, is asked about for a moment before a key changes it (`held-left`, `slid`).
 */
import { useEffect, useRef } from 'react';
import { useBinder } from '../context.js';
import { safe } from '../../person/format.js';
import { partKey } from '../../person/record-lines.js';
import { top, type ScreenState } from '../../person/screen-state.js';
import type { Action } from '../screen-reducer.js';
import type { ViewData } from './use-view-data.js';

export function useHeldCursor(state: ScreenState, data: ViewData, dispatch: (action: Action) => void): void {
  useHeldRecord(state, data, dispatch);
  useHeldPart(state, data, dispatch);
}

/** In a list: the record held, kept through reads, and what the person is told when it moved or left. */
function useHeldRecord(state: ScreenState, data: ViewData, dispatch: (action: Action) => void): void {
  const { words, now } = useBinder();
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
}

/** In a record opened: the part held kept under the cursor; held anew after a move; another in its place when it left, asked about for a moment. */
function useHeldPart(state: ScreenState, data: ViewData, dispatch: (action: Action) => void): void {
  const { now } = useBinder();
  const shown = top(state);
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
}
