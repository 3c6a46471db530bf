/// <reference lib="dom" />
/**
 * The dialogs in front of the page, each a native modal <dialog> (the browser keeps the focus in
 * it and Esc closes it): a form made from a catalog operation's arguments (its labels and hints
 * the screen's), one's own note rewritten, the words to filter the list by, a state to move to or
 * to show alone (↑ ↓ or j k go over them), a yes or no (`y`, or `o` in French, and `n`, as on the
 * screen), a list's deletion confirmed by typing its title, and the forms of records' numbers
 * (what a record needs, one to open). A new token is shown here once.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { commandFor } from '../../person/keymap.js';
import type { Choice } from '../../person/screen-state.js';
import { keyPress } from '../keys.js';
import { ATTACH_KINDS, operation, type ArgSpec, type OpName } from '../../keeper/operations.js';
import type { List, Moved, RecordSummary, RecordView, TokenMade } from '../../store/index.js';
import type { ArgName } from '../../person/words.js';
import { call } from '../api.js';
import { usePage } from '../page-context.js';
import { sentence, type PageWords } from '../page-words.js';
import type { Dialog } from '../page-state.js';
import { NeedsForm } from './NeedsPicker.js';
import { GoToForm } from './NumberForms.js';

function Modal({ label, children, onClose, onKeyDown }: { label: string; children: ReactNode; onClose(): void; onKeyDown?: (e: KeyboardEvent<HTMLDialogElement>) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    const before = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      if (before && document.contains(before)) before.focus();
    };
  }, []);
  return <dialog ref={ref} aria-label={label} onKeyDown={onKeyDown} onCancel={(e) => { e.preventDefault(); onClose(); }}>{children}</dialog>;
}

const today = (): string => {
  const d = new Date(Date.now() + 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** A form from a catalog operation's arguments: what the screen's forms ask, for the same operation. */
