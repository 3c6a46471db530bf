/// <reference lib="dom" />
/**
 * The small panels: search across every list, what changed since the person last looked (the
 * person's brief, in the screen's words), the keys (the screen's help, made from its keymap), and
 * a new list from a template.
 */
import { useEffect, useState } from 'react';
import type { TemplateSummary } from '../../store/store.js';
import type { Brief } from '../../store/together-types.js';
import type { List, SearchHit } from '../../store/types.js';
import { changeText } from '../../tui/brief-lines.js';
import { when } from '../../tui/format.js';
import { keyLabel } from '../../tui/help-lines.js';
import { bindingsIn, isOpCommand, OP_COMMANDS, type Command, type Context } from '../../tui/keymap.js';
import { call } from '../api.js';
import { usePage, useRead } from '../page-context.js';

export function SearchPanel() {
  const { words, dispatch } = usePage();
  const [text, setText] = useState('');
  const [asked, setAsked] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setAsked(text.trim()), 200);
    return () => clearTimeout(t);
  }, [text]);
  const read = useRead<SearchHit[]>('search', asked ? { text: asked } : null);
  const hits = read.answer?.data ?? [];
  return (
    <section aria-labelledby="search-title">
      <h2 id="search-title">{words.search.title}</h2>
      <label>
        <span className="visually-hidden">{words.search.placeholder}</span>
        <input type="search" autoFocus value={text} placeholder={words.search.placeholder} onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => { if (e.key === 'Escape') dispatch({ type: 'panel', panel: null }); }} />
      </label>
      {!asked ? <p>{words.search.typeToSearch}</p> : read.answer && !read.answer.ok ? <p className="warn">{read.answer.text}</p> : (
        <>
          <p role="status">{hits.length ? words.search.results(hits.length) : words.search.noMatch}</p>
          <ul className="hits">
            {hits.map((h) => (
              <li key={h.id}>
                <button type="button" onClick={() => dispatch({ type: 'panel', panel: { kind: 'record', id: h.id } })}>
                  #{h.id} {h.title} <span className="meta">({h.listTitle}, {h.stateName})</span>
                </button>
                {h.snippet && <p className="snippet">{h.snippet}</p>}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function BriefPanel() {
  const { words, pw, dispatch } = usePage();
  const [brief, setBrief] = useState<Brief | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    let current = true;
    void call<Brief>('brief').then((answer) => {
      if (!current) return;
      if (answer.ok && answer.data) setBrief(answer.data);
      else setProblem(answer.text);
    });
    return () => {
      current = false;
    };
  }, [asked]);
  return (
    <section aria-labelledby="brief-title">
      <h2 id="brief-title">{words.brief.title}</h2>
      {problem !== null && <p className="warn">{problem}</p>}
      {!brief ? <p>{pw.loading}</p> : brief.items.length === 0 ? <p>{words.brief.nothing}</p> : (
        <ul className="brief">
          {brief.items.map((item) => (
            <li key={item.id}>
              <span className="meta">{when(item.at)}</span>{' '}
              <button type="button" onClick={() => dispatch({ type: 'panel', panel: { kind: 'record', id: item.record } })}>#{item.record} {item.title}</button>
              {' — '}{changeText(item, words)}
            </li>
          ))}
        </ul>
      )}
      {brief?.more && <button type="button" onClick={() => setAsked((n) => n + 1)}>{words.brief.more('b')}</button>}
    </section>
  );
}

/** The commands the page does by key: the screen's others (quit, suspend, undo…) mean nothing here. */
export const PAGE_COMMANDS: ReadonlySet<Command> = new Set<Command>([
  'up', 'down', 'left', 'right', 'top', 'bottom', 'pageUp', 'pageDown', 'open', 'back', 'search', 'help', 'brief',
  'grant', 'sides', 'editList', 'newList', 'filterArchived', 'add', 'deleteList', 'archiveList',
  'approve', 'moveBack', 'moveOn', 'movePick', 'edit', 'note', 'attach', 'archive', 'delete', 'release',
]);
const HELP_CONTEXTS: readonly Context[] = ['lists', 'records', 'record'];

export function HelpPanel() {
  const { words, pw, lang } = usePage();
  return (
    <section aria-labelledby="help-title">
      <h2 id="help-title">{pw.keysTitle}</h2>
      {HELP_CONTEXTS.map((context) => (
        <div key={context} className="help">
          <h3>{words.contexts[context]}</h3>
          <dl>
            {bindingsIn(context, lang).filter((b) => PAGE_COMMANDS.has(b.command)).map(({ command, keys }) => {
              const op = isOpCommand(command) ? OP_COMMANDS[command] : null;
              const describe = op ? words.forPerson[op] ?? words.op(op).describe : null;
              return (
                <div key={command} className="key">
                  <dt>{keys.filter((k) => !('name' in k && k.name === 'tab')).map((k) => keyLabel(k, words)).join(' ')}</dt>
                  <dd>{words.commands[command]}{describe ? ` — ${describe}` : ''}</dd>
                </div>
              );
            })}
          </dl>
        </div>
      ))}
    </section>
  );
}

export function NewListPanel() {
  const { words, pw, lang, act, dispatch } = usePage();
  const read = useRead<TemplateSummary[]>('templates', { lang });
  const templates = read.answer?.data ?? [];
  const [template, setTemplate] = useState('');
  const [title, setTitle] = useState('');
  const chosen = template || templates[0]?.id || '';
  return (
    <section aria-labelledby="new-list-title">
      <h2 id="new-list-title">{pw.newList}</h2>
      <form onSubmit={(e) => {
        e.preventDefault();
        void act<List>('create-list', { template: chosen, lang, ...(title.trim() ? { title: title.trim() } : {}) }, (l) => words.done.listMade(l.title)).then((answer) => {
          if (answer.ok && answer.data) {
            dispatch({ type: 'open-list', list: answer.data.id });
            dispatch({ type: 'panel', panel: null });
          }
        });
      }}>
        <fieldset>
          <legend>{words.dialog.pickTemplate}</legend>
          {templates.map((t) => (
            <label key={t.id} className="choice">
              <input type="radio" name="template" value={t.id} checked={chosen === t.id} onChange={() => setTemplate(t.id)} />
              <strong>{t.title}</strong> <span className="meta">{t.describe}</span>
            </label>
          ))}
        </fieldset>
        <label>{pw.listTitleOptional}<input type="text" value={title} onChange={(e) => setTitle(e.target.value)} /></label>
        <button type="submit" disabled={!chosen}>{words.op('create-list').title}</button>
      </form>
    </section>
  );
}
