/**
 * The named commands, done: moving about goes to the reducer; every change is one act through
 * the keeper as the person (`useAct`), whose sentence is the message line. What cannot be taken
 * back asks first (delete, a claim taken away, a state removed); what can is done at once and
 * offered back for a while (`u`: a thing detached, a list archived, a folder removed, a record
 * archived). The brief (what changed since the person last looked) is read once per `b`.
 */
import { approvalMark } from '../../store/approval-mark.js';
import { useCallback, useRef } from 'react';
import type { Answer } from '../../keeper/protocol.js';
import type { Brief } from '../../store/together-types.js';
import type { List, RecordFull, RecordSummary } from '../../store/types.js';
import { useBinder } from '../context.js';
import { safe } from '../../person/format.js';
import { keyLabel } from '../../person/help-lines.js';
import { addForm, attachForm, confirm, editForm, editNoteForm, filterForm, noteForm, pick, type Act } from '../../person/form.js';
import { isEditCommand, keysFor, type Command, type Context, type EditCommand } from '../../person/keymap.js';
import type { Layout } from '../layout.js';
import type { LineEdit } from '../line-edit.js';
import type { Action, MoveCommand } from '../screen-reducer.js';
import { top, type ScreenState } from '../../person/screen-state.js';
import { BARE } from '../../person/reading.js';
import { partKey } from '../../person/record-lines.js';
import { START } from '../../person/window.js';
import { UNDO_MS, undoOf } from '../../person/undo.js';
import { manageCommand } from './manage-commands.js';
import { madeList, submitDialog } from './submit-dialog.js';
import { useAct } from './use-act.js';
import type { ViewData } from './use-view-data.js';

/** Keys that change the record under the cursor: not done on one that only just slid there. */
const CHANGES = new Set<Command>(['approve', 'moveOn', 'moveBack', 'movePick', 'delete', 'archive', 'detach', 'release']);
/** How long a record must have been shown under the cursor before a key changes it, in ms. */
export const SEEN_MS = 500;

export const MOVES = new Set<Command>(['up', 'down', 'left', 'right', 'pageUp', 'pageDown', 'halfUp', 'halfDown', 'top', 'bottom']);

const EDITS: Record<EditCommand, LineEdit> = {
  editLeft: { do: 'left' }, editRight: { do: 'right' }, editWordLeft: { do: 'wordLeft' }, editWordRight: { do: 'wordRight' },
  editHome: { do: 'home' }, editEnd: { do: 'end' }, editBackspace: { do: 'backspace' }, editDelete: { do: 'delete' },
  editWordBack: { do: 'wordBack' }, editKillStart: { do: 'killStart' }, editKillEnd: { do: 'killEnd' },
};

