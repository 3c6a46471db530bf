/**
 * The catalog's entries for agents working together — take, release, ready, brief, wait — and
 * how their answers read for a context window: one line per record or change, the next step
 * said where it is not obvious. A wait here answers at once; holding one open is the keeper's
 * (held-waits.ts). Nothing here trusts a duration or a record number it was given.
 */
import { Refused } from '../store/store.js';
import { LEASE_DEFAULT_MS, type Brief, type BriefItem, type Claimed, type ReadyPage, type Released } from '../store/index.js';
import type { List, Who } from '../store/types.js';
import type { CatalogContext, CatalogEntry } from './catalog.js';
import { WAIT_DEFAULT_MS, WAIT_MAX_MS, readDuration, sayDuration } from './durations.js';
import { recordLine } from './text-reading.js';

type Args = Record<string, unknown>;
const entry = <D>(run: (a: Args, who: Who, ctx: CatalogContext) => D, say: (d: D, a: Args, who: Who, ctx: CatalogContext) => string): CatalogEntry =>
  ({ run, say: say as CatalogEntry['say'] });

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const recordRef = (v: unknown): number | string => (typeof v === 'number' ? v : String(v ?? ''));
/** `2026-11-30T10:32:00.000Z` → `2026-11-30 10:32 UTC`. */
export const utc = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const stateName = (list: List, id: string): string => list.states.find((s) => s.id === id)?.name ?? id;

function leaseFor(a: Args): number | undefined {
  if (a.for === undefined) return undefined;
  const ms = readDuration(a.for);
  if (ms === null) throw new Refused('Give --for a length like 30m, 2h, 1d or 45s.', 'Donnez à --for une durée comme 30m, 2h, 1d ou 45s.', 'not-understood');
  return ms;
}

/** What a wait is about: one record, one list, or everything the asker can see. */
export interface WaitTarget { record?: string; list?: string }

export function waitTarget(a: Args): WaitTarget {
  const on = typeof a.on === 'number' ? String(a.on) : str(a.on);
  if (on === undefined) return {};
  return /^#?\d+$/.test(on.trim()) ? { record: on.trim() } : { list: on };
}

/** A wait's length in ms, or a refusal that says what is accepted. */
export function waitLength(a: Args): number {
  if (a.timeout === undefined) return WAIT_DEFAULT_MS;
  const ms = readDuration(a.timeout);
  if (ms === null) {
    throw new Refused('Give --timeout a length like 60s, 5m or 90 (seconds).', 'Donnez à --timeout une durée comme 60s, 5m ou 90 (secondes).', 'not-understood');
  }
  if (ms > WAIT_MAX_MS) {
    const most = sayDuration(WAIT_MAX_MS);
    throw new Refused(`A wait lasts at most ${most}: wait again after it.`, `Une attente dure au plus ${most} : attendez de nouveau ensuite.`, 'not-understood');
  }
  return ms;
}

export interface WaitData { changed: boolean; brief: Brief }

/**
 * The wait's answer now: the brief (which moves the asker's place) if something it waits on
 * changed, else nothing changed and nothing is moved.
 */
export function waitNow(a: Args, who: Who, { store }: CatalogContext): WaitData {
  const target = waitTarget(a);
  waitLength(a);
  const peek = store.brief(who, { ...target, peek: true, limit: 1 });
  if (peek.items.length === 0) return { changed: false, brief: { items: [], more: false } };
  return { changed: true, brief: store.brief(who) };
}

/** The words of a wait that found nothing, after `waitedMs` (0 when it did not wait). */
export function sayNothing(a: Args, who: Who, ctx: CatalogContext, waitedMs: number): string {
  const target = waitTarget(a);
  const where = target.record ? ` on #${target.record.replace('#', '')}` : target.list ? ` in ${target.list}` : '';
  const others = target.record || target.list ? ctx.store.brief(who, { peek: true }).items.length : 0;
  const after = waitedMs > 0 ? ` in ${sayDuration(waitedMs)}` : ' since you last looked';
  return `Nothing changed${where}${after}.`
    + (others ? ` Other changes wait for you: binder brief.` : ' binder wait again to keep waiting.');
}

/** One change on one line, for whoever asked. */
export function itemLine(i: BriefItem, who: Who, withList: boolean): string {
  const head = `#${i.record} ${i.title}${withList ? ` (${i.list})` : ''}: `;
  const holder = i.holder ? (i.holder.id === who.id ? 'your' : `${i.holder.name}'s`) : '';
  switch (i.kind) {
    case 'approved': return `${head}approved by ${i.by.name}`;
    case 'withdrawn': return `${head}approval withdrawn by ${i.by.name}${i.to && i.to !== i.from ? `, back in ${i.to}` : ''}`;
    case 'added': return `${head}added by ${i.by.name}${i.to ? ` in ${i.to}` : ''}`;
    case 'moved': return `${head}moved ${i.from ?? '?'} → ${i.to ?? '?'} by ${i.by.name}`;
    case 'note': {
      const text = (i.text ?? '').replace(/\s+/g, ' ').trim();
      return `${head}note by ${i.by.name}: ${text.length > 200 ? `${text.slice(0, 200)}… (binder get ${i.record})` : text}`;
    }
    case 'lapsed': return i.holder?.id === who.id
      ? `${head}your claim lapsed; binder take ${i.record} if you still work on it`
      : `${head}${holder} claim lapsed; it is free`;
    case 'taken-away': return `${head}${i.by.name} took ${holder} claim away`;
    case 'due': return `${head}due now${i.due ? ` (${i.due})` : ''}`;
    default: {
      const never: never = i.kind;
      throw new Error(`unknown brief kind ${String(never)}`);
    }
  }
}

