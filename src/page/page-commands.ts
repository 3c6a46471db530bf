/// <reference lib="dom" />
/**
 * The screen's named commands, done on the page: moving about goes to the reducer; the panel in
 * front hears its own first (a record's notes and attached things, what changed, agents, folders,
 * the list's editor); every change is one operation through the person's API. What cannot be
 * taken back asks first (delete, a claim taken away), and so does an approval withdrawn, as on
 * the screen; what else can be taken back is done at once and offered back
 * with `u` for a while, as the screen offers it (src/person/undo.ts). A key acts on the record as
 * the page showed it (the card selected, or the record's panel), and not at all on one that came
 * under the selection a moment before: the person is asked again (src/person/seen.ts, as on the
 * screen). It never changes the binder but through `act`.
 */
import { approvalMark } from '../store/light.js';
import type { List, ListSummary, Moved, RecordSummary, RecordView } from '../store/index.js';
import type { Dispatch, MutableRefObject } from 'react';
import { NO_FILTERS } from '../person/screen-state.js';
import type { Words } from '../person/words.js';
import { operation } from '../keeper/operations.js';
import { isOpCommand, keysFor, OP_COMMANDS, type Command } from '../person/keymap.js';
import { keyLabel } from '../person/help-lines.js';
import { afterSlide } from '../person/seen.js';
import type { Lang } from '../person/words.js';
import { call } from './api.js';
import { summaryOf, type OpenList } from './list-page.js';
import type { PageContext, PanelKeys } from './page-context.js';
import { contextOf, type PageAction, type PageState, type Shown, type Step, type Where } from './page-state.js';

const STEPS: readonly Step[] = ['up', 'down', 'left', 'right', 'top', 'bottom', 'pageUp', 'pageDown'];

export interface CommandDeps {
  state: PageState;
  dispatch: Dispatch<PageAction>;
  act: PageContext['act'];
  follow: PageContext['follow'];
  words: Words;
  person: { id: string };
  role: 'admin' | 'member';
  /** The sentence a member is told for an admin's key. */
  adminOnly: string;
  /** The lists shown at the left. */
  lists: readonly ListSummary[];
  open: OpenList;
  /** The records each board column shows (the table has one). */
  shown: readonly (readonly Shown[])[];
  /** The record selected, as the page shows it. */
  selected: RecordSummary | null;
  panelKeys: MutableRefObject<PanelKeys | null>;
  /** Lists read on the way (a record's), for the names of their states. */
  seen(list: List): void;
  now(): number;
  lang: Lang;
}

/** A record and its list as they are now: the one the commands act on. */
async function recordNow(id: number, seen: (list: List) => void): Promise<{ record: RecordSummary; list: List } | null> {
  const got = await call<RecordView>('get', { id, notes: 0, history: 0 });
  if (!got.ok || !got.data) return null;
  seen(got.data.list);
  return { record: summaryOf(got.data), list: got.data.list };
}

/** The names of a list's states by their ids: what a withdrawn approval's sentence says of where the record went. */
const stateNames = (list: List): Record<string, string> => Object.fromEntries(list.states.map((s) => [s.id, s.name]));

/** A change to a record that came under the selection a moment ago: not done, the person asked again (true then). */
function askedAgain({ state, dispatch, panelKeys, words, now, lang }: CommandDeps, command: Command, target: number | null): boolean {
  const inRecord = state.panel?.kind === 'record';
  const slid = afterSlide(state.slid, command, target, inRecord ? panelKeys.current?.part : undefined, inRecord, now());
  if (slid !== 'go') dispatch({ type: 'slid', slid: null });
  if (slid !== 'ask' || target === null) return false;
  const key = keysFor(command, contextOf(state), lang)[0];
  dispatch({ type: 'say', text: words.say.slidUnder(target, key ? keyLabel(key, words) : ''), tone: 'warn' });
  return true;
}

/**
 * A record's deletion, asked first: one with records under it (read now, so that a child added
 * since the page drew it is counted) asks what becomes of them, as the store's delete takes it.
 */
async function askDelete(id: number, r: RecordSummary, { dispatch, words }: CommandDeps): Promise<void> {
  const got = await call<RecordView>('get', { id, notes: 0, history: 0 });
  const children = got.ok ? got.data?.children ?? [] : [];
  dispatch({
    type: 'dialog',
    dialog: children.length
      ? { kind: 'delete-parent', id, text: words.dialog.deleteParent(id, r.title, children.map((c) => `#${c.id}`).join(', '), r.notes, r.attached) }
      : { kind: 'confirm', op: 'delete', args: { id }, text: words.dialog.deleteRecord(id, r.title, r.notes, r.attached) },
  });
}