function OpForm({ op, id, list, onClose }: { op: OpName; id?: number; list: List | null; onClose(): void }) {
  const { words, pw, act, follow } = usePage();
  const spec = operation(op)!;
  // A new record starts in the list's first state, chosen in the form where the person sees it.
  const [values, setValues] = useState<Record<string, string>>(() => (op === 'add' && list?.states[0] ? { state: list.states[0].id } : {} as Record<string, string>));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [token, setToken] = useState<TokenMade | null>(null);
  const [ready, setReady] = useState(op !== 'edit');
  // The parent it lies under when the form opened: emptied, the record is taken from under it.
  const [parentBefore, setParentBefore] = useState('');
  useEffect(() => {
    if (op !== 'edit' || id === undefined) return;
    void call<RecordView>('get', { id, notes: 0, history: 0 }).then((a) => {
      const r = a.data?.record;
      if (r) {
        const parent = a.data?.parent ? String(a.data.parent.id) : '';
        setValues({ title: r.title, due: r.due ?? '', owners: r.owners.join(', '), parent });
        setParentBefore(parent);
        setFields({ ...r.fields });
      }
      setReady(true);
    });
  }, [op, id]);
  const shown = Object.entries(spec.args).filter(([name, arg]) => !arg.hidden && !(name === 'list' && op === 'add') && arg.kind !== 'record' && arg.kind !== 'texts');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const args: Record<string, unknown> = {};
    if (op === 'add' && list) args.list = list.id;
    if (id !== undefined) args.id = id;
    for (const [name, arg] of shown) {
      const v = (values[name] ?? '').trim();
      if (arg.kind === 'fields') {
        const given = Object.fromEntries(Object.entries(fields).filter(([, x]) => op === 'edit' || x.trim() !== ''));
        if (Object.keys(given).length) args.fields = given;
      } else if (arg.kind === 'owners') {
        if (v || op === 'edit') args.owners = v ? v.split(',').map((o) => o.trim()).filter(Boolean) : [];
      } else if (arg.kind === 'flag') {
        if (values[name] === 'yes') args[name] = true;
      } else if (op === 'edit' && name === 'parent') {
        if (v !== parentBefore) args.parent = v || 'none';
      } else if (v || (op === 'edit' && arg.kind === 'due')) args[name] = arg.kind === 'due' && !v ? 'none' : v;
    }
    void act<unknown>(op, args, (data) => {
      switch (op) {
        case 'add': { const r = data as RecordSummary; return words.done.added(r.id, list?.states.find((s) => s.id === r.state)?.name ?? r.state); }
        case 'edit': return words.done.changed(id!);
        case 'note': return words.done.noted(id!);
        case 'attach': return words.done.attached(id!);
        case 'token-add': return words.op('token-add').title;
        case 'side-add': { const s = data as { name: string; dir: string }; return words.done.sideAdded(s.name, s.dir); }
        default: return words.op(op).title;
      }
    }).then((answer) => {
      if (!answer.ok) return;
      if (op === 'add' && answer.data) follow((answer.data as RecordSummary).id);
      if (op === 'token-add') setToken(answer.data as TokenMade);
      else onClose();
    });
  };
  const input = (name: string, arg: ArgSpec) => {
    const { label, hint } = words.arg(op, name as ArgName);
    const hintText = sentence(arg.kind === 'due' ? words.dueHint(today()) : (op === 'add' || name === 'parent' ? pw.hints[name as ArgName] : undefined) ?? hint);
    const idOf = `f-${op}-${name}`;
    const common = { id: idOf, 'aria-describedby': `${idOf}-hint`, value: values[name] ?? '', required: arg.required === true };
    const set = (value: string) => setValues((was) => ({ ...was, [name]: value }));
    let control: ReactNode;
    if (arg.kind === 'choice') {
      const choices = arg.choices ?? (name === 'kind' ? ATTACH_KINDS : []);
      control = <select {...common} value={values[name] ?? ''} onChange={(e) => set(e.target.value)}><option value="" />{choices.map((c) => <option key={c} value={c}>{c}</option>)}</select>;
    } else if (name === 'state' && list) {
      control = <select {...common} onChange={(e) => set(e.target.value)}><option value="" />{list.states.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}</select>;
    } else if (arg.kind === 'flag') {
      control = <input id={idOf} type="checkbox" checked={values[name] === 'yes'} onChange={(e) => set(e.target.checked ? 'yes' : '')} />;
    } else if ((op === 'note' && name === 'text') || name === 'note') {
      control = <textarea {...common} rows={4} onChange={(e) => set(e.target.value)} />;
    } else control = <input {...common} type={arg.kind === 'number' ? 'number' : 'text'} onChange={(e) => set(e.target.value)} />;
    return (
      <div key={name} className="form-row">
        <label htmlFor={idOf}>{label}</label>
        {control}
        <small id={`${idOf}-hint`}>{hintText}</small>
      </div>
    );
  };
  if (token) {
    return (
      <div className="token-made">
        <h2>{pw.tokenFor(token.name)}</h2>
        <label htmlFor="token-value">{pw.tokenFor(token.name)}</label>
        <input id="token-value" readOnly value={token.token} onFocus={(e) => e.target.select()} autoFocus />
        <p>{pw.tokenShown}</p>
        <button type="button" onClick={onClose}>{pw.close}</button>
      </div>
    );
  }
  return (
    <form onSubmit={submit}>
      <h2>{words.op(op).title}{id !== undefined ? ` #${id}` : ''}</h2>
      {ready && shown.map(([name, arg]) => (arg.kind === 'fields'
        ? (list?.fields ?? []).map((f) => (
          <div key={f.id} className="form-row">
            <label htmlFor={`field-${f.id}`}>{f.name}</label>
            {f.type === 'choice' && f.choices
              ? <select id={`field-${f.id}`} value={fields[f.id] ?? ''} onChange={(e) => setFields((was) => ({ ...was, [f.id]: e.target.value }))}><option value="" />{f.choices.map((c) => <option key={c} value={c}>{c}</option>)}</select>
              : <input id={`field-${f.id}`} type="text" value={fields[f.id] ?? ''} onChange={(e) => setFields((was) => ({ ...was, [f.id]: e.target.value }))} />}
          </div>
        ))
        : input(name, arg)))}
      <div className="buttons">
        <button type="submit">{submitWord(op, pw)}</button>
        <button type="button" onClick={onClose}>{pw.cancel}</button>
      </div>
    </form>
  );
}

/** What a form's button says it does: adds, makes, saves; never a bare "do it". */
function submitWord(op: OpName, pw: PageWords): string {
  switch (op) {
    case 'add': case 'note': case 'attach': case 'side-add': return pw.add;
    case 'token-add': case 'create-list': return pw.make;
    case 'edit': return pw.save;
    default: return pw.confirm;
  }
}

function Typed({ dialog, onClose }: { dialog: Extract<Dialog, { kind: 'typed' }>; onClose(): void }) {
  const { words, pw, act, dispatch } = usePage();
  const [typed, setTyped] = useState('');
  return (
    <form onSubmit={(e) => {
      e.preventDefault();
      if (typed.trim() !== dialog.title) {
        dispatch({ type: 'say', text: words.say.sameTitle, tone: 'warn' });
        return;
      }
      void act<{ title: string; records: number }>('delete-list', { list: dialog.list }, (d) => words.done.listDeleted(d.title, d.records)).then((a) => {
        if (a.ok) {
          dispatch({ type: 'list-gone' });
          onClose();
        }
      });
    }}>
      <h2>{pw.deleteList}</h2>
      <p>{dialog.text}</p>
      <label htmlFor="typed-title">{words.dialog.typeTitle}</label>
      <input id="typed-title" type="text" autoFocus value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
      <div className="buttons">
        <button type="submit" className="danger">{pw.deleteList}</button>
        <button type="button" onClick={onClose}>{pw.cancel}</button>
      </div>
    </form>
  );
}

