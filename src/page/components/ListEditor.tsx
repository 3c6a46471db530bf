/// <reference lib="dom" />
/**
 * Editing a list: its title and view, whether a parent waits for its children, its states (renamed, put earlier or later, a gate or not,
 * removed after a question, added), its fields (added as NAME:TYPE, removed after a question),
 * archiving it (offered back with `u`) or restoring it, and deleting it (after typing its title).
 * The screen's keys work on the row under the cursor. Each change is one `edit-list` (or
 * `archive-list`, `delete-list`) of the catalog, as the person.
 */
import { useState, type FormEvent } from 'react';
import type { List, ListSummary } from '../../store/index.js';
import { editorRows } from '../../person/rows.js';
import { sentence } from '../page-words.js';
import { usePage, usePanelKeys, useRead } from '../page-context.js';
import { Row } from './Row.js';

function OneField({ id, label, initial, button, onSave }: { id: string; label: string; initial: string; button: string; onSave(value: string): Promise<boolean> }) {
  const [value, setValue] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) void onSave(value.trim()).then((ok) => { if (ok && !initial) setValue(''); });
  };
  return (
    <form className="one-field" onSubmit={submit}>
      <label htmlFor={id}>{label}</label> <input id={id} type="text" value={value} onChange={(e) => setValue(e.target.value)} />
      <button type="submit">{button}</button>
    </form>
  );
}

const focusField = (id: string): void => {
  const field = document.getElementById(id) as HTMLInputElement | null;
  field?.focus();
  field?.select();
};

