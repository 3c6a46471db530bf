/// <reference lib="dom" />
/**
 * A record, whole: its full title, state and approval, fields, owners, due date, claim, what it
 * lies under and what lies under it, what it needs and what needs it, notes, attached things (a
 * link shown with its real address, and a link only when it is http or https), and its history
 * in the screen's words. Its actions are the screen's commands, by button or by key; ↑ ↓ go over
 * its parts as on the screen, and `E`, `T` and Enter act on the one under the cursor (a note of
 * the person's, a thing attached, a record under it or it needs). Every text is shown as text.
 */
import type { NeedLink, RecordView } from '../../store/index.js';
import { claimMark, when } from '../../person/format.js';
import { historyText } from '../../person/history-words.js';
import { namesFrom } from '../../person/names.js';
import type { Command } from '../../person/keymap.js';
import { summaryOf } from '../list-page.js';
import { usePage, usePanelKeys, useRead } from '../page-context.js';
import { useHeldPart } from '../use-held-part.js';
import { Children, ParentFact } from './Family.js';
import { Row } from './Row.js';

type Part =
  | { kind: 'need'; link: NeedLink }
  | { kind: 'child'; link: NeedLink }
  | { kind: 'note'; id: number; by: string; text: string }
  | { kind: 'attached'; id: number };

/** A part as the cursor holds it: the same key whatever its row. */
const keyOf = (part: Part): string => (part.kind === 'need' ? `record:${part.link.id}` : part.kind === 'child' ? `child:${part.link.id}` : `${part.kind}:${part.id}`);

const webAddress = (ref: string): string | null => {
  try {
    const url = new URL(ref);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
};

/** What the record needs done first, or what needs it: each a row, Enter (or a click) opens it. */
function Needs({ id, title, links, from, hidden, open }: { id: string; title: string; links: readonly NeedLink[]; from: number; hidden?: number; open(id: number): void }) {
  const { words } = usePage();
  if (!links.length && !hidden) return null;
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      <ul className="needs">
        {links.map((n, i) => (
          <Row key={n.id} at={from + i}>
            <button type="button" onClick={() => open(n.id)}>#{n.id} {n.title}</button>{' '}
            <span className="meta">· {n.stateName}{n.done ? ` · ${words.record.needDone}` : ''}</span>
          </Row>
        ))}
      </ul>
      {hidden ? <p className="meta">{words.record.hiddenNeeds(hidden)}</p> : null}
    </section>
  );
}

