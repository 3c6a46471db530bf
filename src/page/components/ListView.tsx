/// <reference lib="dom" />
/**
 * The open list: a board (a column per state, cards dragged from one to another with HTML5
 * drag and drop, or moved by the screen's keys) or a table, under a head that says its filters
 * (one state, only mine, archived, words) and sets them. A card or a row is a button that opens
 * the record; the cursor's card (the record selected, held by its id) has the focus, so a screen reader follows the keys. Titles are
 * text, never HTML.
 */
import { useEffect, useRef, type DragEvent } from 'react';
import { approvalMark } from '../../store/light.js';
import type { Moved, RecordSummary } from '../../store/index.js';
import type { Command } from '../../person/keymap.js';
import { claimMark, dueStatus } from '../../person/format.js';
import { ownerNames } from '../../person/names.js';
import { SEARCH_MATCHES, type OpenList } from '../list-page.js';
import type { Where } from '../page-state.js';
import { NO_FILTERS } from '../../person/screen-state.js';
import { usePage } from '../page-context.js';
import { StateTabs, useStateTab } from './StateTabs.js';

const DRAG_TYPE = 'application/x-binder-record';
/** The approval mark of the card as it was shown when dragged: a drop past the gate approves that, and is refused if the record says otherwise now. */
const MARK_TYPE = 'application/x-binder-mark';

function Card({ record, cursor, column, row }: { record: RecordSummary; cursor: boolean; column: number; row: number }) {
  const { words, dispatch, state, nameOf } = usePage();
  const ref = useRef<HTMLButtonElement>(null);
  const focusHere = cursor && state.focus === 'records' && !state.panel && !state.dialog;
  useEffect(() => {
    if (focusHere && document.activeElement !== ref.current && (document.activeElement === document.body || document.activeElement?.closest('.board, .table'))) ref.current?.focus();
  }, [focusHere]);
  const now = Date.now();
  const due = dueStatus(record.due, now);
  return (
    <button
      ref={ref}
      type="button"
      className={`card${cursor ? ' cursor' : ''}`}
      tabIndex={cursor ? 0 : -1}
      draggable
      data-record={record.id}
      onDragStart={(e: DragEvent) => {
        e.dataTransfer.setData(DRAG_TYPE, String(record.id));
        e.dataTransfer.setData(MARK_TYPE, approvalMark(record.title, record.fields));
        e.dataTransfer.setData('text/plain', `#${record.id}`);
        e.dataTransfer.effectAllowed = 'move';
      }}
      onFocus={() => dispatch({ type: 'select', column, row, record: { id: record.id, state: record.state } })}
      onClick={() => dispatch({ type: 'panel', panel: { kind: 'record', id: record.id } })}
    >
      <span className="id">#{record.id}</span> <span className="title">{record.title}</span>
      <span className="marks">
        {record.approved && <span className="approved">✓ {words.view.approved}</span>}
        {record.owners.length > 0 && <span className="owners">{ownerNames(record.owners, nameOf)}</span>}
        {record.due && <span className={due === 'overdue' ? 'overdue' : 'due'}>{due === 'overdue' ? `! ${record.due}` : record.due}</span>}
        {record.lease && <span className="claim">{claimMark(record.lease, words, now)}</span>}
        {record.blocked ? <span className="blocked">{words.view.waitsOn(record.blocked)}</span> : null}
        {record.attached > 0 && <span className="attached">{words.view.attached(record.attached)}</span>}
      </span>
    </button>
  );
}

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

export function ListView({ open, table, onAct }: { open: OpenList; table: boolean; onAct(command: Command, where?: Where): boolean }) {
  const { words, pw, state, act, follow, nameOf } = usePage();
  const page = open.page!;
  const list = page.list;
  const total = open.columns.reduce((n, c) => n + c.count, 0);
  const tabs = useStateTab(list.id, open.columns);
  const tool = (command: Command, label: string, key: string, pressed?: boolean) => (
    <button type="button" onClick={() => onAct(command, 'list')} aria-keyshortcuts={key} {...(pressed !== undefined ? { 'aria-pressed': pressed } : {})}>{label}</button>
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
      <div className="list-head">
        <h2>
          {list.title} <span className="count">{words.view.count(total)}</span>
          {list.archived && <span className="archived-mark"> · {words.lists.archivedMark}</span>}
          {state.filters.archived && <span className="archived"> · {words.record.archived}</span>}
        </h2>
        <div className="tools">
          {list.archived && tool('archiveList', pw.restoreList, 'X')}
          {tool('add', words.commands.add, 'n')}
          {tool('editList', words.commands.editList, 'E')}
          {tool('grant', words.commands.grant, 'p')}
        </div>
        <div className="tools" role="group" aria-label={pw.filters}>
          {tool('filterState', words.commands.filterState, 's', state.filters.state !== null)}
          {tool('filterMine', words.commands.filterMine, 'M', state.filters.mine)}
          {tool('filterArchived', words.commands.filterArchived, 'A', state.filters.archived)}
          {tool('filterText', words.commands.filterText, 'f', state.filters.text !== '')}
        </div>
      </div>
      <Filters open={open} />
      {!table && <p className="hint drag">{pw.dragHint}</p>}
      {!table && <StateTabs columns={open.columns} shown={tabs.shown} onPick={tabs.setTab} />}
      {table ? (
        <table className="table">
          <caption className="visually-hidden">{pw.records(list.title)}</caption>
          <thead>
            <tr>
              <th scope="col">{words.view.columns.title}</th><th scope="col">{words.view.columns.state}</th>
              {list.fields.map((f) => <th key={f.id} scope="col">{f.name}</th>)}
              <th scope="col">{words.view.columns.owners}</th><th scope="col">{words.view.columns.due}</th><th scope="col">{words.view.columns.attached}</th>
              <th scope="col">{words.view.columns.approved}</th><th scope="col">{words.view.columns.claim}</th><th scope="col">{words.view.columns.blocked}</th>
            </tr>
          </thead>
          <tbody>
            {open.columns.flatMap((c) => c.records).map((r, row) => (
              <tr key={r.id} className={state.held?.id === r.id ? 'cursor' : ''}>
                <td><Card record={r} cursor={state.held?.id === r.id} column={0} row={row} /></td>
                <td>{list.states.find((s) => s.id === r.state)?.name ?? r.state}</td>
                {list.fields.map((f) => <td key={f.id}>{r.fields[f.id] ?? ''}</td>)}
                <td>{ownerNames(r.owners, nameOf)}</td>
                <td className="date">{r.due ? (dueStatus(r.due, Date.now()) === 'overdue' ? `! ${r.due}` : r.due) : ''}</td>
                <td>{r.attached || ''}</td>
                <td>{r.approved ? '✓' : ''}</td>
                <td>{r.lease ? claimMark(r.lease, words, Date.now()) : ''}</td>
                <td>{r.blocked ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div className="board" role="region" tabIndex={0} aria-label={`${pw.board}: ${list.title}`} {...tabs.swipe}>
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
      )}
      {table && open.columns.some((c) => c.more > 0) && (
        <p>{open.columns.filter((c) => c.more > 0).map((c) => (
          <button key={c.state.id} type="button" className="more" onClick={() => open.more(c.state.id)}>{c.state.name}: {pw.more(Math.min(50, c.more))}</button>
        ))}</p>
      )}
    </>
  );
}
