/// <reference lib="dom" />
/**
 * The open list: a board (a column per state, cards dragged from one to another with HTML5
 * drag and drop, or moved by the screen's keys) or a table, under a head that says its filters
 * (one state, only mine, archived, words) and sets them. A card or a row is a button that opens
 * the record; the cursor's card (the record selected, held by its id) has the focus, so a screen reader follows the keys. Titles are
 * text, never HTML.
 */
import { useState, type DragEvent } from 'react';
import type { Moved, RecordSummary } from '../../store/index.js';
import type { Command } from '../../person/keymap.js';
import { SEARCH_MATCHES, type OpenList } from '../list-page.js';
import type { Where } from '../page-state.js';
import { NO_FILTERS } from '../../person/screen-state.js';
import { usePage } from '../page-context.js';
import { BoardEdges } from './BoardEdges.js';
import { Card, DRAG_TYPE, MARK_TYPE } from './Card.js';
import { RecordsTable } from './RecordsTable.js';
import { StateTabs, useStateTab } from './StateTabs.js';

/** The filters in force, in the screen's words (its header says the same), and how to clear them. */
function Filters({ open }: { open: OpenList }) {
  const { words, pw, state, dispatch } = usePage();
  const { filters } = state;
  const list = open.page!.list;
  const shown = words.view.filters(filters.state ? list.states.find((s) => s.id === filters.state)?.name ?? filters.state : null, filters.mine, filters.archived);
  const text = filters.text ? `${words.filter.shown(filters.text)}${open.capped ? ` (${words.filter.capped(SEARCH_MATCHES)})` : ''}` : '';
  const said = [shown, text].filter(Boolean).join(' · ');
  if (!said) return null;
  return (
    <p className="filters">
      <span>{pw.filteredBy(said)}</span>{' '}
      <button type="button" onClick={() => dispatch({ type: 'filters', where: 'list', patch: NO_FILTERS })}>{pw.clearFilters}</button>
    </p>
  );
}

/** `rows`: a table's records in the order its header asked, as the keys go over them. */
export function ListView({ open, table, rows, onAct }: { open: OpenList; table: boolean; rows: readonly RecordSummary[]; onAct(command: Command, where?: Where): boolean }) {
  const { words, pw, state, act, follow } = usePage();
  const page = open.page!;
  const list = page.list;
  const total = open.columns.reduce((n, c) => n + c.count, 0);
  const tabs = useStateTab(list.id, open.columns);
  // On a phone the rarer tools wait behind "More", so that the tools take one row above the tabs.
  const [more, setMore] = useState(false);
  const tool = (command: Command, label: string, key: string, options: { pressed?: boolean; rare?: boolean } = {}) => (
    <button type="button" onClick={() => onAct(command, 'list')} aria-keyshortcuts={key} {...(options.rare ? { className: 'rare' } : {})}
      {...(options.pressed !== undefined ? { 'aria-pressed': options.pressed } : {})}>{label}</button>
  );
  const drop = (stateId: string) => (e: DragEvent) => {
    const id = Number(e.dataTransfer.getData(DRAG_TYPE));
    const seen = e.dataTransfer.getData(MARK_TYPE);
    e.preventDefault();
    (e.currentTarget as HTMLElement).classList.remove('over');
    const to = list.states.find((s) => s.id === stateId);
    if (id > 0 && to) follow(id, to.id);
    if (id > 0 && to) void act<Moved>('move', { id, state: to.id, ...(seen ? { seen } : {}) }, (d) => (d.stayed ? words.done.alreadyIn : words.done.moved)(id, to.name));
  };
  return (
    <>
      <div className={`list-head${more ? ' more-open' : ''}`}>
        <h2>
          {list.title} <span className="count">{words.view.count(total)}</span>
          {list.archived && <span className="archived-mark"> · {words.lists.archivedMark}</span>}
          {state.filters.archived && <span className="archived"> · {words.record.archived}</span>}
        </h2>
        <div className="tools">
          {list.archived && tool('archiveList', pw.restoreList, 'X')}
          {tool('add', words.commands.add, 'n')}
          {tool('editList', words.commands.editList, 'E', { rare: true })}
          {tool('grant', words.commands.grant, 'p', { rare: true })}
        </div>
        <div className="tools" role="group" aria-label={pw.filters}>
          {tool('filterState', words.commands.filterState, 's', { pressed: state.filters.state !== null, rare: true })}
          {tool('filterMine', words.commands.filterMine, 'M', { pressed: state.filters.mine })}
          {tool('filterArchived', words.commands.filterArchived, 'A', { pressed: state.filters.archived, rare: true })}
          {tool('filterText', words.commands.filterText, 'f', { pressed: state.filters.text !== '', rare: true })}
        </div>
        <button type="button" className="phone-only more-tools" aria-expanded={more} onClick={() => setMore(!more)}>{pw.moreTools}</button>
      </div>
      <Filters open={open} />
      {!table && <p className="hint drag">{pw.dragHint}</p>}
      {!table && <StateTabs columns={open.columns} shown={tabs.shown} onPick={tabs.setTab} />}
      {table ? (
        <RecordsTable list={list} rows={rows} />
      ) : (
        <BoardEdges>{(ref) => (
          <div ref={ref} className="board" role="region" tabIndex={0} aria-label={`${pw.board}: ${list.title}`} {...tabs.swipe}>
            {open.columns.map((c, column) => (
              <section
                key={c.state.id}
                id={`column-${c.state.id}`}
                className={`column${column === tabs.shown ? ' shown' : ''}`}
                aria-labelledby={`state-${c.state.id}`}
                data-state={c.state.id}
                onDragOver={(e) => {
                  if (e.dataTransfer.types.includes(DRAG_TYPE)) {
                    e.preventDefault();
                    e.currentTarget.classList.add('over');
                  }
                }}
                onDragLeave={(e) => e.currentTarget.classList.remove('over')}
                onDrop={drop(c.state.id)}
              >
                <h3 id={`state-${c.state.id}`}>
                  {c.state.name} <span className="count">{c.count}</span>{c.state.gate && <span className="gate"> · {words.view.gate}</span>}
                </h3>
                <ul>
                  {c.records.map((r, row) => (
                    <li key={r.id}><Card record={r} cursor={state.held?.id === r.id} column={column} row={row} /></li>
                  ))}
                </ul>
                {c.more > 0 && <button type="button" className="more" onClick={() => open.more(c.state.id)}>{pw.more(Math.min(50, c.more))}</button>}
                {c.records.length === 0 && <p className="empty">{words.view.empty}</p>}
              </section>
            ))}
          </div>
        )}</BoardEdges>
      )}
      {table && open.columns.some((c) => c.more > 0) && (
        <p>{open.columns.filter((c) => c.more > 0).map((c) => (
          <button key={c.state.id} type="button" className="more" onClick={() => open.more(c.state.id)}>{c.state.name}: {pw.more(Math.min(50, c.more))}</button>
        ))}</p>
      )}
    </>
  );
}
