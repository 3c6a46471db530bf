/// <reference lib="dom" />
/**
 * The webhooks' delivery log, an admin's: each hook's URL, the events it is told of and its list,
 * with its latest deliveries newest first (when, what, of which record, how it went, and the
 * error of a failed try, as the store clipped it). A try changes no record, so no news of it
 * comes: the log is read again every few seconds while it is open. Anyone else is shown the
 * store's refusal. It never holds a secret: the store gives none. Text as text.
 */
import { useEffect, useState } from 'react';
import type { HookDelivery, HookInfo } from '../../store/index.js';
import { when } from '../../person/format.js';
import { webhooks } from '../api.js';
import { usePage } from '../page-context.js';

/** How often the open log is read again. */
const EVERY_MS = 2_000;

type Hook = HookInfo & { recent?: HookDelivery[] };

function Deliveries({ hook }: { hook: Hook }) {
  const { pw } = usePage();
  const w = pw.hooks;
  const recent = hook.recent ?? [];
  if (!recent.length) return <p>{w.noDelivery}</p>;
  return (
    <table className="deliveries">
      <caption>{w.deliveries}</caption>
      <thead>
        <tr>{(['at', 'event', 'record', 'outcome', 'error'] as const).map((c) => <th key={c} scope="col">{w.columns[c]}</th>)}</tr>
      </thead>
      <tbody>
        {recent.map((d) => (
          <tr key={d.id} className={d.error ? 'warn' : ''}>
            <td className="date">{when(d.at)}</td>
            <td>{d.event}</td>
            <td>{d.record === null ? '—' : <a href={`#/record/${d.record}`}>#{d.record}</a>}</td>
            <td>{w.outcome[d.outcome]}{d.status !== null ? ` (${d.status})` : ''} · {w.tries(d.tries)}</td>
            <td>{d.error ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function WebhooksPanel() {
  const { pw } = usePage();
  const w = pw.hooks;
  const [hooks, setHooks] = useState<Hook[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    const read = () => void webhooks().then((answer) => {
      if (!current) return;
      if (answer.ok && answer.data) {
        setHooks(answer.data);
        setProblem(null);
      } else setProblem(answer.text);
    });
    read();
    const timer = setInterval(read, EVERY_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, []);
  return (
    <section aria-labelledby="hooks-title">
      <h2 id="hooks-title">{w.title}</h2>
      {problem !== null && <p className="warn">{problem}</p>}
      {hooks === null ? (problem === null && <p>{pw.loading}</p>) : hooks.length === 0 ? <p>{w.none}</p> : hooks.map((hook) => (
        <section key={hook.id} className="hook" aria-label={hook.url}>
          <h3><code>{hook.url}</code></h3>
          <dl className="facts">
            <dt>{w.events}</dt><dd>{hook.events.join(', ')}</dd>
            <dt>{w.list}</dt><dd>{hook.list ?? w.everyList}</dd>
          </dl>
          <Deliveries hook={hook} />
        </section>
      ))}
    </section>
  );
}
