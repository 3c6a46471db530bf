/// <reference lib="dom" />
/**
 * The page: signs the browser in with a login link's key (from the address's fragment, sent once
 * in a same-origin POST and taken out of the address at once), or says how to sign in; then the
 * binder. The language is the browser's, or the one the person switched to (kept in this browser).
 */
import { useCallback, useEffect, useState } from 'react';
import { wordsFor, type Lang } from '../../person/words.js';
import { keepPageKey, onSignedOut, session, setLang, signIn, type ProviderSignIn } from '../api.js';
import { forPage, pageWordsFor } from '../page-words.js';
import { recordInAddress } from '../use-record-address.js';
import { Binder } from './Binder.js';

const LANG_KEY = 'binder-lang';
/** The record a link asked for (`#/record/12`), kept through a sign-in in this browser, for a while. */
const WANTED_KEY = 'binder-wanted-record';
const WANTED_MS = 30 * 60_000;

/** A record's link: kept now, so that the sign-in it may need first comes back to it. */
function keepWanted(): void {
  const id = recordInAddress(location.hash);
  if (id === null) return;
  try {
    localStorage.setItem(WANTED_KEY, JSON.stringify({ id, at: Date.now() }));
  } catch {
    // No storage: the link opens the record when already signed in, from the address alone.
  }
}

/** The record a link asked for, once: taken out of the browser's storage as it is read. */
function takeWanted(): number | null {
  const fromAddress = recordInAddress(location.hash);
  let kept: number | null = null;
  try {
    const was = JSON.parse(localStorage.getItem(WANTED_KEY) ?? 'null') as { id: number; at: number } | null;
    localStorage.removeItem(WANTED_KEY);
    if (was && Date.now() - was.at < WANTED_MS && Number.isInteger(was.id)) kept = was.id;
  } catch {
    // Nothing kept.
  }
  return fromAddress ?? kept;
}

function firstLang(): Lang {
  try {
    const kept = localStorage.getItem(LANG_KEY);
    if (kept === 'en' || kept === 'fr') return kept;
  } catch {
    // No storage (a private window): the browser's language.
  }
  return /^fr\b/i.test(navigator.language || '') ? 'fr' : 'en';
}

type Who = { id: string; name: string; email?: string };

export function App() {
  const [lang, setLangState] = useState<Lang>(firstLang);
  const [person, setPerson] = useState<Who | null | 'asking'>('asking');
  const [problem, setProblem] = useState<string | null>(null);
  const [provider, setProvider] = useState<ProviderSignIn | null>(null);
  /** Just signed out, and where to sign out of the provider too (if it says). */
  const [out, setOut] = useState<{ providerSignOut: string | null } | null>(null);
  const [wanted, setWanted] = useState<number | null>(null);
  const pw = pageWordsFor(lang);
  setLang(lang);

  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);

  useEffect(() => {
    onSignedOut(() => setPerson(null));
    keepWanted();
    const key = /(?:^#|&)login=([A-Za-z0-9_-]{1,200})/.exec(location.hash)?.[1];
    // Back from the identity provider: the page's half of the session, in the fragment (no server
    // was sent it), kept, and out of the address at once.
    const half = /(?:^#|&)key=([A-Za-z0-9_-]{1,64})/.exec(location.hash)?.[1];
    if (half) {
      history.replaceState(null, '', location.pathname);
      keepPageKey(half);
    }
    void (async () => {
      // A login link where people sign in through a provider: none is offered, none is sent.
      if (key) {
        // The key leaves the address (and so the history) before anything else happens.
        history.replaceState(null, '', location.pathname);
        const signed = await signIn(key);
        if (!signed.ok) setProblem(signed.text);
      }
      const me = await session();
      setProvider(me.data?.signIn ?? null);
      const signed = me.ok && me.data?.person ? me.data.person : null;
      if (signed) setWanted(takeWanted());
      setPerson(signed);
    })();
  }, []);

  const switchLang = useCallback((to: Lang) => {
    setLangState(to);
    try {
      localStorage.setItem(LANG_KEY, to);
    } catch {
      // Not kept: this page only.
    }
  }, []);

  const langSwitch = (
    <label className="lang">
      <span>{pw.language}</span>{' '}
      <select value={lang} onChange={(e) => switchLang(e.target.value === 'fr' ? 'fr' : 'en')}>
        <option value="en">English</option>
        <option value="fr">Français</option>
      </select>
    </label>
  );

  if (person === 'asking') return <main className="sign-in" aria-busy="true"><p>{pw.loading}</p></main>;
  if (person === null) {
    return (
      <main className="sign-in" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Binder — {pw.signIn.title}</h1>
        {problem !== null && <p className="warn" role="alert">{provider ? '' : `${pw.signIn.failed} `}{problem}</p>}
        {out && <p role="status">{pw.signIn.signedOut}{out.providerSignOut && provider ? <> <a href={out.providerSignOut}>{pw.signIn.providerToo(provider.provider)}</a></> : null}</p>}
        {provider
          ? <p><a className="sign-in-button" href={provider.start}>{pw.signIn.with(provider.provider)}</a></p>
          : <p>{pw.signIn.text}</p>}
        {langSwitch}
      </main>
    );
  }
  return <Binder openRecord={wanted} lang={lang} words={forPage(wordsFor(lang))} pw={pw} person={person} signedIn={provider !== null} langSwitch={langSwitch} onSignedOut={(providerSignOut) => {
    setOut({ providerSignOut: providerSignOut ?? null });
    setPerson(null);
  }} />;
}