export function ListEditor({ list }: { list: List }) {
  const { words, pw, act, dispatch, state } = usePage();
  const le = words.listEditor;
  const records = useRead<ListSummary[]>('lists', { archived: true }).answer?.data?.find((l) => l.id === list.id)?.count ?? 0;
  const edit = async (args: Record<string, unknown>): Promise<boolean> =>
    (await act<List>('edit-list', { list: list.id, ...args }, (l) => words.done.listChanged(l.title))).ok;
  const rows = editorRows(list);
  const stateRow = (id: string) => `state-name-${id}`;
  const toggleView = () => void edit({ view: list.view === 'board' ? 'table' : 'board' });
  const toggleChildren = () => void edit({ childrenFirst: list.childrenFirst ? 'off' : 'on' });
  const childrenFirst = words.arg('edit-list', 'childrenFirst');
  const removeState = (id: string, name: string) =>
    dispatch({ type: 'dialog', dialog: { kind: 'confirm', op: 'edit-list', args: { list: list.id, removeState: [id] }, text: words.dialog.removeState(name) } });
  const removeField = (id: string, name: string) =>
    dispatch({ type: 'dialog', dialog: { kind: 'confirm', op: 'edit-list', args: { list: list.id, removeField: [id] }, text: words.dialog.removeField(name) } });
  const moveState = (id: string, to: number) => void edit({ moveState: [`${id}=${to}`] });
  usePanelKeys(rows.length, (command) => {
    const row = rows[state.panelAt];
    switch (command) {
      case 'listTitle': focusField('editor-title'); return true;
      case 'listView': toggleView(); return true;
      case 'childrenToggle': toggleChildren(); return true;
      case 'stateAdd': focusField('editor-new-state'); return true;
      case 'fieldAdd': focusField('editor-new-field'); return true;
      case 'rowRename':
        if (row?.kind === 'title') focusField('editor-title');
        else if (row?.kind === 'view') toggleView();
        else if (row?.kind === 'children') toggleChildren();
        else if (row?.kind === 'state') focusField(stateRow(row.id));
        return row !== undefined && row.kind !== 'field';
      case 'gateToggle':
        if (row?.kind === 'state') void edit({ [row.gate ? 'ungate' : 'gate']: [row.id] });
        return true;
      case 'rowEarlier':
      case 'rowLater': {
        if (row?.kind !== 'state') return true;
        const to = row.position + (command === 'rowLater' ? 1 : -1);
        if (to < 1 || to > list.states.length) return true;
        moveState(row.id, to);
        // The cursor goes with the state, as on the screen.
        dispatch({ type: 'select-row', at: state.panelAt + (command === 'rowLater' ? 1 : -1) });
        return true;
      }
      case 'rowRemove':
        if (row?.kind === 'state') removeState(row.id, row.name);
        else if (row?.kind === 'field') removeField(row.id, row.name);
        return true;
      default: return false;
    }
  });
  const first = 3;
  return (
    <section aria-labelledby="editor-title-heading">
      <h2 id="editor-title-heading">{le.title(list.title)}</h2>
      <p className="hint">{pw.editorKeys}</p>
      <ul className="editor-rows">
        <Row at={0}>
          <OneField key={`title-${list.title}`} id="editor-title" label={le.titleRow} initial={list.title} button={pw.save} onSave={(title) => edit({ title })} />
        </Row>
        <Row at={1}>
          <fieldset className="view">
            <legend>{le.viewRow}</legend>
            {(['board', 'table'] as const).map((v) => (
              <label key={v} className="choice">
                <input type="radio" name="view" checked={list.view === v} onChange={() => void edit({ view: v })} /> {sentence(le.views[v])}
              </label>
            ))}
          </fieldset>
        </Row>
        <Row at={2}>
          <label className="choice">
            <input type="checkbox" checked={list.childrenFirst === true} onChange={toggleChildren} aria-describedby="editor-children-hint" /> {childrenFirst.label}
          </label>{' '}
          <span id="editor-children-hint" className="hint">{childrenFirst.hint}</span>
        </Row>
      </ul>
      <h3>{le.states}</h3>
      <ul className="states">
        {list.states.map((s, at) => (
          <Row key={s.id} at={first + at}>
            <OneField key={`${s.id}-${s.name}`} id={stateRow(s.id)} label={`${le.states} ${at + 1}`} initial={s.name} button={words.commands.rowRename} onSave={(name) => edit({ renameState: [`${s.id}=${name}`] })} />
            <label className="choice">
              <input type="checkbox" checked={s.gate} onChange={() => void edit({ [s.gate ? 'ungate' : 'gate']: [s.id] })} /> {sentence(le.gate)}
            </label>
            <button type="button" disabled={at === 0} onClick={() => moveState(s.id, at)}>{words.commands.rowEarlier} <span className="visually-hidden">{s.name}</span></button>
            <button type="button" disabled={at === list.states.length - 1} onClick={() => moveState(s.id, at + 2)}>{words.commands.rowLater} <span className="visually-hidden">{s.name}</span></button>
            <button type="button" onClick={() => removeState(s.id, s.name)}>{words.commands.rowRemove} <span className="visually-hidden">{s.name}</span></button>
          </Row>
        ))}
      </ul>
      <OneField id="editor-new-state" label={le.newState} initial="" button={words.commands.stateAdd} onSave={(name) => edit({ addState: [name] })} />
      <h3>{le.fields}</h3>
      <ul className="fields">
        {list.fields.map((f, at) => (
          <Row key={f.id} at={first + list.states.length + at}>
            {f.name} <span className="meta">({f.type}{f.choices ? `: ${f.choices.join(' | ')}` : ''})</span>{' '}
            <button type="button" onClick={() => removeField(f.id, f.name)}>{words.commands.rowRemove} <span className="visually-hidden">{f.name}</span></button>
          </Row>
        ))}
      </ul>
      <OneField id="editor-new-field" label={`${le.newField} (${le.fieldHint})`} initial="" button={words.commands.fieldAdd} onSave={(given) => edit({ addField: [given] })} />
      <h3>{words.op('archive-list').title}</h3>
      <button type="button" onClick={() => void (list.archived
        ? act('archive-list', { list: list.id, restore: true })
        : act('archive-list', { list: list.id }, null, { offer: true }))}>{list.archived ? pw.restoreList : pw.archiveList}</button>{' '}
      <button type="button" className="danger" onClick={() => dispatch({ type: 'dialog', dialog: { kind: 'typed', op: 'delete-list', list: list.id, title: list.title, text: words.dialog.deleteList(list.title, records) } })}>{pw.deleteList}</button>
    </section>
  );
}
