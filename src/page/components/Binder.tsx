/// <reference lib="dom" />
/**
 * The signed-in page: the lists, the open list (board or table) with its filters, the panel beside
 * it (a record, search, what changed, agents, the list's editor, help), the dialogs, and the line
 * that says what happened (and offers the last change back). Keys are the screen's (its keymap
 * says what each means where; `pageCommands` does them); the page is kept live by the server's
 * stream and says when it lost the server.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import type { List, ListSummary, Person, RecordSummary, Side } from '../../store/index.js';
import { doneText } from '../../person/answer-words.js';
import { commandFor } from '../../person/keymap.js';
import { namesFrom } from '../../person/names.js';
import { UNDO_MS, undoOf } from '../../person/undo.js';
import type { Lang, Words } from '../../person/words.js';
import type { OpName } from '../../keeper/operations.js';
import { call, type Answer } from '../api.js';
import { keyPress } from '../keys.js';
import { useOpenList } from '../list-page.js';
import { followChanges, type Link } from '../live.js';
import { useHeardWork } from '../heard-work.js';
import { pageCommands } from '../page-commands.js';
import { Page, type PageContext, type PanelKeys } from '../page-context.js';
import { START, contextOf, pageReducer } from '../page-state.js';
import { sortedRows } from '../table-sort.js';
import { useHeldRecord, type Followed } from '../use-held-record.js';
import { useRecordAddress } from '../use-record-address.js';
import type { PageWords } from '../page-words.js';
import { Dialogs } from './Dialogs.js';
import { ListView } from './ListView.js';
import { ListsNav } from './ListsNav.js';
import { MessageLine } from './MessageLine.js';
import { SidePanel } from './SidePanel.js';
import { TopBar } from './TopBar.js';

export interface BinderProps {
  lang: Lang;
  words: Words;
  pw: PageWords;
  person: { id: string; name: string; email?: string };
  /** People sign in through a provider here. */
  signedIn: boolean;
  langSwitch: ReactNode;
  /** A record's link (`#/record/12`) brought the person here: that record opens first. */
  openRecord?: number | null;
  /** Signed out; `providerSignOut` is where to sign out of the identity provider too, if it says. */
  onSignedOut(providerSignOut?: string | null): void;
}

/** The guard's clock: when a record came under the selection, and when a key was pressed. */
const now = (): number => Date.now();