/**
 * Does `command`; false when it is none of the page's here (the browser keeps the key). `where`:
 * the filters it sets are the open list's (its head's buttons), else the search's while it is in front.
 */
export function pageCommands(deps: CommandDeps): (command: Command, where?: Where) => boolean {
  const { state, dispatch, act, follow, words, person, role, adminOnly, lists, open, shown, selected, panelKeys, seen } = deps;
  const say = (text: string): true => {
    dispatch({ type: 'say', text, tone: 'warn' });
    return true;
  };
  const list = open.page?.list ?? null;
  const panel = state.panel;
  /** The record a command is about: the one opened, else the one under the board's cursor. */
  const target = panel?.kind === 'record' ? panel.id : selected?.id ?? null;
  const openList = lists.find((l) => l.id === state.list) ?? null;

  const onRecord = (command: Command, id: number): boolean => {
    const withRecord = (then: (r: RecordSummary, l: List) => unknown): true => {
      void recordNow(id, seen).then((now) => {
        if (now) return then(now.record, now.list);
        say(words.record.gone);
        return undefined;
      });
      return true;
    };
    /** The record as the page showed it (its panel, else the card selected; else as it is now): a key acts on what was seen. */
    const withShown = (then: (r: RecordSummary, l: List) => unknown): true => {
      const inPanel = panel?.kind === 'record' ? panelKeys.current?.shown : undefined;
      if (inPanel?.record.id === id) then(inPanel.record, inPanel.list);
      else if (panel?.kind !== 'record' && selected?.id === id && list) then(selected, list);
      else return withRecord(then);
      return true;
    };
    switch (command) {
      case 'approve':
        // An approval withdrawn is asked about first, as on the screen; an approval is of what the
        // page shows (refused if an agent changed it since).
        return withShown((r, l) => (r.approved !== null
          ? dispatch({ type: 'dialog', dialog: { kind: 'confirm', op: 'approve', args: { id, withdraw: true }, text: words.dialog.withdraw(id, r.title), states: stateNames(l) } })
          : act<RecordSummary>('approve', { id, withdraw: false, seen: approvalMark(r.title, r.fields) }, () => words.done.approved(id))));
      case 'moveBack':
      case 'moveOn':
        return withShown((r, l) => {
          const to = l.states[l.states.findIndex((s) => s.id === r.state) + (command === 'moveOn' ? 1 : -1)];
          if (!to) return say(command === 'moveOn' ? words.say.lastState : words.say.firstState);
          follow(id, to.id);
          // From where it was shown, with what was shown: moved or changed since, nothing moves.
          return act<Moved>('move', { id, state: to.id, seen: approvalMark(r.title, r.fields, r.state) }, (d) => (d.stayed ? words.done.alreadyIn : words.done.moved)(id, to.name));
        });
      case 'movePick':
        // The state picked is a step from where the record was shown, as `<` and `>` are.
        return withShown((r) => dispatch({ type: 'dialog', dialog: { kind: 'move', id, seen: approvalMark(r.title, r.fields, r.state) } }));
      case 'edit': dispatch({ type: 'dialog', dialog: { kind: 'form', op: 'edit', id } }); return true;
      case 'note': dispatch({ type: 'dialog', dialog: { kind: 'form', op: 'note', id } }); return true;
      case 'attach': dispatch({ type: 'dialog', dialog: { kind: 'form', op: 'attach', id } }); return true;
      case 'archive':
        // Archived, it is offered back; restored, it is not (the screen's choice).
        return withShown((r) => (r.archived ? act('restore', { id }) : act('archive', { id }, null, { offer: true })));
      case 'needs':
        return withShown(() => dispatch({ type: 'dialog', dialog: { kind: 'needs', id, was: panelKeys.current?.shown?.needs ?? [] } }));
      case 'delete': return withShown((r) => askDelete(id, r, deps));
      case 'release':
        return withShown((r) => {
          if (!r.lease) return say(words.done.notTaken(id));
          // A claim taken away cannot be given back (only its holder can take it again): asked first.
          if (r.lease.by.id === person.id) return act('release', { id });
          return dispatch({ type: 'dialog', dialog: { kind: 'confirm', op: 'release', args: { id }, text: words.dialog.takeAway(id, r.title, r.lease.by.name) } });
        });
      default: return false;
    }
  };

  return (command: Command, scope?: Where): boolean => {
    const where: Where = scope ?? (panel?.kind === 'search' ? 'search' : 'list');
    const filters = where === 'search' && panel?.kind === 'search' ? panel.filters : state.filters;
    // An admin's operation (the catalog says which) is not offered to a member: the key says why.
    if (role === 'member' && isOpCommand(command) && operation(OP_COMMANDS[command])?.admin) return say(adminOnly);
    if (askedAgain(deps, command, target)) return true;
    // The panel in front hears its keys first; a button of the list's head is the list's.
    const rows = panel && scope === undefined ? panelKeys.current : null;
    if (rows?.run(command)) return true;
    if ((STEPS as readonly string[]).includes(command)) {
      const step = command as Step;
      // A panel without rows (help, a new list) leaves the keys to the browser: they scroll it.
      if (panel) {
        if (!rows || rows.rows === 0) return false;
        dispatch({ type: 'step-panel', step, count: rows.rows });
      } else if (state.focus === 'records') dispatch({ type: 'step-records', step, columns: shown });
      else dispatch({ type: 'step-lists', step, count: lists.length });
      return true;
    }
    switch (command) {
      case 'open':
        if (panel) return false;
        if (state.focus === 'lists') {
          const l = lists[state.listAt];
          if (l) dispatch({ type: 'open-list', list: l.id });
        } else if (selected) dispatch({ type: 'panel', panel: { kind: 'record', id: selected.id } });
        return true;
      case 'back':
        if (panel) dispatch({ type: 'panel', panel: null });
        else dispatch({ type: 'focus', focus: 'lists' });
        return true;
      case 'search':
        dispatch({ type: 'panel', panel: panel?.kind === 'search' ? panel : { kind: 'search', filters: NO_FILTERS } });
        (document.querySelector('.panel input[type="search"]') as HTMLInputElement | null)?.focus();
        return true;
      case 'help': dispatch({ type: 'panel', panel: panel?.kind === 'help' ? null : { kind: 'help' } }); return true;
      case 'goTo': dispatch({ type: 'dialog', dialog: { kind: 'go-to' } }); return true;
      case 'brief': dispatch({ type: 'panel', panel: { kind: 'brief', asked: panel?.kind === 'brief' ? panel.asked + 1 : 0 } }); return true;
      case 'grant': if (list) dispatch({ type: 'panel', panel: { kind: 'agents' } }); return true;
      case 'sides': dispatch({ type: 'panel', panel: { kind: 'folders' } }); return true;
      case 'editList': if (list) dispatch({ type: 'panel', panel: { kind: 'list-editor' } }); return true;
      case 'newList': dispatch({ type: 'panel', panel: { kind: 'new-list' } }); return true;
      case 'archivedLists': dispatch({ type: 'archived-lists' }); return true;
      case 'filterArchived': dispatch({ type: 'filters', where, patch: { archived: !filters.archived } }); return true;
      case 'filterMine': dispatch({ type: 'filters', where, patch: { mine: !filters.mine } }); return true;
      case 'filterState':
        if (!list) return say(words.say.noList);
        dispatch({
          type: 'dialog',
          dialog: { kind: 'filter-state', where: 'list', at: state.filters.state ?? '', choices: [{ value: '', label: words.view.allStates }, ...list.states.map((s) => ({ value: s.id, label: s.name }))] },
        });
        return true;
      case 'filterText':
        if (!list) return say(words.say.noList);
        dispatch({ type: 'dialog', dialog: { kind: 'filter-text', text: state.filters.text } });
        return true;
      case 'undo': {
        const offer = state.undo;
        dispatch({ type: 'undo', undo: null });
        if (!offer || offer.until < Date.now()) return say(words.say.nothingToUndo);
        void act(offer.op, offer.args, () => words.say.undone(offer.text));
        return true;
      }
      case 'add': if (list) dispatch({ type: 'dialog', dialog: { kind: 'form', op: 'add' } }); return true;
      case 'deleteList':
        if (list) dispatch({ type: 'dialog', dialog: { kind: 'typed', op: 'delete-list', list: list.id, title: list.title, text: words.dialog.deleteList(list.title, openList?.count ?? 0) } });
        return true;
      case 'archiveList':
        if (!openList) return say(words.say.noList);
        if (openList.archived) void act('archive-list', { list: openList.id, restore: true });
        else void act('archive-list', { list: openList.id }, null, { offer: true });
        return true;
      default: break;
    }
    return target === null ? false : onRecord(command, target);
  };
}
