/**
 * One change by the person, done through `keeper.act` as the person (so its history and events go
 * the one way agents' asks go). The message line says it in the screen's own words when done, or
 * the keeper's sentence, made safe, when refused — in the screen's language, which the keeper is
 * asked for. A record moved within the open list takes the board's or table's cursor with it
 * into its new state. It never changes the store by itself.
 */
import { useCallback } from 'react';
import type { Answer } from '../../keeper/protocol.js';
import type { List, RecordSummary } from '../../store/index.js';
import { doneText } from '../../person/answer-words.js';
import { useBinder } from '../context.js';
import { safe } from '../../person/format.js';
import type { Act } from '../../person/form.js';
import type { Layout } from '../layout.js';
import { placeOf, shownStates } from '../../person/reading.js';
import type { Action } from '../screen-reducer.js';
import type { Filters, Message } from '../../person/screen-state.js';
import type { ViewData } from './use-view-data.js';

/** Operations after which the record may stand in another state. */
const MOVING = new Set(['move', 'approve']);

export function useAct(dispatch: (action: Action) => void, data: ViewData, filters: Filters, layout: Layout): (one: Act) => Promise<Answer> {
  const { keeper, person, words } = useBinder();
  const store = keeper.store;

  return useCallback(async (one: Act): Promise<Answer> => {
    if (MOVING.has(one.op) && typeof one.args.id === 'number') dispatch({ type: 'moving', id: one.args.id });
    const answer = await keeper.act(one.op, one.args, person, { lang: words.lang });
    // The states of the record's list, read once for the sentence that names one.
    const listOf = (answer.data as { list?: unknown } | undefined)?.list;
    let states: List['states'] = [];
    if (answer.ok && typeof listOf === 'string') {
      try {
        states = (await store.list(listOf, person)).states;
      } catch {
        states = [];
      }
    }
    const stateName = (_list: string, state: string): string => states.find((s) => s.id === state)?.name ?? state;
    const text = answer.ok ? doneText(one.op, answer.data, one.args, words, stateName, person) ?? safe(answer.text) : safe(answer.text);
    // A message about a record goes once the record is gone (a "Changed #2" after #2 was deleted).
    const record = Number(String(one.args.id ?? '').replace(/^#/, ''));
    const message: Message = { text, tone: answer.ok ? 'done' : 'refused', ...(Number.isInteger(record) && record > 0 && one.op !== 'delete' ? { record } : {}) };
    dispatch({ type: 'message', message });

    const w = data.window?.ok ? data.window.value : null;
    const moved = answer.data as RecordSummary | undefined;
    if (answer.ok && w && MOVING.has(one.op) && moved?.list === w.list.id && !filters.text) {
      const place = await placeOf(store, person, w.list.id, filters, moved.state, moved.id);
      if (place) {
        dispatch({
          type: 'follow',
          view: w.kind,
          states: shownStates(w.list, filters).map((s) => ({ state: s.id, count: place.counts[s.id] ?? 0 })),
          state: moved.state,
          at: place.at,
          page: w.kind === 'board' ? layout.cardPage : layout.tablePage,
        });
      }
    }
    return answer;
  }, [keeper, person, words, store, dispatch, data.window, filters, layout.cardPage, layout.tablePage]);
}
