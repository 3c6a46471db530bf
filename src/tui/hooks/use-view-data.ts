/**
 * Everything the screen shows, read from the store for the current place and version: the
 * lists, the window of the open list, the record opened, search hits, and the rows of the
 * managing screens; plus the `Facts` the reducer needs to move a cursor. Each read is keyed on
 * what it depends on, so a key that only moves the cursor within the window reads nothing.
 */
import { useMemo } from 'react';
import type { FolderStatus } from '../../keeper/keeper-types.js';
import type { List, ListSummary, RecordSummary, RecordView, SearchHit, Side, TemplateSummary } from '../../store/index.js';
import { useBinder } from '../context.js';
import { briefLines } from '../../person/brief-lines.js';
import { helpLines, keyLabel } from '../../person/help-lines.js';
import { keysFor } from '../../person/keymap.js';
import { wrap } from '../../person/format.js';
import { pageOf, type Layout } from '../layout.js';
import { namesFrom, type NameOf } from '../../person/names.js';
import { readLists, readRecord, readSearch, SEARCH_SHOWN, type ListWindow, type Read } from '../../person/reading.js';
import { partKey, peopleOf, recordLines, type Line } from '../../person/record-lines.js';
import { agentRows, editorRows, sideRows, type AgentRow, type EditorRow, type SideRow } from '../../person/rows.js';
import type { Facts } from '../screen-reducer.js';
import { contextOf, top, type ScreenState } from '../../person/screen-state.js';
import { useLoaded } from './use-loaded.js';
import type { Cursor } from '../../person/window.js';
import { useListWindow, type Fetched } from './use-list-window.js';
import { exposureOf } from '../../keeper/folder-exposure.js';

export interface ViewData {
  lists: ListSummary[];
  /** Lists not shown because they are archived (when archived lists are not shown). */
  hiddenLists: number;
  empty: boolean;
  listId: string | null;
  window: Read<ListWindow> | null;
  /** Board: the column the cursor is in, as shown. */
  column: number;
  selected: RecordSummary | null;
  /** The record held moved (the cursor went with it) or left the view, as the last read found. */
  heldNews: Fetched | null;
  /** In a record opened: the cursor on the part it holds. */
  recordCursor: Cursor | null;
  /** A read placed the cursor on the record held elsewhere than the reducer has it. */
  toKeep: Fetched | null;
  templates: TemplateSummary[];
  record: Read<RecordView> | null;
  lines: Line[];
  /** The brief's lines, when it is the screen in front. */
  brief: Line[];
  search: Read<SearchHit[]> | null;
  /** The words the search shown was for (another than typed: still looking), and whether it cut its matches. */
  searched: { for: string; cut: boolean } | null;
  help: Line[];
  managed: { list: List } | null;
  agents: AgentRow[];
  sides: SideRow[];
  editor: EditorRow[];
  facts: Facts;
  /** People and agents by name. */
  nameOf: NameOf;
  /** Board columns whose window had to start later for the cursor's card to show (cards take one row or two): to keep. */
  scrolled: { state: string; scroll: number }[];
  /** The first reads have come: until then the screen shows nothing rather than a screen of nothing. */
  ready: boolean;
}

