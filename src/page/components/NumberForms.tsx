/// <reference lib="dom" />
/**
 * A form that takes a record's number, as the screen's does: a record to open by its number (`#`
 * or `:`, from anywhere). What a record needs is picked in NeedsPicker.tsx. Numbers are text
 * typed, never HTML.
 */
import { useState } from 'react';
import { numberTyped } from '../../person/form.js';
import { usePage } from '../page-context.js';

function NumberForm({ id, title, label, hint, start, onSubmit, onClose }: { id: string; title: string; label: string; hint: string; start: string; onSubmit(text: string): void; onClose(): void }) {
  const { pw } = usePage();
  const [text, setText] = useState(start);
  return (
    <form onSubmit={(e) => {
      e.preventDefault();
      onSubmit(text);
    }}>
      <h2>{title}</h2>
      <div className="form-row">
        <label htmlFor={id}>{label}</label>
        <input id={id} type="text" autoFocus value={text} aria-describedby={`${id}-hint`} autoComplete="off" onChange={(e) => setText(e.target.value)} />
        <small id={`${id}-hint`}>{hint}</small>
      </div>
      <div className="buttons">
        <button type="submit">{pw.confirm}</button>
        <button type="button" onClick={onClose}>{pw.cancel}</button>
      </div>
    </form>
  );
}

/** A record opened by its number, from wherever the person was; one out of reach says so in its panel. */
export function GoToForm({ onClose }: { onClose(): void }) {
  const { words, dispatch } = usePage();
  const { label, hint } = words.arg('get', 'id');
  return (
    <NumberForm id="go-to-id" title={words.dialog.goTo} label={label} hint={hint} start="" onClose={onClose}
      onSubmit={(text) => {
        const id = numberTyped(text);
        if (id === null) {
          dispatch({ type: 'say', text: words.say.notANumber(text.slice(0, 40)), tone: 'warn' });
          return;
        }
        onClose();
        dispatch({ type: 'panel', panel: { kind: 'record', id } });
      }} />
  );
}
