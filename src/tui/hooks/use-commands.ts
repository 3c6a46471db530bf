/**
 * The named commands, done: moving about goes to the reducer; every change is one act through
 * the keeper as the person (`useAct`), whose sentence is the message line. What cannot be taken
 * back asks first (delete, a claim taken away, a state removed); what can is done at once and
 * kept for `u` to take back, the latest first (undo-commands.ts). The brief (what changed since the person last looked) is read once per `b`. Moves
 * and edits of a field go to the reducer here; a change to a record that only just slid under
 * the cursor is asked again; the rest is found in screen-commands.ts (the screen, its dialogs and
 * the binder as a whole), record-commands.ts (a record) and manage-commands.ts (lists, agents).
 */
import { useCallback, useRef } from 'react';
import type { Answer } from '../../keeper/protocol.js';
import type { List, RecordFull, RecordSummary, RecordView } from '../../store/index.js';
import { useBinder } from '../context.js';
import { safe } from '../../person/format.js';
import { keyLabel } from '../../person/help-lines.js';
import type { Act } from '../../person/form.js';
import { isEditCommand, keysFor, type Command, type Context, type EditCommand } from '../../person/keymap.js';
import type { Layout } from '../layout.js';
import type { LineEdit } from '../line-edit.js';
import type { Action, MoveCommand } from '../screen-reducer.js';
import { top, type ScreenState } from '../../person/screen-state.js';
import { BARE } from '../../person/reading.js';
import { partKey } from '../../person/record-lines.js';
import { afterSlide } from '../../person/seen.js';
import { manageCommand } from './manage-commands.js';
import { madeList } from './submit-dialog.js';
import type { CommandScope } from './command-scope.js';
import { recordCommand } from './record-commands.js';
import { binderCommand, screenCommand } from './screen-commands.js';
import { keeping } from './undo-commands.js';
import { useAct } from './use-act.js';
import type { ViewData } from './use-view-data.js';

export const MOVES = new Set<Command>(['up', 'down', 'left', 'right', 'pageUp', 'pageDown', 'halfUp', 'halfDown', 'top', 'bottom']);

const EDITS: Record<EditCommand, LineEdit> = {
  editLeft: { do: 'left' }, editRight: { do: 'right' }, editWordLeft: { do: 'wordLeft' }, editWordRight: { do: 'wordRight' },
  editHome: { do: 'home' }, editEnd: { do: 'end' }, editBackspace: { do: 'backspace' }, editDelete: { do: 'delete' },
  editWordBack: { do: 'wordBack' }, editKillStart: { do: 'killStart' }, editKillEnd: { do: 'killEnd' },
  editNewLine: { do: 'insert', text: '\n' },
};

export function useCommands(state: ScreenState, dispatch: (action: Action) => void, data: ViewData, context: Context, layout: Layout): (command: Command) => void {
  const binder = useBinder();
  const { keeper, person, words, firstSide, now } = binder;
  const store = keeper.store;
  const screen = top(state);

  const say = useCallback((text: string, tone: 'done' | 'refused' | 'info') => dispatch({ type: 'message', message: { text, tone } }), [dispatch]);

  const plainAct = useAct(dispatch, data, state.browse.filters, layout);
  const turns = useRef<Promise<unknown>>(Promise.resolve());

  return useCallback((command: Command) => {
    // The record the command is about, and its list.
    const opened = data.record?.ok ? data.record.value : null;
    const current: RecordSummary | RecordFull | null = context === 'record' ? opened?.record ?? null : data.selected;
    const list: List | null = context === 'record' ? opened?.list ?? null : data.window?.ok ? data.window.value.list : null;
    const part = context === 'record' && screen?.kind === 'record' ? data.lines[(data.recordCursor ?? screen.cursor).at]?.part ?? null : null;
    const needRecord = (): RecordSummary | RecordFull | null => {
      if (!current) say(words.say.nothingSelected, 'info');
      return current;
    };
    const needList = (): List | null => {
      if (!list) say(words.say.noList, 'info');
      return list;
    };
    const view = async (id: number): Promise<RecordView | null> => {
      try {
        return await store.get(id, person, BARE);
      } catch {
        say(words.record.gone, 'refused');
        return null;
      }
    };
    const full = async (id: number): Promise<RecordFull | null> => (await view(id))?.record ?? null;
    const grantKey = keyLabel(keysFor('grant', 'records')[0]!, words);

    /** A list was made: show it, and the first one ever opens to the first agent folder. */
    const made = async (answer: Answer, wasEmpty: boolean): Promise<void> => {
      const madeOne = madeList(answer);
      if (!madeOne) return;
      dispatch({ type: 'show-list', list: madeOne.id });
      dispatch({ type: 'pane', pane: 'records' });
      const side = wasEmpty ? firstSide() : null;
      if (side) {
        const granted = await keeper.act('grant', { list: madeOne.id, agent: side.who.id, access: 'write' }, person, { lang: words.lang });
        say(granted.ok ? words.firstGrant(safe(side.who.name), safe(side.dir), safe(madeOne.title), grantKey) : safe(granted.text), granted.ok ? 'info' : 'refused');
      }
    };
    // Every change the person makes is kept, where it can be, for `u` to take back.
    const undo = { store, person, words, dispatch, say, act: plainAct, nameOf: data.nameOf };
    const act = keeping(undo);
    const undoable = (one: Act): void => void act(one);

    if (MOVES.has(command)) {
      if (context === 'pick') {
        if (command === 'up' || command === 'down') dispatch({ type: 'pick-step', delta: command === 'up' ? -1 : 1 });
        return;
      }
      if (context === 'search' && command === 'down') {
        dispatch({ type: 'search-focus', focus: 'results' });
        return;
      }
      dispatch({ type: 'move', command: command as MoveCommand, facts: data.facts });
      return;
    }
    if (isEditCommand(command)) {
      dispatch({ type: 'edit', edit: EDITS[command], cut: (max) => ({ text: words.say.cutAt(max), tone: 'info' }) });
      return;
    }

    // A record that came under the cursor a moment ago was not what the person looked at: shown, and asked again.
    const slid = afterSlide(state.slid, command, current?.id ?? null, partKey(part ?? undefined), context === 'record', now());
    if (slid !== 'go') dispatch({ type: 'slid-seen' });
    if (slid === 'ask' && current) return say(words.say.slidUnder(current.id, keysFor(command, context).slice(0, 1).map((k) => keyLabel(k, words)).join('')), 'info');

    const scope: CommandScope = { binder, state, screen, data, context, dispatch, say, act, opened, current, list, part, needRecord, needList, full, view, made, undoable, undo };
    if (screenCommand(command, scope) || recordCommand(command, scope) || binderCommand(command, scope)) return;
    manageCommand(command, {
      screen, data, dispatch, act, undoable, words,
      accessNow: async (id, agent) => (await store.list(id, person)).access[agent] ?? 'none',
      inTurn: (step) => { turns.current = turns.current.then(step).catch(() => undefined); },
    });
  }, [state, dispatch, data, context, screen, binder, keeper, person, words, firstSide, store, plainAct, say, now]);
}
