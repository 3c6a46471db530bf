/**
 * The lists, at the left: each with its count and how many wait for approval, the open one
 * marked, and, when asked (`A`), the archived ones among them, marked so. A list opens on a click
 * or on Enter (the screen's keys move the cursor here too).
 */
import type { ListSummary } from '../../store/index.js';
import type { Command } from '../../person/keymap.js';
import { usePage } from '../page-context.js';

export function ListsNav({ lists, hidden, onAct }: { lists: ListSummary[]; hidden: number; onAct(command: Command): boolean }) {
  const { words, pw, state, dispatch } = usePage();
  return (
    <nav id="lists-nav" className="lists" aria-labelledby="lists-title">
      <h2 id="lists-title">{state.archivedLists ? words.lists.archivedTitle : words.lists.title}</h2>
      {lists.length === 0 && <p>{hidden > 0 ? words.lists.allArchived(hidden, 'A') : words.lists.none}</p>}
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
              {l.archived && <span className="archived-mark">{words.lists.archivedMark}</span>}
              {l.waiting > 0 && <span className="waiting">●{l.waiting} {words.lists.waiting(l.waiting)}</span>}
            </button>
          </li>
        ))}
      </ul>
      <div className="tools">
        <button type="button" onClick={() => dispatch({ type: 'panel', panel: { kind: 'new-list' } })} aria-keyshortcuts="L">{pw.newList}</button>
        <button type="button" aria-pressed={state.archivedLists} onClick={() => onAct('archivedLists')} aria-keyshortcuts="A">{words.commands.archivedLists}</button>
      </div>
    </nav>
  );
}