export function useViewData(state: ScreenState, version: number, layout: Layout, folders: readonly FolderStatus[]): ViewData {
  const { keeper, person, words, now } = useBinder();
  const store = keeper.store;
  const { browse } = state;
  const screen = top(state);

  const allRead = useLoaded(() => readLists(store, person, true), [store, person, version], [] as ListSummary[]);
  const all = allRead.value;
  const lists = useMemo(() => (browse.archivedLists ? all : all.filter((l) => !l.archived)), [all, browse.archivedLists]);
  const empty = all.length === 0;
  const listId = browse.list && lists.some((l) => l.id === browse.list) ? browse.list : (lists[0]?.id ?? null);
  const view = lists.find((l) => l.id === listId)?.view ?? null;

  const { window, column, selected, scrolled, heldNews, toKeep } = useListWindow(browse, listId, view, version, layout);

  const templates = useMemo(() => store.templates(words.lang), [store, words.lang]);

  const registered = useLoaded(() => store.sides(), [store, version], [] as Side[]).value;
  const recordId = screen?.kind === 'record' ? screen.id : null;
  const recordRead = useLoaded(() => (recordId === null ? null : readRecord(store, person, recordId)), [store, person, version, recordId], null);
  // The record read for another record is not shown for this one.
  const record = recordRead.value && (!recordRead.value.ok || recordRead.value.value.record.id === recordId) ? recordRead.value : null;
  // Names from the folders and those registered first (people know agents by those), then whoever the record shows acting.
  const nameOf = useMemo(() => namesFrom([
    ...folders.map((f) => ({ id: f.agent, name: f.name })),
    ...registered.map((s) => ({ id: s.agent, name: s.name })),
    person,
    ...(record?.ok ? peopleOf(record.value) : []),
  ]), [folders, registered, person, record]);
  const lines = useMemo(() => {
    if (!record?.ok) return [];
    const takeAway = keysFor('release', 'record').map((k) => keyLabel(k, words)).join('/');
    return recordLines(record.value, words, now(), layout.columns - 2, takeAway, nameOf);
  }, [record, words, now, layout.columns, nameOf]);

  // In a record opened, the cursor holds a note or an attached thing: lines coming or going above it move it with them.
  const recordScreen = screen?.kind === 'record' ? screen : null;
  const recordCursor = useMemo((): Cursor | null => {
    if (!recordScreen) return null;
    const c = recordScreen.cursor;
    const held = recordScreen.held;
    if (!held || partKey(lines[c.at]?.part) === held) return c;
    const at = lines.findIndex((l) => partKey(l.part) === held);
    return at < 0 ? c : { at, scroll: Math.max(0, c.scroll + at - c.at) };
  }, [recordScreen, lines]);

  const briefShown = screen?.kind === 'brief' ? screen : null;
  const brief = useMemo(() => {
    if (!briefShown) return [];
    const seen = keysFor('briefSeen', 'brief').map((k) => keyLabel(k, words)).join('/');
    const older = briefShown.more ? Math.max(0, (briefShown.counts?.total ?? 0) - briefShown.items.length) : 0;
    return briefLines(briefShown.items, older, words, layout.columns - 2, seen);
  }, [briefShown?.items, briefShown?.more, briefShown?.counts, words, layout.columns]);

  const searchText = screen?.kind === 'search' ? screen.text : null;
  const searchFilters = screen?.kind === 'search' ? screen.filters : null;
  const found = useLoaded(
    async () => {
      if (searchText === null || !searchFilters) return null;
      // One more than is shown: whether there were more is what says the matches were cut.
      const read = await readSearch(store, person, searchText, searchFilters, SEARCH_SHOWN + 1);
      const cut = read.ok && read.value.length > SEARCH_SHOWN;
      return { for: searchText, cut, read: read.ok && cut ? { ok: true as const, value: read.value.slice(0, SEARCH_SHOWN) } : read };
    },
    [store, person, version, searchText, searchFilters],
    null,
  ).value;
  const search = found?.read ?? null;
  const searched = found ? { for: found.for, cut: found.cut } : null;

  const helpFrom = screen?.kind === 'help' ? screen.context : null;
  const help = useMemo(() => (helpFrom
    ? helpLines(helpFrom, words).flatMap((line) => wrap(line.text, layout.columns - 1, layout.columns - 19).map((text, i) => ({ ...line, text: i ? `${' '.repeat(18)}${text}` : text })))
    : []), [helpFrom, words, layout.columns]);

  const managedId = screen?.kind === 'grant' || screen?.kind === 'list-editor' ? screen.list : null;
  const managedRead = useLoaded(async () => {
    if (!managedId) return null;
    try {
      return { list: await store.list(managedId, person) };
    } catch {
      return null;
    }
  }, [store, person, version, managedId], null);
  const managed = managedRead.value && managedRead.value.list.id === managedId ? managedRead.value : null;
  const agents = useMemo(() => (managed ? agentRows(managed.list, folders, registered) : []), [managed, folders, registered]);
  const sides = useMemo(() => sideRows(folders, registered).map((r) => ({ ...r, ...exposureOf(r.dir) })), [folders, registered]);
  const editor = useMemo(() => (managed ? editorRows(managed.list) : []), [managed]);

  const context = contextOf(state, empty);
  const base = { empty, lists: lists.map((l) => l.id), list: listId, view, listsPage: layout.listsPage };
  let facts: Facts;
  if (screen && !state.dialog) {
    const rows = screen.kind === 'record' ? lines.length
      : screen.kind === 'brief' ? brief.length
      : screen.kind === 'search' ? (search?.ok ? search.value.length : 0)
        : screen.kind === 'help' ? help.length
          : screen.kind === 'grant' ? agents.length
            : screen.kind === 'sides' ? sides.length
              : editor.length;
    facts = { ...base, columns: [], rows, page: pageOf(screen.kind, layout) };
  } else if (context === 'welcome') {
    facts = { ...base, columns: [], rows: templates.length, page: templates.length };
  } else if (window?.ok && window.value.kind === 'board') {
    facts = { ...base, columns: window.value.columns.map((c) => ({ state: c.state.id, count: c.count })), rows: 0, page: layout.cardPage };
  } else if (window?.ok && window.value.kind === 'table') {
    facts = { ...base, columns: [], rows: window.value.total, page: layout.tablePage };
  } else {
    facts = { ...base, columns: [], rows: 0, page: 1 };
  }

  const hiddenLists = browse.archivedLists ? 0 : all.length - lists.length;
  const ready = allRead.ready;
  return { lists, hiddenLists, empty, listId, window, column, selected, heldNews, toKeep, recordCursor, templates, record, lines, brief, search, searched, help, managed, agents, sides, editor, facts, nameOf, scrolled, ready };
}
