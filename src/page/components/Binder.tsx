/// <reference lib="dom" />
/**
 * The signed-in page: the lists, the open list (board or table), the panel beside it (a record,
 * search, what changed, agents, the list's editor, help), the dialogs, and the line that says what
 * happened. Keys are the screen's (its keymap says what each means where); the page is kept live
 * by the server's stream and says when it lost the server.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import type { ListSummary, RecordSummary } from '../../store/types.js';
import { commandFor, type Command } from '../../tui/keymap.js';
import { namesFrom } from '../../tui/names.js';
import type { Lang, Words } from '../../tui/words.js';
import { call, signOut, type Answer } from '../api.js';
import { keyPress } from '../keys.js';
import { useOpenList } from '../list-page.js';
import { followChanges, type Link } from '../live.js';
import { Page, type PageContext } from '../page-context.js';
import { START, contextOf, pageReducer, type Step } from '../page-state.js';
import type { PageWords } from '../page-words.js';
import { Dialogs } from './Dialogs.js';
import { ListView } from './ListView.js';
import { ListsNav } from './ListsNav.js';
import { SidePanel } from './SidePanel.js';

export interface BinderProps {
  lang: Lang;
  words: Words;
  pw: PageWords;
  person: { id: string; name: string };
  langSwitch: ReactNode;
  onSignedOut(): void;
}

const STEPS: readonly Step[] = ['up', 'down', 'left', 'right', 'top', 'bottom', 'pageUp', 'pageDown'];

export function Binder({ lang, words, pw, person, langSwitch, onSignedOut }: BinderProps) {
  const [state, dispatch] = useReducer(pageReducer, START);
  const [version, setVersion] = useState(0);
  const [link, setLink] = useState<Link>('connecting');
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    const live = followChanges({ changed: bump, link: setLink });
    return () => live.close();
  }, [bump]);

  const act = useCallback(async <T,>(op: string, args: Record<string, unknown>, done?: (data: T) => string): Promise<Answer<T>> => {
    const answer = await call<T>(op, args);
    if (answer.ok) {
      if (done && answer.data !== null) dispatch({ type: 'say', text: done(answer.data), tone: 'good' });
      bump();
    } else dispatch({ type: 'say', text: answer.text, tone: 'warn' });
    return answer;
  }, [bump]);

  const nameOf = useMemo(() => namesFrom([person]), [person]);
  const followed = useRef<{ id: number; state?: string } | null>(null);
  const follow = useCallback((id: number, to?: string) => {
    followed.current = { id, ...(to !== undefined ? { state: to } : {}) };
  }, []);
  const context: PageContext = { lang, words, pw, person, state, dispatch, version, nameOf, act, follow };

  const [lists, setLists] = useState<ListSummary[]>([]);
  useEffect(() => {
    let current = true;
    void call<ListSummary[]>('lists').then((answer) => {
      if (current && answer.ok && answer.data) setLists(answer.data);
    });
    return () => {
      current = false;
    };
  }, [version]);
  useEffect(() => {
    // The open list was deleted or archived, here or elsewhere.
    if (state.list !== null && lists.length && !lists.some((l) => l.id === state.list)) dispatch({ type: 'list-gone' });
  }, [lists, state.list]);
  useEffect(() => {
    if (state.list === null && lists[0]) dispatch({ type: 'open-list', list: lists[0].id, at: 0 });
  }, [lists, state.list]);

  const open = useOpenList(state.list, state.archivedRecords, version, lang);
  const table = open.page?.list.view === 'table';
  const sizes = table ? [open.columns.reduce((n, c) => n + c.records.length, 0)] : open.columns.map((c) => c.records.length);
  const selected: RecordSummary | null = table
    ? open.columns.flatMap((c) => c.records)[state.row] ?? null
    : open.columns[state.column]?.records[state.row] ?? null;
  const target = state.panel?.kind === 'record' ? state.panel.id : selected?.id ?? null;
  const targetRecord = state.panel?.kind === 'record' ? null : selected;

  useEffect(() => {
    const wanted = followed.current;
    if (wanted === null) return;
    const { id } = wanted;
    const flat = open.columns.flatMap((c) => c.records);
    // Only once the list shows it where it went: a read from before the change does not count.
    const at = flat.find((r) => r.id === id);
    if (!at || (wanted.state !== undefined && at.state !== wanted.state)) return;
    const column = table ? 0 : open.columns.findIndex((c) => c.state.id === at.state);
    if (column < 0) return;
    followed.current = null;
    const row = table ? flat.findIndex((r) => r.id === id) : open.columns[column]!.records.findIndex((r) => r.id === id);
    dispatch({ type: 'select', column, row });
  }, [open.columns, table]);

  const lastKey = useRef('');
  const run = (command: Command): boolean => {
    const list = open.page?.list;
    const record = target;
    const states = list?.states ?? [];
    if ((STEPS as readonly string[]).includes(command)) {
      const step = command as Step;
      if (state.panel || state.focus === 'records') dispatch({ type: 'step-records', step, sizes });
      else dispatch({ type: 'step-lists', step, count: lists.length });
      return true;
    }
    switch (command) {
      case 'open':
        if (state.focus === 'lists' && !state.panel) {
          const l = lists[state.listAt];
          if (l) dispatch({ type: 'open-list', list: l.id });
        } else if (selected) dispatch({ type: 'panel', panel: { kind: 'record', id: selected.id } });
        return true;
      case 'back':
        if (state.panel) dispatch({ type: 'panel', panel: null });
        else dispatch({ type: 'focus', focus: 'lists' });
        return true;
      case 'search': dispatch({ type: 'panel', panel: { kind: 'search' } }); return true;
      case 'help': dispatch({ type: 'panel', panel: { kind: 'help' } }); return true;
      case 'brief': dispatch({ type: 'panel', panel: { kind: 'brief' } }); return true;
      case 'grant': if (list) dispatch({ type: 'panel', panel: { kind: 'agents' } }); return true;
      case 'sides': dispatch({ type: 'panel', panel: { kind: 'folders' } }); return true;
      case 'editList': if (list) dispatch({ type: 'panel', panel: { kind: 'list-editor' } }); return true;
      case 'newList': dispatch({ type: 'panel', panel: { kind: 'new-list' } }); return true;
      case 'filterArchived': dispatch({ type: 'archived-records' }); return true;
      case 'add': if (list) dispatch({ type: 'dialog', dialog: { kind: 'form', op: 'add' } }); return true;
      case 'deleteList':
        if (list) dispatch({ type: 'dialog', dialog: { kind: 'typed', op: 'delete-list', list: list.id, title: list.title, text: words.dialog.deleteList(list.title, Object.values(open.page?.counts ?? {}).reduce((a, b) => a + b, 0)) } });
        return true;
      case 'archiveList':
        if (list) void act('archive-list', { list: list.id }, () => words.done.listArchived(list.title));
        return true;
      default: break;
    }
    if (record === null) return false;
    const summary = targetRecord ?? null;
    switch (command) {
      case 'approve':
        void (async () => {
          const r = summary ?? (await call<{ record: RecordSummary }>('get', { id: record, notes: 0, history: 0 })).data?.record ?? null;
          const stateName = (id: string) => states.find((s) => s.id === id)?.name ?? id;
          if (r) await act<RecordSummary>('approve', { id: record, withdraw: r.approved !== null }, (d) => (r.approved ? words.done.withdrawn(record, stateName(d.state)) : words.done.approved(record)));
        })();
        return true;
      case 'moveBack':
      case 'moveOn':
        void (async () => {
          const r = summary ?? (await call<{ record: RecordSummary }>('get', { id: record, notes: 0, history: 0 })).data?.record ?? null;
          const at = states.findIndex((s) => s.id === r?.state);
          const to = states[at + (command === 'moveOn' ? 1 : -1)];
          if (!r || at < 0) return;
          if (!to) dispatch({ type: 'say', text: command === 'moveOn' ? words.say.lastState : words.say.firstState, tone: 'warn' });
          else {
            follow(record, to.id);
            await act('move', { id: record, state: to.id }, () => words.done.moved(record, to.name));
          }
        })();
        return true;
      case 'movePick': dispatch({ type: 'dialog', dialog: { kind: 'move', id: record } }); return true;
      case 'edit': dispatch({ type: 'dialog', dialog: { kind: 'form', op: 'edit', id: record } }); return true;
      case 'note': dispatch({ type: 'dialog', dialog: { kind: 'form', op: 'note', id: record } }); return true;
      case 'attach': dispatch({ type: 'dialog', dialog: { kind: 'form', op: 'attach', id: record } }); return true;
      case 'archive':
        void (async () => {
          const r = summary ?? (await call<{ record: RecordSummary }>('get', { id: record, notes: 0, history: 0 })).data?.record ?? null;
          if (r) await act(r.archived ? 'restore' : 'archive', { id: record }, () => (r.archived ? words.done.restored(record) : words.done.archived(record)));
        })();
        return true;
      case 'delete':
        void (async () => {
          const got = await call<{ record: { title: string; notes: unknown[]; attached: unknown[] }; counts: { notes: number } }>('get', { id: record, notes: 0, history: 0 });
          if (got.data) {
            dispatch({ type: 'dialog', dialog: { kind: 'confirm', op: 'delete', id: record, text: words.dialog.deleteRecord(record, got.data.record.title, got.data.counts.notes, got.data.record.attached.length) } });
          }
        })();
        return true;
      case 'release':
        void (async () => {
          const r = summary ?? (await call<{ record: RecordSummary }>('get', { id: record, notes: 0, history: 0 })).data?.record ?? null;
          if (r?.lease) dispatch({ type: 'dialog', dialog: { kind: 'confirm', op: 'release', id: record, text: words.dialog.takeAway(record, r.title, r.lease.by.name) } });
          else dispatch({ type: 'say', text: words.done.notTaken(record), tone: 'warn' });
        })();
        return true;
      default: return false;
    }
  };

  const onKey = (event: KeyboardEvent): void => {
    if (event.defaultPrevented || state.dialog) return;
    const at = event.target as HTMLElement | null;
    if (at?.closest('input, textarea, select, [contenteditable="true"]')) return;
    // Tab moves the browser's focus; Enter and Space press what has it.
    if (event.key === 'Tab') return;
    if ((event.key === 'Enter' || event.key === ' ') && at?.closest('button, a, summary')) return;
    const press = keyPress(event);
    const again = press.name === null && lastKey.current === press.text;
    const command = commandFor(contextOf(state), press, lang, again);
    lastKey.current = command ? '' : press.text;
    if (command && run(command)) event.preventDefault();
  };
  const keyRef = useRef(onKey);
  keyRef.current = onKey;
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keyRef.current(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  const title = open.page?.list.title ?? '';
  return (
    <Page.Provider value={context}>
      <a className="skip" href="#records">{pw.skip}</a>
      <header className="top">
        <h1>Binder</h1>
        <p className={`link link-${link}`} role="status">{pw.link[link]}</p>
        <nav aria-label={pw.menu} className="views">
          <button type="button" onClick={() => run('search')} aria-keyshortcuts="/">{words.search.title}</button>
          <button type="button" onClick={() => run('brief')} aria-keyshortcuts="b">{words.commands.brief}</button>
          <button type="button" onClick={() => run('sides')} aria-keyshortcuts="S">{pw.folders}</button>
          <button type="button" onClick={() => run('help')} aria-keyshortcuts="?">{pw.keysTitle} (?)</button>
        </nav>
        {langSwitch}
        <p className="who">{pw.signedInAs(person.name)}</p>
        <button type="button" onClick={() => void signOut().then(onSignedOut)}>{pw.signOut}</button>
      </header>
      <div className="body">
        <ListsNav lists={lists} />
        <main id="records" tabIndex={-1} aria-label={title ? pw.records(title) : words.view.noAccess}>
          {open.problem !== null && <p className="warn" role="alert">{open.problem}</p>}
          {open.page ? (
            <ListView open={open} table={table} onAct={run} />
          ) : lists.length === 0 ? <p>{words.lists.none}</p> : <p>{pw.loading}</p>}
        </main>
        {state.panel && <SidePanel panel={state.panel} list={open.page?.list ?? null} onAct={run} />}
      </div>
      <p className={`message ${state.message?.tone ?? ''}`} role="status" aria-live="polite">{state.message?.text ?? ''}</p>
      <Dialogs list={open.page?.list ?? null} />
    </Page.Provider>
  );
}
