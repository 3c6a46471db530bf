/// <reference lib="dom" />
/**
 * A list in table view: a row per record, its number, title, state, fields, owners and due date
 * each a column whose header is a button that sorts the rows by it (a second press the other way;
 * `aria-sort` says which). The rows come sorted (the keys go over them in the order shown); the
 * order is the page's state, kept while the binder changes. Every value is text, never HTML.
 */
import type { List, RecordSummary } from '../../store/index.js';
import { claimMark, dueStatus } from '../../person/format.js';
import { ownerNames } from '../../person/names.js';
import { usePage } from '../page-context.js';
import { ariaSort, type SortKey } from '../table-sort.js';
import { Card } from './Card.js';

function SortHeader({ sortKey, name }: { sortKey: SortKey; name: string }) {
  const { state, dispatch } = usePage();
  return (
    <th scope="col" aria-sort={ariaSort(state.sort, sortKey)}>
      <button type="button" className="sort" onClick={() => dispatch({ type: 'sort', key: sortKey })}>{name}</button>
    </th>
  );
}

export function RecordsTable({ list, rows }: { list: List; rows: readonly RecordSummary[] }) {
  const { words, pw, state, nameOf } = usePage();
  const columns = words.view.columns;
  const now = Date.now();
  return (
    <table className="table">
      <caption className="visually-hidden">{pw.records(list.title)}</caption>
      <thead>
        <tr>
          <SortHeader sortKey="number" name={pw.number} />
          <SortHeader sortKey="title" name={columns.title} />
          <SortHeader sortKey="state" name={columns.state} />
          {list.fields.map((f) => <SortHeader key={f.id} sortKey={`field:${f.id}`} name={f.name} />)}
          <SortHeader sortKey="owners" name={columns.owners} />
          <SortHeader sortKey="due" name={columns.due} />
          <th scope="col">{columns.attached}</th><th scope="col">{columns.approved}</th>
          <th scope="col">{columns.claim}</th><th scope="col">{columns.blocked}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, row) => (
          <tr key={r.id} className={state.held?.id === r.id ? 'cursor' : ''}>
            <td className="number">#{r.id}</td>
            <td><Card record={r} cursor={state.held?.id === r.id} column={0} row={row} numbered={false} /></td>
            <td>{list.states.find((s) => s.id === r.state)?.name ?? r.state}</td>
            {list.fields.map((f) => <td key={f.id}>{r.fields[f.id] ?? ''}</td>)}
            <td>{ownerNames(r.owners, nameOf)}</td>
            <td className="date">{r.due ? (dueStatus(r.due, now) === 'overdue' ? `! ${r.due}` : r.due) : ''}</td>
            <td>{r.attached || ''}</td>
            <td>{r.approved ? '✓' : ''}</td>
            <td>{r.lease ? claimMark(r.lease, words, now) : ''}</td>
            <td>{r.blocked ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
