/// <reference lib="dom" />
/**
 * The panel beside the list: a record, search, what changed, the keys, agents' access and tokens,
 * agent folders, the list's editor, a new list, the webhooks' delivery log. Esc (or its Close
 * button) closes it and gives the focus back to the list. It is a labelled region, so a screen reader can find and leave it.
 */
import { useEffect, useRef } from 'react';
import type { List } from '../../store/index.js';
import type { Command } from '../../person/keymap.js';
import { usePage } from '../page-context.js';
import type { Panel } from '../page-state.js';
import { AgentsPanel, FoldersPanel } from './Agents.js';
import { ListEditor } from './ListEditor.js';
import { PeoplePanel } from './People.js';
import { BriefPanel, HelpPanel, NewListPanel } from './Panels.js';
import { SearchPanel } from './Search.js';
import { RecordPanel } from './RecordPanel.js';
import { WebhooksPanel } from './Webhooks.js';

/** The panels whose every action is an admin's. */
const ADMINS: ReadonlySet<Panel['kind']> = new Set(['agents', 'folders', 'list-editor', 'new-list']);

export function SidePanel({ panel, list, onAct }: { panel: Panel; list: List | null; onAct(command: Command): boolean }) {
  const { pw, words, dispatch, role } = usePage();
  const ref = useRef<HTMLElement>(null);
  const key = panel.kind === 'record' ? `record-${panel.id}` : panel.kind;
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    // The panel takes the focus, unless a field in it already has it (search).
    if (!ref.current?.contains(document.activeElement)) ref.current?.focus();
    return () => {
      if (before && document.contains(before)) before.focus();
    };
  }, [key]);
  let body;
  let label: string;
  switch (panel.kind) {
    case 'record': body = <RecordPanel id={panel.id} onAct={onAct} />; label = `#${panel.id}`; break;
    case 'search': body = <SearchPanel filters={panel.filters} />; label = words.search.title; break;
    case 'brief': body = <BriefPanel asked={panel.asked} />; label = words.brief.title; break;
    case 'help': body = <HelpPanel />; label = pw.keysTitle; break;
    case 'agents': body = list ? <AgentsPanel list={list} /> : null; label = pw.knownAgents; break;
    case 'folders': body = <FoldersPanel />; label = pw.folders; break;
    case 'list-editor': body = list ? <ListEditor list={list} /> : null; label = list ? words.listEditor.title(list.title) : ''; break;
    case 'new-list': body = <NewListPanel />; label = pw.newList; break;
    case 'people': body = <PeoplePanel />; label = pw.people.title; break;
    case 'webhooks': body = <WebhooksPanel />; label = pw.hooks.title; break;
    default: {
      const never: never = panel;
      throw new Error(`unknown panel ${String(never)}`);
    }
  }
  return (
    <aside className="panel" ref={ref} tabIndex={-1} aria-label={label}>
      <button type="button" className="close" onClick={() => dispatch({ type: 'panel', panel: null })} aria-keyshortcuts="Escape">{pw.close} <kbd>Esc</kbd></button>
      {role === 'member' && ADMINS.has(panel.kind) ? (
        // A member sees what is there, every action disabled, and why: never a button that only fails.
        <>
          <p className="hint" role="note">{pw.adminOnly}</p>
          <fieldset className="admin-only" disabled>{body}</fieldset>
        </>
      ) : body}
    </aside>
  );
}
