/// <reference lib="dom" />
/**
 * A record, whole: its full title, state and approval, fields, owners, due date, claim, what it
 * needs, notes, attached things (a link shown with its real address, and a link only when it is
 * http or https), and its history in the screen's words. Its actions are the screen's commands,
 * by button or by key. Every text is shown as text.
 */
import type { RecordView } from '../../store/types.js';
import { claimMark, when } from '../../tui/format.js';
import { historyText } from '../../tui/history-words.js';
import { namesFrom } from '../../tui/names.js';
import type { Command } from '../../tui/keymap.js';
import { usePage, useRead } from '../page-context.js';

const webAddress = (ref: string): string | null => {
  try {
    const url = new URL(ref);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
};

export function RecordPanel({ id, onAct }: { id: number; onAct(command: Command): boolean }) {
  const { words, pw, act, person } = usePage();
  const read = useRead<RecordView>('get', { id, notes: 200, history: 200 });
  const view = read.answer?.data ?? null;
  if (read.answer && !read.answer.ok) return <p className="warn">{read.answer.text}</p>;
  if (!view) return <p>{pw.loading}</p>;
  const { record, list } = view;
  const stateName = (s: string) => list.states.find((x) => x.id === s)?.name ?? s;
  const fieldName = (f: string) => list.fields.find((x) => x.id === f)?.name ?? f;
  const nameOf = namesFrom([person, ...view.history.map((h) => h.by), ...record.notes.map((n) => n.by), ...record.attached.map((a) => a.by),
    ...(record.approved ? [record.approved.by] : []), ...(record.lease ? [record.lease.by] : [])]);
  const now = Date.now();
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
        {button('archive', record.archived ? words.op('restore').title : words.op('archive').title, 'x')}
        {record.lease && button('release', pw.takeAway, 'r')}
        {button('delete', words.op('delete').title, 'D')}
      </div>
      <dl className="facts">
        <dt>{words.record.list}</dt><dd>{list.title}</dd>
        <dt>{words.record.state}</dt><dd>{stateName(record.state)}{record.archived && ` · ${words.record.archived}`}</dd>
        <dt>{words.view.columns.approved}</dt>
        <dd className={record.approved ? 'good' : ''}>{record.approved ? words.record.approvedBy(nameOf(record.approved.by.id), when(record.approved.at)) : words.record.notApproved}</dd>
        <dt>{words.record.owners}</dt><dd>{record.owners.length ? record.owners.map(nameOf).join(', ') : words.record.nobody}</dd>
        <dt>{words.record.due}</dt><dd>{record.due ?? words.record.none}</dd>
        <dt>{words.record.claim}</dt><dd>{record.lease ? claimMark(record.lease, words, now) : words.record.none}</dd>
        {list.fields.map((f) => (
          <div key={f.id} className="field"><dt>{f.name}</dt><dd>{record.fields[f.id] ?? '—'}</dd></div>
        ))}
        <dt>{words.record.created}</dt><dd>{when(record.created)}</dd>
        <dt>{words.record.updated}</dt><dd>{when(record.updated)}</dd>
      </dl>
      {(view.needs?.length || view.neededBy?.length) ? (
        <section aria-labelledby="needs-title">
          <h3 id="needs-title">{words.record.needs}</h3>
          <ul>{[...(view.needs ?? []), ...(view.neededBy ?? [])].map((n) => <li key={n.id}>#{n.id} {n.title} ({n.stateName}{n.done ? `, ${words.record.needDone}` : ''})</li>)}</ul>
        </section>
      ) : null}
      <section aria-labelledby="notes-title">
        <h3 id="notes-title">{words.record.notes} ({view.counts.notes})</h3>
        {record.notes.length === 0 ? <p>{words.record.none}</p> : (
          <ol className="notes">
            {record.notes.map((n) => (
              <li key={n.id}>
                <p className="meta">n{n.id} · {nameOf(n.by.id)} · {when(n.at)}{n.edited && ` · ${words.record.edited}`}</p>
                <p className="text">{n.text}</p>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="attached-title">
        <h3 id="attached-title">{words.record.attached} ({record.attached.length})</h3>
        {record.attached.length === 0 ? <p>{words.record.none}</p> : (
          <ul className="attached">
            {record.attached.map((a) => {
              const href = a.kind === 'link' ? webAddress(a.ref) : null;
              return (
                <li key={a.id}>
                  <span className="kind">{a.kind}</span>{' '}
                  {href ? <a href={href} rel="noopener noreferrer nofollow" target="_blank">{href}</a> : <code>{a.ref}</code>}
                  {a.title && <span className="title"> — {a.title}</span>}{' '}
                  <button type="button" onClick={() => void act('detach', { id: record.id, what: String(a.id) }, () => words.done.detached(record.id))}>
                    {words.op('detach').title} <span className="visually-hidden">{a.ref}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section aria-labelledby="history-title">
        <h3 id="history-title">{words.record.history} ({view.counts.history})</h3>
        <ol className="history">
          {view.history.map((h) => <li key={h.id}><span className="meta">{when(h.at)} {nameOf(h.by.id)}</span> {historyText(h, lookup)}</li>)}
        </ol>
      </section>
    </article>
  );
}
