/// <reference lib="dom" />
/**
 * Agents, as a person manages them: their access to the open list (none, read, write; ← → give
 * less or more on the agent under the cursor, as the screen's keys do), the folders the keeper
 * reads (`n` adds one, `D` removes the one under the cursor, offered back with `u`), and their
 * tokens for HTTP (made — shown once, in the dialog that made it — listed and revoked). Never a
 * token's whole value but in that one answer.
 */
import type { Access, List, Side, TokenInfo } from '../../store/index.js';
import { useEffect, useRef } from 'react';
import { when } from '../../person/format.js';
import { ACCESS_ORDER, agentRows, nextAccess, sideWarning } from '../../person/rows.js';
import { usePage, usePanelKeys, useRead } from '../page-context.js';
import { Row } from './Row.js';

/** A folder as the keeper's `sides` gives it: with what it found of the folder (its OS user's, open to others). */
type ExposedSide = Side & { keeperUser?: boolean; othersRead?: boolean };

export function AgentsPanel({ list }: { list: List }) {
  const { words, pw, act, state } = usePage();
  // Each with what the keeper found of its folder: its OS user's, open to others.
  const sides = useRead<ExposedSide[]>('sides', {}).answer?.data ?? [];
  const warning = sideWarning(sides, words);
  const tokens = useRead<TokenInfo[]>('token-list', {}).answer?.data ?? [];
  // What was just given, until the list read says so too: a key pressed twice in a row goes two
  // steps, even when a read begun before the first answer comes after it.
  const given = useRef<Record<string, Access | 'none'>>({});
  useEffect(() => {
    for (const [agent, access] of Object.entries(given.current)) if ((list.access[agent] ?? 'none') === access) delete given.current[agent];
  }, [list]);
  const known = agentRows(list, [], sides);
  // An agent known by its token alone, before any folder: its access is given here too.
  for (const t of tokens) if (!known.some((a) => a.agent === t.agent)) known.push({ agent: t.agent, name: t.name, dir: null, access: list.access[t.agent] ?? 'none' });
  const agents = known.map((a) => ({ ...a, access: given.current[a.agent] ?? a.access }));
  const grant = (agent: string, name: string, access: Access | 'none') => {
    given.current[agent] = access;
    void act('grant', { list: list.id, agent, access }, () => words.done.granted(name, access, list.title)).then((a) => {
      if (!a.ok && given.current[agent] === access) delete given.current[agent];
    });
  };
  usePanelKeys(agents.length, (command) => {
    const row = agents[state.panelAt];
    if ((command !== 'accessLess' && command !== 'accessMore') || !row) return false;
    const access = nextAccess(row.access, command === 'accessMore' ? 1 : -1);
    if (access !== row.access) grant(row.agent, row.name, access);
    return true;
  });
  return (
    <section aria-labelledby="agents-title">
      <h2 id="agents-title">{words.grant.title(list.title)}</h2>
      {warning ? <p className="warn" role="note">{warning}</p> : null}
      {agents.length === 0 ? <p>{words.grant.noAgents}</p> : (
        <ul className="grants">
          {agents.map(({ agent: id, name, access: level }, at) => (
            <Row key={id} at={at}>
              <fieldset>
                <legend>{name} <span className="meta">({id})</span></legend>
                {ACCESS_ORDER.map((l) => (
                  <label key={l} className="level">
                    <input type="radio" name={`access-${id}`} checked={level === l} aria-label={`${name}: ${words.grant.levels[l]}`} onChange={() => grant(id, name, l)} />
                    {' '}{words.grant.levels[l]}
                  </label>
                ))}
              </fieldset>
            </Row>
          ))}
        </ul>
      )}
      <p className="hint">{pw.accessKeys}</p>
    </section>
  );
}

export function FoldersPanel() {
  const { words, pw, act, dispatch, state } = usePage();
  const sides = useRead<ExposedSide[]>('sides', {}).answer?.data ?? [];
  const warning = sideWarning(sides, words);
  const tokens = useRead<TokenInfo[]>('token-list', {}).answer?.data ?? [];
  const add = () => dispatch({ type: 'dialog', dialog: { kind: 'form', op: 'side-add' } });
  const remove = (side: Side) => void act('side-remove', { name: side.name }, null, { offer: true });
  usePanelKeys(sides.length, (command) => {
    if (command === 'sideAdd') {
      add();
      return true;
    }
    const side = sides[state.panelAt];
    if (command !== 'sideRemove' || !side) return false;
    remove(side);
    return true;
  });
  return (
    <>
      <section aria-labelledby="folders-title">
        <h2 id="folders-title">{pw.folders}</h2>
        {warning ? <p className="warn" role="note">{warning}</p> : null}
        {sides.length === 0 ? <p>{words.sides.none}</p> : (
          <ul className="folders">
            {sides.map((s, at) => (
              <Row key={s.agent} at={at}>
                <strong>{s.name}</strong> <span className="meta">({s.agent})</span> <code>{s.dir}</code>{' '}
                <button type="button" onClick={() => remove(s)} aria-keyshortcuts="D">
                  {pw.remove} <span className="visually-hidden">{s.name}</span> <kbd>D</kbd>
                </button>
              </Row>
            ))}
          </ul>
        )}
        <button type="button" onClick={add} aria-keyshortcuts="n">{words.commands.sideAdd} <kbd>n</kbd></button>
      </section>
      <section aria-labelledby="tokens-title">
        <h2 id="tokens-title">{pw.tokens}</h2>
        {tokens.length === 0 ? <p>{pw.noTokens}</p> : (
          <ul className="tokens">
            {tokens.map((t) => (
              <li key={t.prefix}>
                <code>{t.prefix}…</code> <strong>{t.name}</strong> <span className="meta">({t.agent})</span>{' '}
                <span className="meta">{t.used ? pw.usedAt(when(t.used)) : pw.notUsed}{t.expires ? `, ${pw.expires(when(t.expires))}` : ''}</span>{' '}
                {t.revoked ? <span className="warn">{pw.revoked}</span> : (
                  <button type="button" onClick={() => void act<TokenInfo[]>('token-revoke', { token: t.prefix }, () => `${pw.revoked}: ${t.prefix}`)}>
                    {pw.revoke} <span className="visually-hidden">{t.prefix}</span>
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <button type="button" onClick={() => dispatch({ type: 'dialog', dialog: { kind: 'form', op: 'token-add' } })}>{words.op('token-add').title}</button>
      </section>
    </>
  );
}
