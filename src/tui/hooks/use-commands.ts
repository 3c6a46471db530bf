/**
 * The named commands, done: moving about goes to the reducer; every change is one act through
 * the keeper as the person (`useAct`), whose sentence is the message line. Refused in a form: the
 * form stays open. The brief (what changed since the person last looked) is read once per `b`.
 */
import { useCallback } from 'react';
import type { Answer } from '../../keeper/protocol.js';
import type { Brief } from '../../store/together-types.js';
import type { List, RecordFull, RecordSummary } from '../../store/types.js';
import { useBinder } from '../context.js';
import { safe } from '../format.js';
import { actOf, addForm, attachForm, confirm, createListForm, editForm, editNoteForm, noteForm, pick } from '../form.js';
import type { Command, Context } from '../keymap.js';
import type { Layout } from '../layout.js';
import type { Action, MoveCommand } from '../screen-reducer.js';
import { top, type ScreenState } from '../screen-state.js';
import { START } from '../window.js';
import { manageCommand } from './manage-commands.js';
import { useAct } from './use-act.js';
import type { ViewData } from './use-view-data.js';

const MOVES = new Set<Command>(['up', 'down', 'left', 'right', 'pageUp', 'pageDown', 'top', 'bottom']);

export function useCommands(state: ScreenState, dispatch: (action: Action) => void, data: ViewData, context: Context, layout: Layout): (command: Command) => void {
  const { keeper, person, words, firstSide } = useBinder();
  const store = keeper.store;
  const screen = top(state);

  const say = useCallback((text: string, tone: 'done' | 'refused' | 'info') => dispatch({ type: 'message', message: { text, tone } }), [dispatch]);

  const act = useAct(dispatch, data, state.browse.filters, layout);

  return useCallback((command: Command) => {
    // The record the command is about, and its list.
    const opened = data.record?.ok ? data.record.value : null;
    const current: RecordSummary | RecordFull | null = context === 'record' ? opened?.record ?? null : data.selected;
    const list: List | null = context === 'record' ? opened?.list ?? null : data.window?.ok ? data.window.value.list : null;
    const part = context === 'record' && screen?.kind === 'record' ? data.lines[screen.cursor.at]?.part ?? null : null;
    const needRecord = (): RecordSummary | RecordFull | null => {
      if (!current) say(words.say.nothingSelected, 'info');
      return current;
    };
    const needList = (): List | null => {
      if (!list) say(words.say.noList, 'info');
      return list;
    };
    const full = (id: number): RecordFull | null => {
      try {
        return store.get(id, person).record;
      } catch {
        say(words.record.gone, 'refused');
        return null;
      }
    };
    const dialog = state.dialog;

    /** A list was made: show it, and the first one ever opens to the first agent folder. */
    const made = (answer: Answer, wasEmpty: boolean) => {
      const madeList = answer.data as List | undefined;
      if (!answer.ok || !madeList?.id) return;
      dispatch({ type: 'show-list', list: madeList.id });
      dispatch({ type: 'pane', pane: 'records' });
      const side = wasEmpty ? firstSide() : null;
      if (side) {
        const granted = keeper.act('grant', { list: madeList.id, agent: side.who.id, access: 'write' }, person, { lang: words.lang });
        say(granted.ok ? words.firstGrant(safe(side.who.name), safe(side.dir), safe(madeList.title)) : safe(granted.text), granted.ok ? 'info' : 'refused');
      }
    };

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

    switch (command) {
      case 'open':
        if (context === 'lists') dispatch({ type: 'pane', pane: 'records' });
        else if (context === 'search') dispatch({ type: 'search-focus', focus: 'results' });
        else if (context === 'welcome') {
          const t = data.templates[state.browse.welcome.at];
          if (t) made(act({ op: 'create-list', args: { template: t.id, lang: words.lang } }), data.empty);
        } else if (context === 'results' && screen?.kind === 'search' && data.search?.ok) {
          const hit = data.search.value[screen.cursor.at];
          if (hit) dispatch({ type: 'push', screen: { kind: 'record', id: hit.id, cursor: START } });
        } else if (context === 'records' && needRecord()) dispatch({ type: 'push', screen: { kind: 'record', id: current!.id, cursor: START } });
        else if (context === 'brief' && screen?.kind === 'brief') {
          const part = data.brief[screen.cursor.at]?.part;
          if (part?.kind === 'record') dispatch({ type: 'push', screen: { kind: 'record', id: part.id, cursor: START } });
        }
        return;
      case 'back':
        if (screen) dispatch({ type: 'pop' });
        else if (context === 'records') dispatch({ type: 'pane', pane: 'lists' });
        else dispatch({ type: 'dismiss-notices' });
        return;
      case 'switchPane':
        if (context === 'search' || context === 'results') dispatch({ type: 'search-focus', focus: context === 'search' ? 'results' : 'input' });
        else dispatch({ type: 'pane' });
        return;
      case 'help':
        if (context === 'help') dispatch({ type: 'pop' });
        else dispatch({ type: 'push', screen: { kind: 'help', context, scroll: 0 } });
        return;
      case 'quit':
        dispatch({ type: 'quit' });
        return;
      case 'search':
        if (screen?.kind === 'search') dispatch({ type: 'search-focus', focus: 'input' });
        else dispatch({ type: 'push', screen: { kind: 'search', text: '', focus: 'input', cursor: START, filters: { state: null, mine: false, archived: false } } });
        return;
      case 'filterState': {
        const all = { value: '', label: words.view.allStates };
        if (screen?.kind === 'search') {
          const names = [...new Set((data.search?.ok ? data.search.value : []).map((h) => h.stateName))];
          dispatch({ type: 'dialog', dialog: pick(words.dialog.filterState, [all, ...names.map((n) => ({ value: n, label: safe(n) }))], { do: 'filter-state' }, screen.filters.state ?? '') });
        } else if (needList()) {
          dispatch({ type: 'dialog', dialog: pick(words.dialog.filterState, [all, ...list!.states.map((s) => ({ value: s.id, label: safe(s.name) }))], { do: 'filter-state' }, state.browse.filters.state ?? '') });
        }
        return;
      }
      case 'filterMine':
      case 'filterArchived': {
        const filters = screen?.kind === 'search' ? screen.filters : state.browse.filters;
        dispatch({ type: 'filters', patch: command === 'filterMine' ? { mine: !filters.mine } : { archived: !filters.archived } });
        return;
      }
      case 'archivedLists':
        dispatch({ type: 'archived-lists' });
        return;
      case 'grant':
        if (needList()) dispatch({ type: 'push', screen: { kind: 'grant', list: list!.id, cursor: START } });
        return;
      case 'sides':
        dispatch({ type: 'push', screen: { kind: 'sides', cursor: START } });
        return;
      case 'editList':
        if (needList()) dispatch({ type: 'push', screen: { kind: 'list-editor', list: list!.id, cursor: START } });
        return;

      case 'submit':
      case 'yes': {
        if (!dialog) return;
        if (dialog.kind === 'pick') {
          const choice = dialog.choices[dialog.at];
          dispatch({ type: 'dialog', dialog: null });
          if (!choice) return;
          if (dialog.intent.do === 'filter-state') dispatch({ type: 'filters', patch: { state: choice.value || null } });
          else if (dialog.intent.do === 'template') dispatch({ type: 'dialog', dialog: createListForm(choice.value, choice.label, words) });
          else {
            const one = actOf(dialog, choice.value);
            if (one) act(one);
          }
          return;
        }
        if (dialog.kind === 'confirm' && dialog.typed && dialog.typed.value.trim().toLowerCase() !== dialog.typed.expect.trim().toLowerCase()) {
          dispatch({ type: 'dialog', dialog: null });
          say(words.say.sameTitle, 'info');
          return;
        }
        const one = actOf(dialog);
        if (!one) {
          dispatch({ type: 'dialog', dialog: null });
          return;
        }
        const wasEmpty = data.empty;
        const answer = act(one);
        if (answer.ok || dialog.kind !== 'form') dispatch({ type: 'dialog', dialog: null });
        if (answer.ok && one.op === 'create-list') made(answer, wasEmpty);
        if (answer.ok && one.op === 'delete' && screen?.kind === 'record') dispatch({ type: 'pop' });
        if (answer.ok && one.op === 'delete-list') dispatch({ type: 'show-list', list: null });
        return;
      }
      case 'cancel':
        dispatch({ type: 'dialog', dialog: null });
        return;
      case 'nextField':
      case 'prevField':
        dispatch({ type: 'form-focus', delta: command === 'nextField' ? 1 : -1 });
        return;
      case 'choicePrev':
      case 'choiceNext':
        dispatch({ type: 'form-choice', delta: command === 'choiceNext' ? 1 : -1 });
        return;

      case 'approve': {
        const r = needRecord();
        if (r) act({ op: 'approve', args: { id: r.id, withdraw: r.approved !== null } });
        return;
      }
      case 'moveBack':
      case 'moveOn': {
        const r = needRecord();
        if (!r || !list) return;
        const at = list.states.findIndex((s) => s.id === r.state);
        const to = list.states[at + (command === 'moveOn' ? 1 : -1)];
        if (!to) say(command === 'moveOn' ? words.say.lastState : words.say.firstState, 'info');
        else act({ op: 'move', args: { id: r.id, state: to.id } });
        return;
      }
      case 'movePick': {
        const r = needRecord();
        if (r && list) dispatch({ type: 'dialog', dialog: pick(words.dialog.pickState, list.states.map((s) => ({ value: s.id, label: safe(s.name) })), { do: 'move', id: r.id }, r.state) });
        return;
      }
      case 'add': {
        if (!needList()) return;
        const w = data.window?.ok ? data.window.value : null;
        const column = w?.kind === 'board' ? w.columns[Math.min(state.browse.column, w.columns.length - 1)]?.state.id : undefined;
        dispatch({ type: 'dialog', dialog: addForm(list!, column, words) });
        return;
      }
      case 'edit': {
        const r = needRecord();
        const whole = r && (context === 'record' ? (r as RecordFull) : full(r.id));
        if (whole && list) dispatch({ type: 'dialog', dialog: editForm(whole, list, words) });
        return;
      }
      case 'note': {
        const r = needRecord();
        if (r) dispatch({ type: 'dialog', dialog: noteForm(r.id, words) });
        return;
      }
      case 'editNote': {
        if (part?.kind !== 'note' || !opened) return say(words.say.noNote, 'info');
        if (part.author !== person.id) return say(words.say.notYourNote, 'info');
        const note = opened.record.notes.find((n) => n.id === part.id);
        if (note) dispatch({ type: 'dialog', dialog: editNoteForm(opened.record.id, note.id, note.text, words) });
        return;
      }
      case 'attach': {
        const r = needRecord();
        if (r) dispatch({ type: 'dialog', dialog: attachForm(r.id, words) });
        return;
      }
      case 'detach':
        if (part?.kind !== 'attached' || !opened) return say(words.say.noAttachment, 'info');
        act({ op: 'detach', args: { id: opened.record.id, what: String(part.id) } });
        return;
      case 'archive': {
        const r = needRecord();
        if (r) act({ op: r.archived ? 'restore' : 'archive', args: { id: r.id } });
        return;
      }
      case 'delete': {
        const r = needRecord();
        if (!r) return;
        const notes = typeof r.notes === 'number' ? r.notes : r.notes.length;
        const attached = typeof r.attached === 'number' ? r.attached : r.attached.length;
        dispatch({ type: 'dialog', dialog: confirm(words.dialog.deleteRecord(r.id, safe(r.title), notes, attached), { do: 'delete', id: r.id }) });
        return;
      }
      case 'release': {
        const r = needRecord();
        if (r) act({ op: 'release', args: { id: r.id } });
        return;
      }
      case 'brief': {
        const answer = keeper.act('brief', {}, person, { lang: words.lang });
        if (!answer.ok) return say(safe(answer.text), 'refused');
        const brief = answer.data as Brief;
        if (screen?.kind === 'brief') dispatch({ type: 'pop' });
        dispatch({ type: 'push', screen: { kind: 'brief', items: brief.items, more: brief.more, cursor: START } });
        return;
      }
      case 'newList':
        dispatch({ type: 'dialog', dialog: pick(words.dialog.pickTemplate, data.templates.map((t) => ({ value: t.id, label: safe(t.title) })), { do: 'template' }) });
        return;
      case 'archiveList': {
        const l = data.lists.find((x) => x.id === data.listId);
        if (l) act({ op: 'archive-list', args: { list: l.id, restore: l.archived } });
        else say(words.say.noList, 'info');
        return;
      }
      case 'deleteList': {
        const l = data.lists.find((x) => x.id === data.listId);
        if (l) dispatch({ type: 'dialog', dialog: confirm(words.dialog.deleteList(safe(l.title), l.count), { do: 'delete-list', list: l.id }, safe(l.title)) });
        else say(words.say.noList, 'info');
        return;
      }
      default:
        manageCommand(command, { screen, data, dispatch, act, words });
    }
  }, [state, dispatch, data, context, screen, keeper, person, words, firstSide, store, act, say]);
}