/** A note of the person's, rewritten: `edit-note`, its author's alone. */
function EditNote({ dialog, onClose }: { dialog: Extract<Dialog, { kind: 'edit-note' }>; onClose(): void }) {
  const { words, pw, act } = usePage();
  const [text, setText] = useState(dialog.text);
  const { label, hint } = words.arg('edit-note', 'text');
  return (
    <form onSubmit={(e) => {
      e.preventDefault();
      void act('edit-note', { id: dialog.id, note: dialog.note, text: text.trim() }).then((a) => { if (a.ok) onClose(); });
    }}>
      <h2>{words.dialog.editNote} n{dialog.note} (#{dialog.id})</h2>
      <div className="form-row">
        <label htmlFor="edit-note-text">{label}</label>
        <textarea id="edit-note-text" rows={5} autoFocus required value={text} aria-describedby="edit-note-hint" onChange={(e) => setText(e.target.value)} />
        <small id="edit-note-hint">{hint}</small>
      </div>
      <div className="buttons">
        <button type="submit">{pw.save}</button>
        <button type="button" onClick={onClose}>{pw.cancel}</button>
      </div>
    </form>
  );
}

/** The words the open list is filtered by (`f`): the screen's filter form; empty shows every record. */
function FilterText({ dialog, onClose }: { dialog: Extract<Dialog, { kind: 'filter-text' }>; onClose(): void }) {
  const { words, pw, dispatch } = usePage();
  const [text, setText] = useState(dialog.text);
  return (
    <form onSubmit={(e) => {
      e.preventDefault();
      dispatch({ type: 'filters', where: 'list', patch: { text: text.trim() } });
      onClose();
    }}>
      <h2>{words.filter.title}</h2>
      <p>{words.filter.describe}</p>
      <div className="form-row">
        <label htmlFor="filter-text">{words.filter.label}</label>
        <input id="filter-text" type="text" autoFocus value={text} aria-describedby="filter-text-hint" onChange={(e) => setText(e.target.value)} />
        <small id="filter-text-hint">{words.filter.hint}</small>
      </div>
      <div className="buttons">
        <button type="submit">{pw.confirm}</button>
        <button type="button" onClick={onClose}>{pw.cancel}</button>
      </div>
    </form>
  );
}

/** One of a few choices, as buttons: ↑ ↓ (or j k) go over them, Enter or a click picks. */
function Pick({ title, choices, at, onPick, onClose }: { title: string; choices: readonly Choice[]; at: string; onPick(value: string): void; onClose(): void }) {
  const { pw, lang } = usePage();
  const list = useRef<HTMLUListElement>(null);
  const start = Math.max(0, choices.findIndex((c) => c.value === at));
  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    const command = commandFor('pick', keyPress(e), lang);
    if (command !== 'up' && command !== 'down') return;
    e.preventDefault();
    const buttons = [...(list.current?.querySelectorAll('button') ?? [])];
    const now = buttons.indexOf(document.activeElement as HTMLButtonElement);
    buttons[Math.max(0, Math.min(buttons.length - 1, (now < 0 ? start : now) + (command === 'down' ? 1 : -1)))]?.focus();
  };
  return (
    <Modal label={title} onClose={onClose} onKeyDown={onKeyDown}>
      <h2>{title}</h2>
      <ul className="pick" ref={list}>
        {choices.map((c, i) => (
          <li key={c.value}>
            <button type="button" autoFocus={i === start} aria-current={c.value === at || undefined} onClick={() => onPick(c.value)}>{c.label}</button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={onClose}>{pw.cancel}</button>
    </Modal>
  );
}

/** A yes or no: the screen's keys answer it (`y`, `o` in French; `n` or Esc), and so do its buttons. */
function Confirm({ dialog, onClose }: { dialog: Extract<Dialog, { kind: 'confirm' }>; onClose(): void }) {
  const { words, pw, lang, act, state, dispatch } = usePage();
  const yes = () => {
    onClose();
    const done = dialog.op === 'set-role' ? (p: { name: string; role: 'admin' | 'member' }) => pw.people.roleSet(p.name, p.role)
      : dialog.op === 'remove-person' ? (p: { name: string }) => pw.people.removed(p.name)
      : dialog.op === 'approve' ? (r: RecordSummary) => words.done.withdrawn(r.id, dialog.states?.[r.state] ?? r.state) : null;
    void act(dialog.op, dialog.args, done as ((data: unknown) => string) | null).then((a) => {
      const id = dialog.args.id;
      if (a.ok && dialog.op === 'delete' && state.panel?.kind === 'record' && state.panel.id === id) dispatch({ type: 'panel', panel: null });
    });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    const command = commandFor('confirm', keyPress(e), lang);
    if (command === 'yes') yes();
    else if (command === 'cancel' && e.key !== 'Escape') onClose();
    else return;
    e.preventDefault();
  };
  const label = dialog.op === 'delete' ? words.op('delete').title : dialog.op === 'release' ? pw.takeAway : dialog.op === 'approve' ? pw.withdraw
    : dialog.op === 'set-role' ? (dialog.args.role === 'admin' ? pw.people.makeAdmin : pw.people.makeMember) : pw.remove;
  return (
    <Modal label={pw.confirm} onClose={onClose} onKeyDown={onKeyDown}>
      <p>{dialog.text}</p>
      <div className="buttons">
        <button type="button" className="danger" autoFocus onClick={yes} aria-keyshortcuts={lang === 'fr' ? 'y o' : 'y'}>{label} <kbd>{lang === 'fr' ? 'o' : 'y'}</kbd></button>
        <button type="button" onClick={onClose} aria-keyshortcuts="n">{pw.cancel} <kbd>n</kbd></button>
      </div>
    </Modal>
  );
}

export function Dialogs({ list }: { list: List | null }) {
  const { words, pw, state, dispatch, act, follow } = usePage();
  const dialog = state.dialog;
  if (!dialog) return null;
  const close = () => dispatch({ type: 'dialog', dialog: null });
  switch (dialog.kind) {
    case 'form':
      return <Modal label={words.op(dialog.op).title} onClose={close}><OpForm op={dialog.op} {...(dialog.id !== undefined ? { id: dialog.id } : {})} list={list} onClose={close} /></Modal>;
    case 'edit-note':
      return <Modal label={words.dialog.editNote} onClose={close}><EditNote dialog={dialog} onClose={close} /></Modal>;
    case 'filter-text':
      return <Modal label={words.filter.title} onClose={close}><FilterText dialog={dialog} onClose={close} /></Modal>;
    case 'move':
      return (
        <Pick title={words.dialog.pickState} at="" onClose={close}
          choices={(list?.states ?? []).map((s) => ({ value: s.id, label: `${s.name}${s.gate ? ` (${words.view.gate})` : ''}` }))}
          onPick={(to) => {
            const name = list?.states.find((s) => s.id === to)?.name ?? to;
            follow(dialog.id, to);
            void act<Moved>('move', { id: dialog.id, state: to, ...(dialog.seen ? { seen: dialog.seen } : {}) }, (d) => (d.stayed ? words.done.alreadyIn : words.done.moved)(dialog.id, name));
            close();
          }} />
      );
    case 'filter-state':
      return (
        <Pick title={words.dialog.filterState} at={dialog.at} choices={dialog.choices} onClose={close}
          onPick={(value) => {
            dispatch({ type: 'filters', where: dialog.where, patch: { state: value || null } });
            close();
          }} />
      );
    case 'needs':
      return <Modal label={words.op('needs').title} onClose={close}><NeedsForm dialog={dialog} onClose={close} /></Modal>;
    case 'go-to':
      return <Modal label={words.dialog.goTo} onClose={close}><GoToForm onClose={close} /></Modal>;
    case 'confirm':
      return <Confirm dialog={dialog} onClose={close} />;
    case 'typed':
      return <Modal label={pw.deleteList} onClose={close}><Typed dialog={dialog} onClose={close} /></Modal>;
    case 'delete-parent':
      // Deleting nothing comes first, where the browser's modal puts the focus: Enter alone deletes nothing.
      return (
        <Pick title={dialog.text} at="" onClose={close}
          choices={[{ value: '', label: words.dialog.deleteNothing }, { value: 'orphan', label: words.dialog.childrenOrphan }, { value: 'delete', label: words.dialog.childrenDelete }]}
          onPick={(children) => {
            close();
            if (children !== 'orphan' && children !== 'delete') return;
            void act('delete', { id: dialog.id, children }).then((a) => {
              if (a.ok && state.panel?.kind === 'record' && state.panel.id === dialog.id) dispatch({ type: 'panel', panel: null });
            });
          }} />
      );
    default: {
      const never: never = dialog;
      throw new Error(`unknown dialog ${String(never)}`);
    }
  }
}
