/**
 * The commands that move about the screen and its dialogs, and those about the binder as a whole
 * (a list made, archived or deleted, the brief, a login link): each says whether it was one.
 */
import type { Brief } from '../../store/index.js';
import { safe } from '../../person/format.js';
import { confirm, filterForm, goToForm, pick } from '../../person/form.js';
import type { Command } from '../../person/keymap.js';
import { START } from '../../person/window.js';
import type { CommandScope } from './command-scope.js';
import { submitDialog } from './submit-dialog.js';
import { takeBack, undoLatest } from './undo-commands.js';

export function screenCommand(command: Command, scope: CommandScope): boolean {
  const { state, screen, data, context, dispatch, say, act, current, part, needRecord, needList, list, made, undo } = scope;
  const { words, now, terminal } = scope.binder;
  const dialog = state.dialog;
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
      return true;
    case 'back':
      if (screen) dispatch({ type: 'pop' });
      else if (context === 'records') dispatch({ type: 'pane', pane: 'lists' });
      else dispatch({ type: 'dismiss-notices' });
      return true;
    case 'switchPane':
      if (context === 'search' || context === 'results') dispatch({ type: 'search-focus', focus: context === 'search' ? 'results' : 'input' });
      else dispatch({ type: 'pane' });
      return true;
    case 'help':
      if (context === 'help') dispatch({ type: 'pop' });
      else dispatch({ type: 'push', screen: { kind: 'help', context, scroll: 0 } });
      return true;
    case 'goTo':
      dispatch({ type: 'dialog', dialog: goToForm(words) });
      return true;
    case 'quit':
      dispatch({ type: 'quit' });
      return true;
    case 'suspend':
      if (terminal) terminal.suspend();
      else say(words.say.cannotSuspend, 'info');
      return true;
    case 'undo':
      undoLatest(state.undos, undo);
      return true;
    case 'zoom':
      dispatch({ type: 'zoom', place: context === 'record' ? 'record' : 'board' });
      return true;
    case 'search':
      if (screen?.kind === 'search') dispatch({ type: 'search-focus', focus: 'input' });
      else dispatch({ type: 'push', screen: { kind: 'search', text: '', caret: 0, focus: 'input', cursor: START, filters: { state: null, mine: false, archived: false, text: '' } } });
      return true;
    case 'filterText':
      if (needList()) dispatch({ type: 'dialog', dialog: filterForm(state.browse.filters.text, words) });
      return true;
    case 'filterState': {
      const all = { value: '', label: words.view.allStates };
      if (screen?.kind === 'search') {
        const names = [...new Set((data.search?.ok ? data.search.value : []).map((h) => h.stateName))];
        dispatch({ type: 'dialog', dialog: pick(words.dialog.filterState, [all, ...names.map((n) => ({ value: n, label: safe(n) }))], { do: 'filter-state' }, screen.filters.state ?? '') });
      } else if (needList()) {
        dispatch({ type: 'dialog', dialog: pick(words.dialog.filterState, [all, ...list!.states.map((s) => ({ value: s.id, label: safe(s.name) }))], { do: 'filter-state' }, state.browse.filters.state ?? '') });
      }
      return true;
    }
    case 'filterMine':
    case 'filterArchived': {
      const filters = screen?.kind === 'search' ? screen.filters : state.browse.filters;
      dispatch({ type: 'filters', patch: command === 'filterMine' ? { mine: !filters.mine } : { archived: !filters.archived } });
      return true;
    }
    case 'archivedLists':
      dispatch({ type: 'archived-lists' });
      return true;
    case 'grant':
      if (needList()) dispatch({ type: 'push', screen: { kind: 'grant', list: list!.id, cursor: START } });
      return true;
    case 'sides':
      dispatch({ type: 'push', screen: { kind: 'sides', cursor: START } });
      return true;
    case 'editList':
      if (needList()) dispatch({ type: 'push', screen: { kind: 'list-editor', list: list!.id, cursor: START } });
      return true;

    case 'submit':
    case 'yes':
      if (dialog) void submitDialog({ dialog, screen, dispatch, act, say, words, now: now(), wasEmpty: data.empty, made, undo: () => takeBack(state.undos[state.undos.length - 1]!, undo) });
      return true;
    case 'cancel':
      dispatch({ type: 'dialog', dialog: null });
      return true;
    case 'nextField':
    case 'prevField':
      dispatch({ type: 'form-focus', delta: command === 'nextField' ? 1 : -1 });
      return true;
    case 'choicePrev':
    case 'choiceNext':
      dispatch({ type: 'form-choice', delta: command === 'choiceNext' ? 1 : -1 });
      return true;
    default:
      return false;
  }
}

/** The commands about the binder as a whole: a login link, the brief, a list made, archived or deleted. */
export function binderCommand(command: Command, scope: CommandScope): boolean {
  const { screen, data, dispatch, say, act, undoable } = scope;
  const { keeper, person, words, loginLink } = scope.binder;
  switch (command) {
    case 'loginLink': {
      if (!loginLink) { say(words.say.notServed, 'info'); return true; }
      void loginLink().then((link) => say(words.say.loginLink(link), 'info'), (error: unknown) => say(safe(String(error instanceof Error ? error.message : error)), 'refused'));
      return true;
    }
    case 'brief': {
      // A look: the changes stay unseen until the person marks them (s), on this screen or another.
      const wasBrief = screen?.kind === 'brief';
      void keeper.act('brief', { peek: true }, person, { lang: words.lang }).then((answer) => {
        if (!answer.ok) { say(safe(answer.text), 'refused'); return; }
        const brief = answer.data as Brief;
        if (wasBrief) dispatch({ type: 'pop' });
        dispatch({ type: 'push', screen: { kind: 'brief', items: brief.items, more: brief.more, cursor: START, through: brief.through ?? 0, counts: brief.counts ?? null } });
      });
      return true;
    }
    case 'briefLatest': {
      const latest = screen?.kind === 'brief' ? screen.items[0] : undefined;
      if (latest) dispatch({ type: 'push', screen: { kind: 'record', id: latest.record, cursor: START } });
      else say(words.brief.nothing, 'info');
      return true;
    }
    case 'briefSeen': {
      if (screen?.kind !== 'brief') return true;
      // Through the last row this view read: what came after it, unseen by the person, stays unseen.
      const shown = screen.counts?.total ?? screen.items.length;
      void keeper.act('brief', { seen: screen.through }, person, { lang: words.lang }).then((answer) => {
        if (!answer.ok) { say(safe(answer.text), 'refused'); return; }
        dispatch({ type: 'pop' });
        dispatch({ type: 'push', screen: { ...screen, marked: true } });
        say(words.brief.markedSeen(shown), 'done');
      });
      return true;
    }
    case 'newList':
      dispatch({ type: 'dialog', dialog: pick(words.dialog.pickTemplate, data.templates.map((t) => ({ value: t.id, label: safe(t.title) })), { do: 'template' }) });
      return true;
    case 'archiveList': {
      const l = data.lists.find((x) => x.id === data.listId);
      if (!l) { say(words.say.noList, 'info'); return true; }
      if (l.archived) void act({ op: 'archive-list', args: { list: l.id, restore: true } });
      else undoable({ op: 'archive-list', args: { list: l.id } });
      return true;
    }
    case 'deleteList': {
      const l = data.lists.find((x) => x.id === data.listId);
      if (l) dispatch({ type: 'dialog', dialog: confirm(words.dialog.deleteList(safe(l.title), l.count), { do: 'delete-list', list: l.id }, safe(l.title)) });
      else say(words.say.noList, 'info');
      return true;
    }
    default:
      return false;
  }
}
