/// <reference lib="dom" />
/**
 * Editing a list: its title and view, its states (renamed, put earlier or later, a gate or not,
 * removed, added), its fields (added as NAME:TYPE, removed), archiving it, and deleting it (after
 * typing its title). Each change is one `edit-list` (or `archive-list`, `delete-list`) of the
 * catalog, as the person.
 */
import { useState, type FormEvent } from 'react';
import type { List, ListSummary } from '../../store/types.js';
import { usePage, useRead } from '../page-context.js';

function OneField({ label, initial, button, onSave }: { label: string; initial: string; button: string; onSave(value: string): Promise<boolean> }) {
  const [value, setValue] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) void onSave(value.trim()).then((ok) => { if (ok && !initial) setValue(''); });
  };
  return (
    <form className="one-field" onSubmit={submit}>
      <label>{label} <input type="text" value={value} onChange={(e) => setValue(e.target.value)} /></label>
      <button type="submit">{button}</button>
    </form>
  );
}

export function ListEditor({ list }: { list: List }) {
  const { words, pw, act, dispatch } = usePage();
  const le = words.listEditor;
  const records = useRead<ListSummary[]>('lists', {}).answer?.data?.find((l) => l.id === list.id)?.count ?? 0;
  const edit = async (args: Record<string, unknown>): Promise<boolean> =>
    (await act<List>('edit-list', { list: list.id, ...args }, (l) => words.done.listChanged(l.title))).ok;
  return (
    <section aria-labelledby="editor-title">
      <h2 id="editor-title">{le.title(list.title)}</h2>
      <OneField key={`title-${list.title}`} label={le.titleRow} initial={list.title} button={pw.save} onSave={(title) => edit({ title })} />
      <fieldset className="view">
        <legend>{le.viewRow}</legend>
        {(['board', 'table'] as const).map((v) => (
          <label key={v} className="choice">
            <input type="radio" name="view" checked={list.view === v} onChange={() => void edit({ view: v })} /> {le.views[v]}
          </label>
        ))}
      </fieldset>
      <h3>{le.states}</h3>
      <ul className="states">
        {list.states.map((s, at) => (
          <li key={s.id}>
            <OneField key={`${s.id}-${s.name}`} label={`${le.states} ${at + 1}`} initial={s.name} button={words.commands.rowRename} onSave={(name) => edit({ renameState: [`${s.id}=${name}`] })} />
            <label className="choice">
              <input type="checkbox" checked={s.gate} onChange={() => void edit({ [s.gate ? 'ungate' : 'gate']: [s.id] })} /> {le.gate}
            </label>
            <button type="button" disabled={at === 0} onClick={() => void edit({ moveState: [`${s.id}=${at}`] })}>{words.commands.rowEarlier} <span className="visually-hidden">{s.name}</span></button>
            <button type="button" disabled={at === list.states.length - 1} onClick={() => void edit({ moveState: [`${s.id}=${at + 2}`] })}>{words.commands.rowLater} <span className="visually-hidden">{s.name}</span></button>
            <button type="button" onClick={() => { if (confirm(words.dialog.removeState(s.name))) void edit({ removeState: [s.id] }); }}>{words.commands.rowRemove} <span className="visually-hidden">{s.name}</span></button>
          </li>
        ))}
      </ul>
      <OneField label={le.newState} initial="" button={words.commands.stateAdd} onSave={(name) => edit({ addState: [name] })} />
      <h3>{le.fields}</h3>
      <ul className="fields">
        {list.fields.map((f) => (
          <li key={f.id}>
            {f.name} <span className="meta">({f.type}{f.choices ? `: ${f.choices.join(' | ')}` : ''})</span>{' '}
            <button type="button" onClick={() => { if (confirm(words.dialog.removeField(f.name))) void edit({ removeField: [f.id] }); }}>{words.commands.rowRemove} <span className="visually-hidden">{f.name}</span></button>
          </li>
        ))}
      </ul>
      <OneField label={`${le.newField} (${le.fieldHint})`} initial="" button={words.commands.fieldAdd} onSave={(given) => edit({ addField: [given] })} />
      <h3>{words.op('archive-list').title}</h3>
      <button type="button" onClick={() => void act<List>('archive-list', { list: list.id, ...(list.archived ? { restore: true } : {}) },
        (l) => (l.archived ? words.done.listArchived(l.title) : words.done.listRestored(l.title)))}>{list.archived ? pw.restoreList : pw.archiveList}</button>{' '}
      <button type="button" className="danger" onClick={() => dispatch({ type: 'dialog', dialog: { kind: 'typed', op: 'delete-list', list: list.id, title: list.title, text: words.dialog.deleteList(list.title, records) } })}>{pw.deleteList}</button>
    </section>
  );
}
