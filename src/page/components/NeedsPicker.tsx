/// <reference lib="dom" />
/**
 * What a record needs (`n`), picked: the numbers it needs now, as its panel showed them, to add
 * to or erase as on the screen (numbers added are needs made, numbers erased needs taken away),
 * and records found by their words across the lists, each a row marked needed or not (Space marks
 * it; ↑ ↓ or j k go over the rows, ↓ from the words to the rows). The row under the cursor holds
 * its record: a match arriving above while the picker is open moves the rows, never the choice.
 * Titles are text, never HTML.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchHit } from '../../store/index.js';
import { needsChanges } from '../../person/form.js';
import { commandFor } from '../../person/keymap.js';
import { keyPress } from '../keys.js';
import { usePage, useRead } from '../page-context.js';
import type { Dialog } from '../page-state.js';
import { useHeldRow } from '../use-held-row.js';

const numbersIn = (text: string): number[] =>
  text.split(/[\s,]+/).map((w) => Number(w.replace(/^#/, ''))).filter((n) => Number.isInteger(n) && n > 0);

/** The numbers typed, with `id` added, or taken out when it was there. */
function toggled(text: string, id: number): string {
  const now = numbersIn(text);
  return (now.includes(id) ? now.filter((n) => n !== id) : [...now, id]).join(' ');
}

/** Records found by their words (the store's search, as the search panel asks it), but the record itself. */
function useFound(words: string, id: number): { hits: SearchHit[]; asked: string; problem: string | null } {
  const [asked, setAsked] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setAsked(words.trim()), 200);
    return () => clearTimeout(t);
  }, [words]);
  const read = useRead<SearchHit[]>('search', asked ? { text: asked } : null);
  const answer = read.answer;
  return { hits: (answer?.data ?? []).filter((h) => h.id !== id), asked, problem: answer && !answer.ok ? answer.text : null };
}

/** Needs added, then needs taken away: the form stays open on the first refusal, its sentence said. */
export function NeedsForm({ dialog, onClose }: { dialog: Extract<Dialog, { kind: 'needs' }>; onClose(): void }) {
  const { words, pw, act, lang } = usePage();
  const { label, hint } = words.arg('needs', 'others');
  const was = dialog.was.join(' ');
  const [text, setText] = useState(was);
  const [find, setFind] = useState('');
  const { hits, asked, problem } = useFound(find, dialog.id);
  const cursor = useHeldRow(hits.map((h) => h.id));
  const rows = useRef<HTMLUListElement>(null);
  const finder = useRef<HTMLInputElement>(null);
  const needed = new Set(numbersIn(text));
  const goTo = (at: number) => {
    if (at < 0) {
      finder.current?.focus();
      return;
    }
    const to = Math.min(at, hits.length - 1);
    cursor.set(to);
    rows.current?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')[to]?.focus();
  };
  const onRowsKey = (e: KeyboardEvent) => {
    const command = commandFor('pick', keyPress(e), lang);
    if (command !== 'up' && command !== 'down') return;
    e.preventDefault();
    goTo(cursor.at + (command === 'down' ? 1 : -1));
  };
  return (
    <form onSubmit={(e) => {
      e.preventDefault();
      void (async () => {
        for (const one of needsChanges(dialog.id, was, text)) if (!(await act(one.op, one.args)).ok) return;
        onClose();
      })();
    }}>
      <h2>{`${words.op('needs').title} #${dialog.id}`}</h2>
      <div className="form-row">
        <label htmlFor="needs-others">{label}</label>
        <input id="needs-others" type="text" autoFocus value={text} aria-describedby="needs-others-hint" autoComplete="off" onChange={(e) => setText(e.target.value)} />
        <small id="needs-others-hint">{hint}</small>
      </div>
      <div className="form-row">
        <label htmlFor="needs-find">{pw.needsFind.label}</label>
        <input id="needs-find" ref={finder} type="search" value={find} aria-describedby="needs-find-hint" autoComplete="off" onChange={(e) => setFind(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'ArrowDown' || !hits.length) return;
            e.preventDefault();
            goTo(Math.max(0, cursor.at));
          }} />
        <small id="needs-find-hint">{pw.needsFind.hint}</small>
      </div>
      {problem !== null ? <p className="warn">{problem}</p> : asked && <p role="status">{hits.length ? words.search.results(hits.length) : words.search.noMatch}</p>}
      {hits.length > 0 && (
        <ul className="pick-records" ref={rows} onKeyDown={onRowsKey}>
          {hits.map((h, at) => (
            <li key={h.id} data-record={h.id} className={at === cursor.at ? 'row cursor' : 'row'} aria-current={at === cursor.at || undefined}>
              <label>
                <input type="checkbox" checked={needed.has(h.id)} onChange={() => setText((now) => toggled(now, h.id))} onFocus={() => cursor.set(at)} />
                {' '}#{h.id} {h.title} <span className="meta">({h.listTitle}, {h.stateName})</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <div className="buttons">
        <button type="submit">{pw.confirm}</button>
        <button type="button" onClick={onClose}>{pw.cancel}</button>
      </div>
    </form>
  );
}
