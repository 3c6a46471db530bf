/// <reference lib="dom" />
/**
 * The selection kept on the record it holds through every read of the open list, before the page
 * is painted: records coming or going above it move it with its record; a record the person moved
 * (or added) is followed to where it went; one moved by someone else to another state is followed
 * and asked about for a moment; one that left the view gives its place to its neighbour, which
 * is asked about for a moment, and the message line says which left, why, and where the
 * selection is now (unless the person's own key deleted or archived it). It only reads the binder.
 */
import { useLayoutEffect, type Dispatch, type MutableRefObject } from 'react';
import type { RecordSummary, RecordView } from '../store/index.js';
import type { Words } from '../person/words.js';
import { call } from './api.js';
import { holdAction, placeHeld, whyLeft } from './held.js';
import type { OpenList } from './list-page.js';
import type { PageAction, PageState } from './page-state.js';

/** A record the person moved or added: the selection goes to it once the list shows it (in `state`, after a move). */
export interface Followed { id: number; state?: string }

export interface HeldDeps {
  state: PageState;
  dispatch: Dispatch<PageAction>;
  open: OpenList;
  /** The records shown, column by column (one column for the table). */
  shown: readonly (readonly RecordSummary[])[];
  followed: MutableRefObject<Followed | null>;
  /** The record the person last deleted or archived: the selection goes to its neighbour without a word. */
  removed: MutableRefObject<number | null>;
  words: Words;
  now(): number;
}

/** Where the followed record is shown, once a read shows it where it went. */
function followedAt(shown: HeldDeps['shown'], wanted: Followed): { column: number; row: number; record: RecordSummary } | null {
  for (let column = 0; column < shown.length; column++) {
    const row = shown[column]!.findIndex((r) => r.id === wanted.id);
    const record = shown[column]![row];
    if (record && (wanted.state === undefined || record.state === wanted.state)) return { column, row, record };
  }
  return null;
}

export function useHeldRecord({ state, dispatch, open, shown, followed, removed, words, now }: HeldDeps): void {
  useLayoutEffect(() => {
    const page = open.page;
    // A read from before the list or its filters changed says nothing of the selection now.
    if (!page || !open.current || page.list.id !== state.list) return;
    const wanted = followed.current;
    const found = wanted ? followedAt(shown, wanted) : null;
    if (found) {
      followed.current = null;
      dispatch({ type: 'hold', column: found.column, row: found.row, record: { id: found.record.id, state: found.record.state } });
      return;
    }
    const placed = placeHeld(state, shown);
    if (!placed) return;
    dispatch(holdAction(placed));
    if (placed.kind === 'here' && placed.went !== null && state.held) {
      // Someone else moved it: the selection went with it, to a place the person has not seen.
      const name = page.list.states.find((s) => s.id === placed.went)?.name ?? placed.went;
      dispatch({ type: 'slid', slid: { id: placed.record.id, at: now() } });
      dispatch({ type: 'say', text: words.say.heldWent(placed.record.id, name), tone: 'warn' });
    } else if (placed.kind === 'left' && placed.id === removed.current) {
      // The person's own key took it away: the neighbour came under the selection by that key.
      removed.current = null;
    } else if (placed.kind === 'left') {
      const next = placed.record?.id ?? null;
      dispatch({ type: 'slid', slid: next === null ? null : { id: next, at: now() } });
      const archived = state.filters.archived;
      const states = open.columns.map((c) => c.state.id);
      void call<RecordView>('get', { id: placed.id, notes: 0, history: 0 }).then((answer) => {
        const record = answer.ok && answer.data ? answer.data.record : null;
        const why = whyLeft(record, page.list, archived, states);
        dispatch({ type: 'say', text: words.say.heldLeft(placed.id, why, next), tone: 'warn' });
      });
    }
  });
}