export function Binder({ lang, words, pw, person, signedIn, langSwitch, openRecord, onSignedOut }: BinderProps) {
  const [state, dispatch] = useReducer(pageReducer, START);
  useRecordAddress(state, dispatch, openRecord);
  const [version, setVersion] = useState(0);
  const [link, setLink] = useState<Link>('connecting');
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    const live = followChanges({ changed: bump, link: setLink });
    return () => live.close();
  }, [bump]);
  // What waits for the person: the tab's title, and the browser's notifications once allowed.
  const me = useMemo(() => ({ id: person.id, name: person.name, kind: 'person' as const }), [person.id, person.name]);
  const openHeard = useCallback((id: number) => dispatch({ type: 'panel', panel: { kind: 'record', id } }), []);
  useHeardWork(version, me, words, openHeard);

  // The lists whose states the page has read, so that a sentence names a state as people know it.
  const known = useRef(new Map<string, List>());
  const seen = useCallback((list: List) => known.current.set(list.id, list), []);
  const stateName = useCallback((list: string, id: string) => known.current.get(list)?.states.find((s) => s.id === id)?.name ?? id, []);

  // The record the person last deleted or archived: its leaving is their own doing, not news.
  const removed = useRef<number | null>(null);
  const act = useCallback(async <T,>(op: string, args: Record<string, unknown>, done?: ((data: T) => string) | null, options: { offer?: boolean } = {}): Promise<Answer<T>> => {
    // An offer to take back an earlier change does not outlive the next one.
    dispatch({ type: 'undo', undo: null });
    // Said before the answer: the stream may tell of the change, and the list be read again, first.
    const removing = (op === 'delete' || op === 'archive') && typeof args.id === 'number' ? args.id : null;
    if (removing !== null) removed.current = removing;
    const answer = await call<T>(op, args);
    if (!answer.ok && removing !== null && removed.current === removing) removed.current = null;
    if (answer.ok) {
      const text = (done && answer.data !== null ? done(answer.data) : doneText(op, answer.data, args, words, stateName, { ...person, kind: 'person' })) ?? answer.text;
      const back = options.offer ? undoOf({ op: op as OpName, args }, answer) : null;
      if (back) dispatch({ type: 'undo', undo: { ...back, until: Date.now() + UNDO_MS, text } });
      dispatch({ type: 'say', text, tone: 'good' });
      bump();
    } else dispatch({ type: 'say', text: answer.text, tone: 'warn' });
    return answer;
  }, [bump, words, stateName, person]);

  // People and agents by the names people know them by: the person, and the folders' names.
  const [sides, setSides] = useState<Side[]>([]);
  useEffect(() => {
    let current = true;
    void call<Side[]>('sides').then((answer) => {
      if (current && answer.ok && answer.data) setSides(answer.data);
    });
    return () => {
      current = false;
    };
  }, [version]);
  // The person's role, as the store has it; a local person (no provider) is an admin.
  const [role, setRole] = useState<'admin' | 'member'>(signedIn ? 'member' : 'admin');
  useEffect(() => {
    if (!signedIn) return undefined;
    let current = true;
    void call<Person[]>('people').then((answer) => {
      const me = answer.ok ? answer.data?.find((p) => p.id === person.id) : undefined;
      if (current && me) setRole(me.role);
    });
    return () => {
      current = false;
    };
  }, [version, signedIn, person.id]);
  // An owner is named one way everywhere: the agent's name as its folder was registered, the person's own.
  const registered = useMemo(() => [person, ...sides.map((s) => ({ id: s.agent, name: s.name }))], [person, sides]);
  const nameOf = useMemo(() => namesFrom(registered), [registered]);
  const followed = useRef<Followed | null>(null);
  const follow = useCallback((id: number, to?: string) => {
    followed.current = { id, ...(to !== undefined ? { state: to } : {}) };
  }, []);
  const panelKeys = useRef<PanelKeys | null>(null);
  const context: PageContext = { lang, words, pw, person, role, signedIn, state, dispatch, version, nameOf, known: registered, act, follow, panelKeys, now };

  // Every list, archived ones too: shown when asked (`A`), and counted when every list is archived.
  const [all, setAll] = useState<ListSummary[] | null>(null);
  useEffect(() => {
    let current = true;
    void call<ListSummary[]>('lists', { archived: true }).then((answer) => {
      if (current && answer.ok && answer.data) setAll(answer.data);
    });
    return () => {
      current = false;
    };
  }, [version]);
  const lists = useMemo(() => (all ?? []).filter((l) => state.archivedLists || !l.archived), [all, state.archivedLists]);
  useEffect(() => {
    // The open list was deleted or archived, here or elsewhere.
    if (all !== null && state.list !== null && !lists.some((l) => l.id === state.list)) dispatch({ type: 'list-gone' });
  }, [all, lists, state.list]);
  // The first list opens by itself: at the start with the cursor in its records; after the open
  // list went, or the archived lists were shown or hidden, with the cursor left among the lists, as
  // the screen leaves it — so a key pressed then means the same whether or not the list has opened.
  const opened = useRef(false);
  useEffect(() => {
    if (state.list !== null || !lists[0]) return;
    dispatch({ type: 'open-list', list: lists[0].id, at: 0, ...(opened.current ? { focus: 'lists' as const } : {}) });
    opened.current = true;
  }, [lists, state.list]);

  const open = useOpenList(state.list, state.filters, version, lang, person.id);
  if (open.page) seen(open.page.list);
  const table = open.page?.list.view === 'table';
  // What the selection goes over: the board's columns, or the table's one. The record selected is the one held, where it is now.
  const shown: RecordSummary[][] = table ? [sortedRows(open.columns.flatMap((c) => c.records), state.sort, open.page!.list, nameOf, lang)] : open.columns.map((c) => c.records);
  const under = shown[state.column]?.[state.row] ?? null;
  const selected: RecordSummary | null = under && under.id === state.held?.id ? under : null;
  useHeldRecord({ state, dispatch, open, shown, followed, removed, words, now });

  // The offer to take a change back ends on time, and its button with it.
  useEffect(() => {
    if (!state.undo) return undefined;
    const timer = setTimeout(() => dispatch({ type: 'undo', undo: null }), Math.max(0, state.undo.until - Date.now()));
    return () => clearTimeout(timer);
  }, [state.undo]);

  const run = pageCommands({ state, dispatch, act, follow, words, person, role, adminOnly: pw.adminOnly, lists, open, shown, selected, panelKeys, seen, now, lang });

  const lastKey = useRef('');
  const onKey = (event: KeyboardEvent): void => {
    // A dialog hears its own keys (a native <dialog> keeps the focus, and Esc closes it).
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

  // The phone's drawer of lists closes once a list is opened from it.
  const [drawer, setDrawer] = useState(false);
  useEffect(() => setDrawer(false), [state.list]);
  const title = open.page?.list.title ?? '';
  const hidden = (all ?? []).length - lists.length;
  return (
    <Page.Provider value={context}>
      <a className="skip" href="#records">{pw.skip}</a>
      <TopBar link={link} langSwitch={langSwitch} drawer={drawer} onDrawer={setDrawer} run={run} onSignedOut={onSignedOut} />
      <div className={`body${drawer ? ' drawer-open' : ''}`}>
        <ListsNav lists={lists} hidden={hidden} onAct={run} />
        <main id="records" tabIndex={-1} aria-label={title ? pw.records(title) : words.view.noAccess}>
          {open.problem !== null && <p className="warn" role="alert">{open.problem}</p>}
          {open.page ? (
            <ListView open={open} table={table} rows={shown[0] ?? []} onAct={run} />
          ) : all !== null && lists.length === 0 ? <p>{hidden > 0 ? words.lists.allArchived(hidden, 'A') : <>{words.lists.none} {pw.emptyBinder}</>}</p> : <p>{pw.loading}</p>}
        </main>
        {state.panel && <SidePanel panel={state.panel} list={open.page?.list ?? null} onAct={run} />}
      </div>
      <MessageLine onUndo={() => run('undo')} />
      <Dialogs list={open.page?.list ?? null} />
    </Page.Provider>
  );
}
