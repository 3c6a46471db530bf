/// <reference lib="dom" />
/**
 * The small panels: what changed since the person last looked (the person's brief, in the screen's
 * words, newest first: ↑ ↓ over it, Enter opens a record, `b` reads it again; it stays unseen, on
 * every page and screen of the person, until they mark it seen; an admin opens the webhooks'
 * delivery log from it), the keys (the screen's
 * help, made from its keymap, for the keys the page does), and a new list from a template.
 */
import { useEffect, useState } from 'react';
import type { Brief, List, TemplateSummary } from '../../store/index.js';
import { changeText } from '../../person/brief-lines.js';
import { when } from '../../person/format.js';
import { keyLabel } from '../../person/help-lines.js';
import { bindingsIn, isOpCommand, OP_COMMANDS, type Command, type Context } from '../../person/keymap.js';
import { call } from '../api.js';
import { usePage, usePanelKeys, useRead } from '../page-context.js';
import { NotifyButton } from './NotifyButton.js';
import { useHeldPart } from '../use-held-part.js';
import { Row } from './Row.js';

/** What changed's own number for its held row: no record's. */
const BRIEF_ROWS = -2;

export function BriefPanel({ asked }: { asked: number }) {
  const { words, pw, dispatch, state, role } = usePage();
  const [brief, setBrief] = useState<Brief | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    // A look: reading marks nothing seen; the person does, with the button.
    setBrief(null);
    void call<Brief>('brief', { peek: true }).then((answer) => {
      if (!current) return;
      if (answer.ok && answer.data) setBrief(answer.data);
      else setProblem(answer.text);
    });
    return () => {
      current = false;
    };
  }, [asked]);
  const items = brief?.items ?? [];
  const open = (id: number) => dispatch({ type: 'panel', panel: { kind: 'record', id } });
  // Through the last change this look read: one that came after it stays unseen.
  const markSeen = (through: number) => void call('brief', { seen: through }).then((answer) => {
    if (answer.ok) dispatch({ type: 'panel', panel: { kind: 'brief', asked: asked + 1 } });
    else setProblem(answer.text);
  });
  // The row selected holds its change: a read again (`b`) putting newer ones above moves the rows, not it.
  useHeldPart(BRIEF_ROWS, brief ? items.map((i) => `change:${i.id}`) : null, false);
  usePanelKeys(items.length, (command) => {
    const item = items[state.panelAt];
    if (command !== 'open' || !item) return false;
    open(item.record);
    return true;
  });
  return (
    <section aria-labelledby="brief-title">
      <h2 id="brief-title">{words.brief.title}</h2>
      <NotifyButton />
      {/* How else people hear of work: the webhooks, and how their deliveries went (an admin's). */}
      {role === 'admin' && <button type="button" onClick={() => dispatch({ type: 'panel', panel: { kind: 'webhooks' } })}>{pw.hooks.title}</button>}
      {problem !== null && <p className="warn">{problem}</p>}
      {!brief ? <p>{pw.loading}</p> : brief.items.length === 0 ? <p>{words.brief.nothing}</p> : (
        <ul className="brief">
          {brief.items.map((item, at) => (
            <Row key={item.id} at={at}>
              <span className="meta">{when(item.at)}</span>{' '}
              <button type="button" onClick={() => open(item.record)}>#{item.record} {item.title}</button>
              {' — '}{changeText(item, words)}
            </Row>
          ))}
        </ul>
      )}
      {brief && brief.items.length > 0 && brief.through !== undefined && (
        <button type="button" onClick={() => markSeen(brief.through!)}>{words.commands.briefSeen}</button>
      )}
    </section>
  );
}

/**
 * The commands the page does by key. The screen's others are the browser's here: quit and suspend
 * (a tab is closed), Tab between panes (the browser's focus), Ctrl-U and Ctrl-D (its own keys),
 * a form's and a text field's keys (its own fields), and W (the page is the web page).
 */
export const PAGE_COMMANDS: ReadonlySet<Command> = new Set<Command>([
  'up', 'down', 'left', 'right', 'top', 'bottom', 'pageUp', 'pageDown', 'open', 'back', 'search', 'help', 'brief', 'undo', 'goTo',
  'filterText', 'filterState', 'filterMine', 'filterArchived', 'archivedLists',
  'grant', 'sides', 'editList', 'newList', 'add', 'deleteList', 'archiveList',
  'approve', 'moveBack', 'moveOn', 'movePick', 'edit', 'note', 'editNote', 'attach', 'needs', 'detach', 'archive', 'delete', 'release',
  'accessLess', 'accessMore', 'sideAdd', 'sideRemove', 'personRole', 'personRemove',
  'listTitle', 'listView', 'stateAdd', 'fieldAdd', 'rowRename', 'rowEarlier', 'rowLater', 'rowRemove', 'gateToggle', 'childrenToggle',
  'submit', 'yes', 'cancel',
]);
const HELP_CONTEXTS: readonly Context[] = ['lists', 'records', 'record', 'brief', 'results', 'grant', 'sides', 'people', 'list-editor', 'pick', 'confirm'];

export function HelpPanel() {
  const { words, pw, lang, signedIn } = usePage();
  return (
    <section aria-labelledby="help-title">
      <h2 id="help-title">{pw.keysTitle}</h2>
      {HELP_CONTEXTS.filter((context) => signedIn || context !== 'people').map((context) => (
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
