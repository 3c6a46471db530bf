/// <reference lib="dom" />
/**
 * Search across every list, live as one types (the store's search, 50 matches at most): ↓ goes to
 * the matches, ↑ ↓ over them, Enter opens one; `s` one state, `M` only mine, `A` the archived ones
 * too, as the screen's search has them. The row selected holds its record through each new read.
 * Titles and snippets are shown as text.
 */
import { useEffect, useRef, useState } from 'react';
import type { RecordView, SearchHit } from '../../store/index.js';
import type { Filters } from '../../person/screen-state.js';
import { call } from '../api.js';
import { usePage, usePanelKeys, useRead } from '../page-context.js';
import { marked } from '../marked.js';
import { sentence } from '../page-words.js';
import { useHeldPart } from '../use-held-part.js';
import { Row } from './Row.js';

/** The search panel's own number for its held row: no record's. */
const SEARCH_ROWS = -1;

/** The hits the person owns, asked record by record (a hit says not whose it is), while `M` is on. */
function useMine(hits: readonly SearchHit[], on: boolean, person: string): Set<number> | null {
  const [mine, setMine] = useState<Set<number> | null>(null);
  const key = on ? hits.map((h) => h.id).join(',') : null;
  useEffect(() => {
    if (key === null) {
      setMine(null);
      return undefined;
    }
    let current = true;
    const ids = key ? key.split(',').map(Number) : [];
    void Promise.all(ids.map((id) => call<RecordView>('get', { id, notes: 0, history: 0 }))).then((views) => {
      if (current) setMine(new Set(views.flatMap((v) => (v.ok && v.data?.record.owners.includes(person) ? [v.data.record.id] : []))));
    });
    return () => {
      current = false;
    };
  }, [key, person]);
  return mine;
}

export function SearchPanel({ filters }: { filters: Filters }) {
  const { words, pw, dispatch, state, person } = usePage();
  const [text, setText] = useState('');
  const [asked, setAsked] = useState('');
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const t = setTimeout(() => setAsked(text.trim()), 200);
    return () => clearTimeout(t);
  }, [text]);
  const read = useRead<SearchHit[]>('search', asked ? { text: asked, archived: filters.archived } : null);
  const found = read.answer?.data ?? [];
  const mine = useMine(found, filters.mine, person.id);
  const hits = found.filter((h) => (!filters.state || h.stateName === filters.state) && (!mine || mine.has(h.id)));
  const open = (id: number) => dispatch({ type: 'panel', panel: { kind: 'record', id } });
  const pickState = () => {
    const names = [...new Set(found.map((h) => h.stateName))];
    dispatch({ type: 'dialog', dialog: { kind: 'filter-state', where: 'search', at: filters.state ?? '', choices: [{ value: '', label: words.view.allStates }, ...names.map((n) => ({ value: n, label: n }))] } });
  };
  // The row selected holds its record: matches arriving or sorted anew move the rows, not it.
  useHeldPart(SEARCH_ROWS, asked && read.answer?.ok ? hits.map((h) => `record:${h.id}`) : null, false);
  usePanelKeys(hits.length, (command) => {
    switch (command) {
      case 'open': {
        const hit = hits[state.panelAt];
        if (hit) open(hit.id);
        return hit !== undefined;
      }
      case 'filterState':
        pickState();
        return true;
      default: return false;
    }
  });
  const said = words.view.filters(filters.state, filters.mine, filters.archived);
  const tool = (command: 'filterState' | 'filterMine' | 'filterArchived', key: string, pressed: boolean) => (
    <button type="button" aria-pressed={pressed} aria-keyshortcuts={key} onClick={() => {
      if (command === 'filterState') pickState();
      else dispatch({ type: 'filters', where: 'search', patch: command === 'filterMine' ? { mine: !filters.mine } : { archived: !filters.archived } });
    }}>{words.commands[command]}</button>
  );
  return (
    <section aria-labelledby="search-title">
      <h2 id="search-title">{words.search.title}</h2>
      <label>
        <span className="visually-hidden">{sentence(words.search.placeholder)}</span>
        <input type="search" autoFocus value={text} placeholder={words.search.placeholder} onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') dispatch({ type: 'panel', panel: null });
            else if (e.key === 'ArrowDown' && hits.length) {
              e.preventDefault();
              list.current?.querySelector<HTMLElement>('li')?.focus();
            }
          }} />
      </label>
      <div className="tools" role="group" aria-label={pw.filters}>
        {tool('filterState', 's', filters.state !== null)}
        {tool('filterMine', 'M', filters.mine)}
        {tool('filterArchived', 'A', filters.archived)}
      </div>
      {said && (
        <p className="filters">
          <span>{pw.filteredBy(said)}</span>{' '}
          <button type="button" onClick={() => dispatch({ type: 'filters', where: 'search', patch: { state: null, mine: false, archived: false } })}>{pw.clearFilters}</button>
        </p>
      )}
      {!asked ? <p>{words.search.typeToSearch}</p> : read.answer && !read.answer.ok ? <p className="warn">{read.answer.text}</p> : (
        <>
          <p role="status">{hits.length ? words.search.results(hits.length) : words.search.noMatch}</p>
          <ul className="hits" ref={list}>
            {hits.map((h, at) => (
              <Row key={h.id} at={at}>
                <button type="button" onClick={() => open(h.id)}>
                  #{h.id} {h.title} <span className="meta">({h.listTitle}, {h.stateName}{h.archived ? `, ${words.record.archived}` : ''})</span>
                </button>
                {h.snippet && <p className="snippet">{marked(h.snippet, asked)}</p>}
              </Row>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