export function RecordPanel({ id, onAct }: { id: number; onAct(command: Command): boolean }) {
  const { words, pw, act, person, state, dispatch, known } = usePage();
  const read = useRead<RecordView>('get', { id, notes: 200, history: 200 });
  const view = read.answer?.data ?? null;
  const needs = view?.needs ?? [];
  const neededBy = view?.neededBy ?? [];
  const children = view?.children ?? [];
  const parts: Part[] = view ? [
    ...children.map((link): Part => ({ kind: 'child', link })),
    ...[...needs, ...neededBy].map((link): Part => ({ kind: 'need', link })),
    ...view.record.notes.map((n): Part => ({ kind: 'note', id: n.id, by: n.by.id, text: n.text })),
    ...view.record.attached.map((a): Part => ({ kind: 'attached', id: a.id })),
  ] : [];
  const openRecord = (other: number) => dispatch({ type: 'panel', panel: { kind: 'record', id: other } });
  const editNote = (note: number, text: string) => dispatch({ type: 'dialog', dialog: { kind: 'edit-note', id, note, text } });
  const detach = (what: number) => void act('detach', { id, what: String(what) }, null, { offer: true });
  const say = (text: string) => dispatch({ type: 'say', text, tone: 'warn' });
  // A read of the record opened before this one is not its parts.
  const keys = view?.record.id === id ? parts.map(keyOf) : null;
  useHeldPart(id, keys);
  const shown = view?.record.id === id ? { record: summaryOf(view), list: view.list, needs: needs.map((n) => n.id) } : undefined;
  usePanelKeys(parts.length, (command) => {
    const part = parts[state.panelAt] ?? null;
    switch (command) {
      case 'open':
        if (part?.kind !== 'need' && part?.kind !== 'child') return false;
        openRecord(part.link.id);
        return true;
      case 'editNote':
        if (part?.kind !== 'note') say(words.say.noNote);
        else if (part.by !== person.id) say(words.say.notYourNote);
        else editNote(part.id, part.text);
        return true;
      case 'detach':
        if (part?.kind !== 'attached') say(words.say.noAttachment);
        else detach(part.id);
        return true;
      default: return false;
    }
  }, { part: keys?.[state.panelAt], shown });
  if (read.answer && !read.answer.ok) return <p className="warn">{read.answer.text}</p>;
  if (!view) return <p>{pw.loading}</p>;
  const { record, list } = view;
  const stateName = (s: string) => list.states.find((x) => x.id === s)?.name ?? s;
  const fieldName = (f: string) => list.fields.find((x) => x.id === f)?.name ?? f;
  const nameOf = namesFrom([...known, ...view.history.map((h) => h.by), ...record.notes.map((n) => n.by), ...record.attached.map((a) => a.by),
    ...(record.approved ? [record.approved.by] : []), ...(record.lease ? [record.lease.by] : [])]);
  const now = Date.now();
  /** The rows before the notes: the records under it, it needs and that need it. */
  const linkRows = children.length + needs.length + neededBy.length;
  const lookup = {
    words, stateName, fieldName, nameOf, now,
    noteText: (n: number) => record.notes.find((x) => x.id === n)?.text ?? null,
  };
  const button = (command: Command, label: string, keys: string) => (
    <button type="button" onClick={() => onAct(command)} aria-keyshortcuts={keys}>{label} <kbd>{keys}</kbd></button>
  );
  return (
    <article className="record" aria-labelledby="record-title">
      <h2 id="record-title"><span className="id">#{record.id}</span> {record.title}</h2>
      <div className="actions">
        {button('approve', record.approved ? pw.withdraw : pw.approve, 'a')}
        {button('moveBack', words.commands.moveBack, '<')}
        {button('moveOn', words.commands.moveOn, '>')}
        {button('movePick', words.commands.movePick, 'm')}
        {button('edit', words.commands.edit, 'e')}
        {button('note', words.commands.note, 'N')}
        {button('attach', words.commands.attach, 't')}
        {button('needs', words.commands.needs, 'n')}
        {button('archive', record.archived ? words.op('restore').title : words.op('archive').title, 'x')}
        {record.lease && button('release', pw.takeAway, 'r')}
        {button('delete', words.op('delete').title, 'D')}
      </div>
      {parts.length > 0 && <p className="hint">{pw.parts}</p>}
      <dl className="facts">
        <dt>{words.record.list}</dt><dd>{list.title}</dd>
        <dt>{words.record.state}</dt><dd>{stateName(record.state)}{record.archived && ` · ${words.record.archived}`}</dd>
        {view.parent && <ParentFact parent={view.parent} open={openRecord} />}
        <dt>{words.view.columns.approved}</dt>
        <dd className={record.approved ? 'good' : ''}>{record.approved ? words.record.approvedBy(nameOf(record.approved.by.id), when(record.approved.at)) : words.record.notApproved}</dd>
        <dt>{words.record.owners}</dt><dd>{record.owners.length ? record.owners.map(nameOf).join(', ') : words.record.nobody}</dd>
        <dt>{words.record.due}</dt><dd className="date">{record.due ?? words.record.none}</dd>
        <dt>{words.record.claim}</dt><dd>{record.lease ? claimMark(record.lease, words, now) : words.record.none}</dd>
        {list.fields.map((f) => (
          <div key={f.id} className="field"><dt>{f.name}</dt><dd>{record.fields[f.id] ?? '—'}</dd></div>
        ))}
        <dt>{words.record.created}</dt><dd className="date">{when(record.created)}</dd>
        <dt>{words.record.updated}</dt><dd className="date">{when(record.updated)}</dd>
      </dl>
      <Children links={children} from={0} open={openRecord} />
      <Needs id="needs-title" title={words.record.needs} links={needs} from={children.length} {...(view.hiddenNeeds ? { hidden: view.hiddenNeeds } : {})} open={openRecord} />
      <Needs id="needed-by-title" title={words.record.neededBy} links={neededBy} from={children.length + needs.length} open={openRecord} />
      <section aria-labelledby="notes-title">
        <h3 id="notes-title">{words.record.notes} ({view.counts.notes})</h3>
        {record.notes.length === 0 ? <p>{words.record.none}</p> : (
          <ol className="notes">
            {record.notes.map((n, i) => (
              <Row key={n.id} at={linkRows + i}>
                <p className="meta">
                  n{n.id} · {nameOf(n.by.id)} · <span className="date">{when(n.at)}</span>{n.edited && ` · ${words.record.edited}`}
                  {n.by.id === person.id && <>{' '}<button type="button" onClick={() => editNote(n.id, n.text)} aria-keyshortcuts="E">{words.commands.editNote} <kbd>E</kbd></button></>}
                </p>
                <p className="text">{n.text}</p>
              </Row>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="attached-title">
        <h3 id="attached-title">{words.record.attached} ({record.attached.length})</h3>
        {record.attached.length === 0 ? <p>{words.record.none}</p> : (
          <ul className="attached">
            {record.attached.map((a, i) => {
              const href = a.kind === 'link' ? webAddress(a.ref) : null;
              return (
                <Row key={a.id} at={linkRows + record.notes.length + i}>
                  <span className="kind">{a.kind}</span>{' '}
                  {href ? <a href={href} rel="noopener noreferrer nofollow" target="_blank">{href}</a> : <code>{a.ref}</code>}
                  {a.title && <span className="title"> — {a.title}</span>}{' '}
                  <button type="button" onClick={() => detach(a.id)} aria-keyshortcuts="T">
                    {words.op('detach').title} <span className="visually-hidden">{a.ref}</span> <kbd>T</kbd>
                  </button>
                </Row>
              );
            })}
          </ul>
        )}
      </section>
      <section aria-labelledby="history-title">
        <h3 id="history-title">{words.record.history} ({view.counts.history})</h3>
        <ol className="history">
          {view.history.map((h) => <li key={h.id}><span className="meta"><span className="date">{when(h.at)}</span> {nameOf(h.by.id)}</span> {historyText(h, lookup)}</li>)}
        </ol>
      </section>
    </article>
  );
}