export function sayBrief(b: Brief, who: Who): string {
  if (b.items.length === 0) return 'Nothing changed since you last looked. binder wait returns when something does.';
  const withList = new Set(b.items.map((i) => i.list)).size > 1;
  const n = b.items.length;
  return [
    `${n} change${n === 1 ? '' : 's'} since you last looked:`,
    ...b.items.map((i) => itemLine(i, who, withList)),
    ...(b.more ? ['… more changes: binder brief again.'] : []),
  ].join('\n');
}

function sayReady(page: ReadyPage, a: Args, who: Who, { store }: CatalogContext): string {
  const lines: string[] = [];
  for (const l of page.lists) {
    if (l.total === 0) continue;
    const list = store.list(l.list, who);
    const over = l.atLeast ? 'more than ' : '';
    lines.push(`${l.list}: ${over}${l.total} ready${l.priority ? ` (by ${l.priority}, then oldest)` : ' (oldest first)'}:`);
    for (const r of l.records) lines.push(`  ${recordLine(r, list)} [${stateName(list, r.state)}]`);
    if (l.total > l.records.length) lines.push(`  … ${over}${l.total - l.records.length} more; binder take --next ${l.list} takes the first.`);
  }
  const where = str(a.list) ? ` in ${str(a.list)}` : '';
  if (lines.length === 0) {
    lines.push(`Nothing is ready for you${where} now: what is left waits for a person's approval, is taken, or is done. `
      + `binder wait${str(a.list) ? ` ${str(a.list)}` : ''} returns when something changes.`);
  } else {
    const first = page.lists.find((l) => l.total > 0)!;
    lines.push(`Next: binder take --next ${first.list}`);
  }
  for (const r of page.held) lines.push(`You hold #${r.id} ${r.title} until ${utc(r.lease!.until)}.`);
  return lines.join('\n');
}

function sayTaken(c: Claimed, a: Args, who: Who, { store }: CatalogContext): string {
  const r = c.record;
  const list = store.list(r.list, who);
  const length = sayDuration(readDuration(a.for) ?? LEASE_DEFAULT_MS);
  return `You hold #${r.id} ${r.title} (${r.list}, ${stateName(list, r.state)}) for ${length}${c.extended ? ' more' : ''}, until ${utc(c.until)}. `
    + `When done: binder release ${r.id}; to keep it longer: binder take ${r.id}.`;
}

function sayReleased(d: Released, who: Who): string {
  const noted = d.note ? ` Noted (n${d.note.id}).` : '';
  if (!d.holder) return `#${d.record.id} was not taken: nothing to give back.${noted}`;
  if (d.holder.id === who.id) return `Gave back #${d.record.id}; it is free.${noted}`;
  return `Took #${d.record.id} away from ${d.holder.name}; it is free.${noted}`;
}

export const TOGETHER = {
  take: entry(
    (a, who, { store }): Claimed => {
      const forMs = leaseFor(a);
      const next = str(a.next);
      const id = a.id === undefined || String(a.id).trim() === '' ? undefined : recordRef(a.id);
      if (next !== undefined && id !== undefined) {
        throw new Refused('Give a record or --next LIST, not both.', 'Donnez une fiche ou --next LISTE, pas les deux.', 'not-understood');
      }
      if (next !== undefined) return store.takeNext(next, who, { forMs });
      if (id === undefined) {
        throw new Refused(
          'Say what to take: a record (binder take 12) or a list (binder take --next Batches).',
          'Dites quoi prendre : une fiche (binder take 12) ou une liste (binder take --next Lots).',
          'not-understood',
        );
      }
      return store.take(id, who, { forMs });
    },
    (c, a, who, ctx) => sayTaken(c, a, who, ctx),
  ),
  release: entry(
    (a, who, { store }) => store.release(recordRef(a.id), who, str(a.note)),
    (d, _a, who) => sayReleased(d, who),
  ),
  ready: entry(
    (a, who, { store }) => store.ready(str(a.list), who),
    sayReady,
  ),
  brief: entry(
    (_a, who, { store }) => store.brief(who),
    (b, _a, who) => sayBrief(b, who),
  ),
  wait: entry(
    waitNow,
    (d, a, who, ctx) => (d.changed ? sayBrief(d.brief, who) : sayNothing(a, who, ctx, 0)),
  ),
} satisfies Record<string, CatalogEntry>;
