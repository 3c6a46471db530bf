/// <reference lib="dom" />
/**
 * Agents, as a person manages them: their access to the open list (none, read, write), the
 * folders the keeper reads, and their tokens for HTTP (made — shown once, in the dialog that
 * made it — listed and revoked). Never a token's whole value but in that one answer.
 */
import type { Side } from '../../store/store.js';
import type { TokenInfo } from '../../store/tokens.js';
import type { List } from '../../store/types.js';
import { when } from '../../tui/format.js';
import { usePage, useRead } from '../page-context.js';

const LEVELS = ['none', 'read', 'write'] as const;

export function AgentsPanel({ list }: { list: List }) {
  const { words, pw, act } = usePage();
  const sides = useRead<Side[]>('sides', {}).answer?.data ?? [];
  const tokens = useRead<TokenInfo[]>('token-list', {}).answer?.data ?? [];
  const agents = new Map<string, string>();
  for (const s of sides) agents.set(s.agent, s.name);
  for (const t of tokens) if (!agents.has(t.agent)) agents.set(t.agent, t.name);
  for (const id of Object.keys(list.access)) if (!agents.has(id)) agents.set(id, id.replace(/^agent:/, ''));
  return (
    <section aria-labelledby="agents-title">
      <h2 id="agents-title">{words.grant.title(list.title)}</h2>
      {agents.size === 0 ? <p>{words.grant.noAgents}</p> : (
        <table className="grants">
          <thead><tr><th scope="col">{pw.agents}</th>{LEVELS.map((l) => <th key={l} scope="col">{words.grant.levels[l]}</th>)}</tr></thead>
          <tbody>
            {[...agents].map(([id, name]) => {
              const level = list.access[id] ?? 'none';
              return (
                <tr key={id}>
                  <th scope="row">{name} <span className="meta">({id})</span></th>
                  {LEVELS.map((l) => (
                    <td key={l}>
                      <input type="radio" name={`access-${id}`} checked={level === l} aria-label={`${name}: ${words.grant.levels[l]}`}
                        onChange={() => void act('grant', { list: list.id, agent: id, access: l }, () => words.done.granted(name, l, list.title))} />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function FoldersPanel() {
  const { words, pw, act, dispatch } = usePage();
  const sides = useRead<Side[]>('sides', {}).answer?.data ?? [];
  const tokens = useRead<TokenInfo[]>('token-list', {}).answer?.data ?? [];
  return (
    <>
      <section aria-labelledby="folders-title">
        <h2 id="folders-title">{pw.folders}</h2>
        {sides.length === 0 ? <p>{words.sides.none}</p> : (
          <ul className="folders">
            {sides.map((s) => (
              <li key={s.agent}>
                <strong>{s.name}</strong> <span className="meta">({s.agent})</span> <code>{s.dir}</code>{' '}
                <button type="button" onClick={() => void act<Side>('side-remove', { name: s.name }, (d) => words.done.sideRemoved(d.name, d.dir))}>
                  {pw.remove} <span className="visually-hidden">{s.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <button type="button" onClick={() => dispatch({ type: 'dialog', dialog: { kind: 'form', op: 'side-add' } })}>{words.commands.sideAdd}</button>
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
