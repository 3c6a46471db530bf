/**
 * The lists, at the left: each with its count and how many wait for approval; the open one
 * marked. A list opens on a click or on Enter (the screen's keys move the cursor here too).
 */
import type { ListSummary } from '../../store/types.js';
import { usePage } from '../page-context.js';

export function ListsNav({ lists }: { lists: ListSummary[] }) {
  const { words, pw, state, dispatch } = usePage();
  return (
    <nav className="lists" aria-labelledby="lists-title">
      <h2 id="lists-title">{words.lists.title}</h2>
      {lists.length === 0 && <p>{words.lists.none}</p>}
      <ul>
        {lists.map((l, at) => (
          <li key={l.id}>
            <button
              type="button"
              className={`list-row${state.list === l.id ? ' open' : ''}${state.focus === 'lists' && state.listAt === at ? ' cursor' : ''}`}
              aria-current={state.list === l.id ? 'page' : undefined}
              onClick={() => dispatch({ type: 'open-list', list: l.id, at })}
            >
              <span className="list-title">{l.title}</span>
              <span className="count">{words.view.count(l.count)}</span>
              {l.waiting > 0 && <span className="waiting">●{l.waiting} {words.lists.waiting(l.waiting)}</span>}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => dispatch({ type: 'panel', panel: { kind: 'new-list' } })} aria-keyshortcuts="L">{pw.newList}</button>
    </nav>
  );
}
