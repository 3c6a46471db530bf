/// <reference lib="dom" />
/**
 * The bar at the top: the binder's name, whether the page hears the server, the views (search,
 * what changed, agent folders, people, keys), the language, who is signed in, and signing out.
 * On a phone it is one short line — the lists' drawer, the name, the link and a menu that holds
 * the rest — laid out by the style sheet; the menu and the drawer are the only state here.
 */
import { useState, type ReactNode } from 'react';
import type { Command } from '../../person/keymap.js';
import { signOut } from '../api.js';
import type { Link } from '../live.js';
import { usePage } from '../page-context.js';

export interface TopBarProps {
  link: Link;
  langSwitch: ReactNode;
  drawer: boolean;
  onDrawer(open: boolean): void;
  run(command: Command): boolean;
  onSignedOut(providerSignOut?: string | null): void;
}

export function TopBar({ link, langSwitch, drawer, onDrawer, run, onSignedOut }: TopBarProps) {
  const { words, pw, person, role, signedIn, dispatch } = usePage();
  const [menu, setMenu] = useState(false);
  return (
    <header className={`top${menu ? ' menu-open' : ''}`}>
      <button type="button" className="phone-only" aria-expanded={drawer} aria-controls="lists-nav" onClick={() => { setMenu(false); onDrawer(!drawer); }}>
        <span aria-hidden="true">☰ </span>{words.lists.title}
      </button>
      <h1>Binder</h1>
      <p className={`link link-${link}`} role="status">{pw.link[link]}</p>
      <button type="button" className="phone-only menu-button" aria-expanded={menu} aria-controls="top-menu" onClick={() => { onDrawer(false); setMenu(!menu); }}>
        {pw.menuButton}
      </button>
      {/* A choice made in the menu closes it; the language's list stays open while choosing. */}
      <div id="top-menu" className="top-menu" onClick={(e) => { if ((e.target as HTMLElement).closest('button')) setMenu(false); }}>
        <nav aria-label={pw.menu} className="views">
          <button type="button" onClick={() => run('search')} aria-keyshortcuts="/">{words.search.title}</button>
          <button type="button" onClick={() => run('brief')} aria-keyshortcuts="b">{words.commands.brief}</button>
          <button type="button" onClick={() => run('sides')} aria-keyshortcuts="S">{pw.folders}</button>
          {signedIn && <button type="button" onClick={() => dispatch({ type: 'panel', panel: { kind: 'people' } })}>{pw.people.title}</button>}
          <button type="button" onClick={() => run('help')} aria-keyshortcuts="?">{pw.keysTitle} <span className="desk-only">(?)</span></button>
        </nav>
        {langSwitch}
        <p className="who">{pw.signedInAs(person.name, person.email)}{signedIn ? ` (${pw.people.role[role]})` : ''}</p>
        <button type="button" onClick={() => void signOut().then((out) => onSignedOut(out.data?.providerSignOut ?? null))}>{pw.signOut}</button>
      </div>
    </header>
  );
}