export function useCommands(state: ScreenState, dispatch: (action: Action) => void, data: ViewData, context: Context, layout: Layout): (command: Command) => void {
  const { keeper, person, words, firstSide, now, terminal, loginLink } = useBinder();
  const store = keeper.store;
  const screen = top(state);

  const say = useCallback((text: string, tone: 'done' | 'refused' | 'info') => dispatch({ type: 'message', message: { text, tone } }), [dispatch]);

  const act = useAct(dispatch, data, state.browse.filters, layout);
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
    const full = async (id: number): Promise<RecordFull | null> => {
      try {
        return (await store.get(id, person, BARE)).record;
      } catch {
        say(words.record.gone, 'refused');
        return null;
      }
    };
    const dialog = state.dialog;
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
    /** Done at once, and offered back with `u` for a while. */
    const offer = (one: Act, answer: Answer) => {
      const back = undoOf(one, answer);
      if (back) dispatch({ type: 'undo', undo: { op: back.op, args: back.args, until: now() + UNDO_MS } });
    };
    const undoable = (one: Act): void => void act(one).then((answer) => offer(one, answer));

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
    const slid = state.slid;
    const slidHere = slid && (context === 'record' ? slid.part !== undefined && slid.part === partKey(part ?? undefined) && current?.id === slid.id : slid.part === undefined && current?.id === slid.id);
    if (CHANGES.has(command) && slid && slidHere) {
      dispatch({ type: 'slid-seen' });
      if (now() - slid.at < SEEN_MS) return say(words.say.slidUnder(slid.id, keysFor(command, context).slice(0, 1).map((k) => keyLabel(k, words)).join('')), 'info');
    }

    switch (command) {
      case 'open':
        if (context === 'lists') dispatch({ type: 'pane', pane: 'records' });
        else if (context === 'search') dispatch({ type: 'search-focus', focus: 'results' });
        else if (context === 'welcome') {
          const t = data.templates[state.browse.welcome.at];
          if (t) void act({ op: 'create-list', args: { template: t.id, lang: words.lang } }).then((answer) => made(answer, data.empty));
        } else if (context === 'results' && screen?.kind === 'search' && data.search?.ok) {
          const hit = data.search.value[screen.cursor.at];
          if (hit) dispatch({ type: 'push', screen: { kind: 'record', id: hit.id, cursor: START } });
        } else if (context === 'records' && needRecord()) dispatch({ type: 'push', screen: { kind: 'record', id: current!.id, cursor: START } });
        else if (context === 'brief' && screen?.kind === 'brief') {
          const line = data.brief[screen.cursor.at]?.part;
          if (line?.kind === 'record') dispatch({ type: 'push', screen: { kind: 'record', id: line.id, cursor: START } });
        } else if (context === 'record' && part?.kind === 'record') dispatch({ type: 'push', screen: { kind: 'record', id: part.id, cursor: START } });
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
      case 'suspend':
        if (terminal) terminal.suspend();
        else say(words.say.cannotSuspend, 'info');
        return;
      case 'undo': {
        const undo = state.undo;
        dispatch({ type: 'undo', undo: null });
        if (!undo || undo.until < now()) return say(words.say.nothingToUndo, 'info');
        const said = state.message?.text ?? '';
        void act({ op: undo.op, args: undo.args }).then((answer) => {
          if (answer.ok) say(words.say.undone(safe(said)), 'done');
        });
        return;
      }
      case 'search':
        if (screen?.kind === 'search') dispatch({ type: 'search-focus', focus: 'input' });
        else dispatch({ type: 'push', screen: { kind: 'search', text: '', caret: 0, focus: 'input', cursor: START, filters: { state: null, mine: false, archived: false, text: '' } } });
        return;
      case 'filterText':
        if (needList()) dispatch({ type: 'dialog', dialog: filterForm(state.browse.filters.text, words) });
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
      case 'yes':
        if (dialog) void submitDialog({ dialog, screen, dispatch, act, say, words, now: now(), wasEmpty: data.empty, made, offer });
        return;
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
        // An approval of what the screen shows: refused if an agent changed it since.
        if (r) void act({ op: 'approve', args: r.approved !== null ? { id: r.id, withdraw: true } : { id: r.id, withdraw: false, seen: approvalMark(r.title, r.fields) } });
        return;
      }
      case 'moveBack':
      case 'moveOn': {
        const r = needRecord();
        if (!r || !list) return;
        const at = list.states.findIndex((s) => s.id === r.state);
        const to = list.states[at + (command === 'moveOn' ? 1 : -1)];
        if (!to) return say(command === 'moveOn' ? words.say.lastState : words.say.firstState, 'info');
        // The step is from the state shown, with the mark of what the frame showed (past the gate, an approval of that).
        void full(r.id).then((fresh) => {
          if (!fresh) return;
          if (fresh.state !== r.state) say(words.say.notWhereShown(r.id, safe(list.states[at]?.name ?? r.state), safe(list.states.find((s) => s.id === fresh.state)?.name ?? fresh.state)), 'refused');
          else void act({ op: 'move', args: { id: r.id, state: to.id, seen: approvalMark(r.title, r.fields, r.state) } });
        });
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
        const column = w?.kind === 'board' ? w.columns[Math.min(data.column, w.columns.length - 1)]?.state.id : undefined;
        dispatch({ type: 'dialog', dialog: addForm(list!, column, words, now()) });
        return;
      }
      case 'edit': {
        const r = needRecord();
        if (!r || !list) return;
        if (context === 'record') dispatch({ type: 'dialog', dialog: editForm(r as RecordFull, list, words, now()) });
        else {
          void full(r.id).then((whole) => {
            if (whole) dispatch({ type: 'dialog', dialog: editForm(whole, list, words, now()) });
          });
        }
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
        undoable({ op: 'detach', args: { id: opened.record.id, what: String(part.id) } });
        return;
      case 'archive': {
        const r = needRecord();
        if (!r) return;
        if (r.archived) void act({ op: 'restore', args: { id: r.id } });
        else undoable({ op: 'archive', args: { id: r.id } });
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
        if (!r) return;
        // A claim taken away cannot be given back (only its holder can take it again): asked first.
        if (r.lease && r.lease.by.id !== person.id) {
          const holder = data.nameOf(r.lease.by.id);
          dispatch({ type: 'dialog', dialog: confirm(words.dialog.takeAway(r.id, safe(r.title), holder), { do: 'release', id: r.id, holder }) });
        } else void act({ op: 'release', args: { id: r.id } });
        return;
      }
      case 'loginLink': {
        if (!loginLink) return say(words.say.notServed, 'info');
        void loginLink().then((link) => say(words.say.loginLink(link), 'info'), (error: unknown) => say(safe(String(error instanceof Error ? error.message : error)), 'refused'));
        return;
      }
      case 'brief': {
        const wasBrief = screen?.kind === 'brief';
        void keeper.act('brief', {}, person, { lang: words.lang }).then((answer) => {
          if (!answer.ok) return say(safe(answer.text), 'refused');
          const brief = answer.data as Brief;
          if (wasBrief) dispatch({ type: 'pop' });
          dispatch({ type: 'push', screen: { kind: 'brief', items: brief.items, more: brief.more, cursor: START } });
        });
        return;
      }
      case 'newList':
        dispatch({ type: 'dialog', dialog: pick(words.dialog.pickTemplate, data.templates.map((t) => ({ value: t.id, label: safe(t.title) })), { do: 'template' }) });
        return;
      case 'archiveList': {
        const l = data.lists.find((x) => x.id === data.listId);
        if (!l) return say(words.say.noList, 'info');
        if (l.archived) void act({ op: 'archive-list', args: { list: l.id, restore: true } });
        else undoable({ op: 'archive-list', args: { list: l.id } });
        return;
      }
      case 'deleteList': {
        const l = data.lists.find((x) => x.id === data.listId);
        if (l) dispatch({ type: 'dialog', dialog: confirm(words.dialog.deleteList(safe(l.title), l.count), { do: 'delete-list', list: l.id }, safe(l.title)) });
        else say(words.say.noList, 'info');
        return;
      }
      default:
        manageCommand(command, {
          screen, data, dispatch, act, undoable, words,
          accessNow: async (id, agent) => (await store.list(id, person)).access[agent] ?? 'none',
          inTurn: (step) => { turns.current = turns.current.then(step).catch(() => undefined); },
        });
    }
  }, [state, dispatch, data, context, screen, keeper, person, words, firstSide, store, act, say, now, terminal, loginLink]);
}
