/**
 * The catalog's entries for agents working together — take, release, ready, brief, wait — and
 * how their answers read for a context window: one line per record or change, the next step
 * said where it is not obvious. A wait here answers at once; holding one open is the keeper's
 * (held-waits.ts). Nothing here trusts a duration or a record number it was given.
 */
import { type List, Refused, type Who, whoName } from '../store/index.js';
import {
  LEASE_DEFAULT_MS, type BlockedPage, type Brief, type BriefItem, type BriefKind, type BriefSummary, type Claimed, type ReadyPage, type Released,
} from '../store/index.js';
import type { CatalogContext, CatalogEntry } from './catalog.js';
import { WAIT_DEFAULT_MS, WAIT_MAX_MS, hasUnit, readDuration, sayDuration } from './durations.js';
import { recordLine } from './text-reading.js';
import { sayBlocked } from './text-needs.js';
import { Shown, said, told, type Told } from './text-values.js';
import { placeholder, sentence, step } from '../store/light.js';

type Args = Record<string, unknown>;
const entry = <D>(run: (a: Args, who: Who, ctx: CatalogContext) => D | Promise<D>,
  say: (d: D, a: Args, who: Who, ctx: CatalogContext) => Told | Promise<Told>): CatalogEntry =>
  ({ run: async (a, who, ctx) => run(a, who, ctx), say: say as CatalogEntry['say'] });

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const recordRef = (v: unknown): number | string => (typeof v === 'number' ? v : String(v ?? ''));
/** `2026-11-30T10:32:00.000Z` → `2026-11-30 10:32 UTC`. */
export const utc = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const stateName = (list: List, id: string): string => list.states.find((s) => s.id === id)?.name ?? id;

/** A claim's length: a bare number is refused, since 30 could be seconds or minutes. */
function leaseFor(a: Args): number | undefined {
  if (a.for === undefined) return undefined;
  const ms = readDuration(a.for);
  if (ms === null) throw new Refused('Give --for a length like 30m, 2h, 1d or 45s.', 'Donnez à --for une durée comme 30m, 2h, 1d ou 45s.', 'not-understood');
  if (!hasUnit(a.for)) {
    const shown = String(a.for).trim().slice(0, 20);
    throw new Refused(
      `"${shown}" has no unit: give --for as 30m, 2h, 1d or 45s.`,
      `« ${shown} » n'a pas d'unité : donnez --for comme 30m, 2h, 1d ou 45s.`,
      'not-understood',
    );
  }
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
export async function waitNow(a: Args, who: Who, { store }: CatalogContext): Promise<WaitData> {
  const target = waitTarget(a);
  waitLength(a);
  const peek = await store.brief(who, { ...target, peek: true, limit: 1 });
  if (peek.items.length === 0) return { changed: false, brief: { items: [], more: false } };
  return { changed: true, brief: await store.brief(who) };
}

/** The words of a wait that found nothing, after `waitedMs` (0 when it did not wait). */
export async function sayNothing(a: Args, who: Who, ctx: CatalogContext, waitedMs: number): Promise<Shown> {
  const target = waitTarget(a);
  const where = target.record ? said` on #${target.record.replace('#', '')}` : target.list ? said` in ${target.list}` : '';
  const others = target.record || target.list ? (await ctx.store.brief(who, { peek: true })).items.length : 0;
  const after = waitedMs > 0 ? ` in ${sayDuration(waitedMs)}` : ' since you last looked';
  const again = step('wait', target.record ? { on: String(Number(target.record.replace('#', ''))) } : target.list ? { on: target.list } : {});
  return said`Nothing changed${where}${after}.${others ? said` Other changes wait for you: ${step('brief')}.` : said` To keep waiting: ${again}.`}`;
}

/** One change on one line, for whoever asked. */
export function itemLine(i: BriefItem, who: Who, withList: boolean): Shown {
  const head = said`#${i.record} ${i.title}${withList ? said` (${i.list})` : ''}: `;
  const holder = i.holder ? (i.holder.id === who.id ? said`your` : said`${i.holder.name}'s`) : '';
  switch (i.kind) {
    case 'approved': return said`${head}approved by ${whoName(i.by)}`;
    case 'withdrawn': {
      const changed = i.changed?.length ? said`: ${i.changed.join(', ')} changed` : '';
      const back = i.to && i.to !== i.from ? said`, back in ${i.to}` : '';
      return said`${head}approval withdrawn${changed} by ${whoName(i.by)}${back}${changed ? '; a person must approve it again' : ''}`;
    }
    case 'added': return said`${head}added by ${whoName(i.by)}${i.to ? said` in ${i.to}` : ''}`;
    case 'moved': return said`${head}moved ${i.from ?? '?'} → ${i.to ?? '?'} by ${whoName(i.by)}`;
    case 'note': {
      const text = (i.text ?? '').replace(/\s+/g, ' ').trim();
      const cut = Array.from(text);
      return said`${head}note by ${whoName(i.by)}: ${cut.length > 200 ? said`${cut.slice(0, 200).join('')}… (${step('get', { id: i.record })})` : text}`;
    }
    case 'lapsed': return i.holder?.id === who.id
      ? said`${head}your claim lapsed; ${step('take', { id: i.record })} if you still work on it`
      : said`${head}${holder} claim lapsed; it is free`;
    case 'taken-away': return said`${head}${whoName(i.by)} took ${holder} claim away`;
    case 'released': return said`${head}given back by ${whoName(i.by)}; it is free`;
    case 'due': return said`${head}due now${i.due ? said` (${i.due})` : ''}`;
    case 'unblocked': return said`${head}waits on nothing more${i.need ? said` (the last it needed: #${i.need})` : ' (the last record it needed is done or deleted)'}; it may start`;
    default: {
      const never: never = i.kind;
      throw new Error(`unknown brief kind ${String(never)}`);
    }
  }
}

/** How many of a kind, in a summary's words: `40 added`, `5 notes`, `1 claim lapsed`. */
function countOf(kind: BriefKind, n: number): string {
  const many = n !== 1;
  switch (kind) {
    case 'added': case 'moved': case 'approved': case 'due': return `${n} ${kind}`;
    case 'withdrawn': return `${n} approval${many ? 's' : ''} withdrawn`;
    case 'note': return `${n} note${many ? 's' : ''}`;
    case 'released': return `${n} given back`;
    case 'taken-away': return `${n} claim${many ? 's' : ''} taken away`;
    case 'lapsed': return `${n} claim${many ? 's' : ''} lapsed`;
    case 'unblocked': return `${n} waiting on nothing more`;
    default: {
      const never: never = kind;
      throw new Error(`unknown brief kind ${String(never)}`);
    }
  }
}

function saySummary(b: Brief & { summary: BriefSummary }, who: Who): Shown {
  const { summary } = b;
  const out: Shown[] = [said`${summary.atLeast ? 'More than ' : ''}${summary.total} changes since you last looked, too many to tell one by one; in short (your place is now the latest change):`];
  for (const l of summary.lists) {
    const counts = Object.entries(l.counts).map(([kind, n]) => countOf(kind as BriefKind, n));
    out.push(said`${l.list}: ${l.total} (${counts.join(', ')})`);
  }
  const withList = summary.lists.length > 1;
  out.push(said`The latest ${b.items.length}:`, ...b.items.map((i) => itemLine(i, who, withList)));
  out.push(said`${step('get', { id: placeholder('ID') })} reads a record, ${step('show', { list: placeholder('LIST') })} a list; ${step('brief')} tells each change from now on.`);
  return told(out);
}

export function sayBrief(b: Brief, who: Who): Told {
  if (b.summary) return saySummary({ ...b, summary: b.summary }, who);
  if (b.items.length === 0) return said`Nothing changed since you last looked. To wait until something does: ${step('wait')}.`;
  const withList = new Set(b.items.map((i) => i.list)).size > 1;
  const n = b.items.length;
  return told([
    said`${n} change${n === 1 ? '' : 's'} since you last looked:`,
    ...b.items.map((i) => itemLine(i, who, withList)),
    ...(b.more ? [said`… more changes: ${step('brief')}.`] : []),
  ]);
}

async function sayReady(page: ReadyPage, a: Args, who: Who, { store }: CatalogContext): Promise<Shown> {
  const out: Shown[] = [];
  const query = str(a.query)?.trim();
  for (const l of page.lists) {
    if (l.total === 0) continue;
    const list = await store.list(l.list, who);
    const over = l.atLeast ? 'more than ' : '';
    out.push(said`${l.list}: ${over}${l.total} ready${l.priority ? said` (by ${l.priority}, then oldest)` : ' (oldest first)'}:`);
    for (const r of l.records) out.push(said`  ${recordLine(r, list)} [${stateName(list, r.state)}]`);
    // take --next reads no query: with one, the first it finds is taken by its number.
    const first = query ? step('take', { id: l.records[0]!.id }) : step('take', { next: l.list });
    if (l.total > l.records.length) out.push(said`  … ${over}${l.total - l.records.length} more; ${first} takes the first.`);
  }
  const given = str(a.list);
  const readOnly = page.readOnly.length
    ? said`You may only read ${page.readOnly.join(', ')}: nothing there is yours to start (a person can give you write access).` : null;
  if (out.length === 0 && page.lists.length === 0) {
    out.push(readOnly ?? said`You may change no list: nothing is yours to start. A person grants access from their screen or with binder admin grant.`);
  } else if (out.length === 0) {
    const wait = step('wait', given ? { on: given } : {});
    const found = query ? said` that ${query} finds` : '';
    out.push(said`Nothing${found} is ready for you${given ? said` in ${given}` : ''} now: what is left waits for a person's approval or on other records, is taken, or is done. To wait until something changes: ${wait}.`);
    if (readOnly) out.push(readOnly);
  } else {
    const first = page.lists.find((l) => l.total > 0)!;
    out.push(said`Next: ${query ? step('take', { id: first.records[0]!.id }) : step('take', { next: first.list })}`);
  }
  for (const r of page.held) out.push(said`You hold #${r.id} ${r.title} until ${utc(r.lease!.until)}.`);
  return told(out);
}

/**
 * Taking again sets the claim's end to the length asked from now, sooner than before too (a
 * holder nearly done frees the record sooner if it stops): the answer says when it was before,
 * and says it plainly when the claim was shortened.
 */
async function sayTaken(c: Claimed, a: Args, who: Who, { store }: CatalogContext): Promise<Shown> {
  const r = c.record;
  const list = await store.list(r.list, who);
  const length = sayDuration(readDuration(a.for) ?? LEASE_DEFAULT_MS);
  const head = said`You hold #${r.id} ${r.title} (${r.list}, ${stateName(list, r.state)})`;
  const waits = r.blocked ? said` It still waits on ${new Shown(r.blocked === 1 ? 'a record' : `${r.blocked} records`)} not done (${step('get', { id: r.id })}).` : '';
  const release = step('release', { id: r.id });
  if (c.previous !== undefined && c.previous > c.until) {
    const next = said`To keep it longer: ${step('take', { id: r.id, for: '1d' })}; when done: ${release}.${waits}`;
    return said`${head} for ${length} from now, until ${utc(c.until)}: sooner than before (it was until ${utc(c.previous)}). ${next}`;
  }
  const was = c.previous !== undefined ? ` (it was until ${utc(c.previous)})` : '';
  const next = said`When done: ${release}; to keep it longer: ${step('take', { id: r.id })}.${waits}`;
  return said`${head} for ${length}${c.extended ? ' from now' : ''}, until ${utc(c.until)}${was}. ${next}`;
}

function sayReleased(d: Released, who: Who): string {
  const noted = d.note ? ` Noted (n${d.note.id}).` : '';
  if (!d.holder) return `#${d.record.id} was not taken: nothing to give back.${noted}`;
  if (d.holder.id === who.id) return `Gave back #${d.record.id}; it is free.${noted}`;
  return said`Took #${d.record.id} away from ${d.holder.name}; it is free.${noted}`.text;
}

export const TOGETHER = {
  take: entry(
    (a, who, { store }): Promise<Claimed> => {
      const forMs = leaseFor(a);
      const next = str(a.next);
      const id = a.id === undefined || String(a.id).trim() === '' ? undefined : recordRef(a.id);
      if (next !== undefined && id !== undefined) {
        throw new Refused('Give a record or --next LIST, not both.', 'Donnez une fiche ou --next LISTE, pas les deux.', 'not-understood');
      }
      if (next !== undefined) return store.takeNext(next, who, { forMs });
      if (id === undefined) {
        throw new Refused(
          sentence`Say what to take: a record (${step('take', { id: 12 })}) or a list (${step('take', { next: 'Batches' })}).`,
          sentence`Dites quoi prendre : une fiche (${step('take', { id: 12 })}) ou une liste (${step('take', { next: 'Lots' })}).`,
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
    (a, who, { store }): Promise<ReadyPage | BlockedPage> => (a.blocked === true
      ? store.blocked(str(a.list), who) : store.ready(str(a.list), who, { query: str(a.query) })),
    (d, a, who, ctx) => (a.blocked === true ? sayBlocked(d as BlockedPage, str(a.list)) : sayReady(d as ReadyPage, a, who, ctx)),
  ),
  brief: entry(
    (a, who, { store }) => {
      // An agent's brief marks what it was told seen as it tells it; reading apart is a person's.
      if (who.kind !== 'person' && (a.peek !== undefined || a.seen !== undefined)) {
        throw new Refused(sentence`An agent's brief marks each change seen as it tells it: ${step('brief')}, with nothing more.`, sentence`Les nouvelles d'un agent marquent chaque changement vu en le disant : ${step('brief')}, sans rien de plus.`, 'not-understood');
      }
      if (a.seen !== undefined && a.seen !== null) return store.markSeen(who, Number(a.seen)).then(({ through }): Brief => ({ items: [], more: false, through }));
      // A look through the catalog (the page's, on every change it hears of; a person's --peek)
      // shows its page: counting all that wait, up to 100,000 changes, is for the screen, which
      // asks the store itself.
      return store.brief(who, a.peek === true ? { peek: true, newest: true, counted: false } : {});
    },
    (b, a, who) => (a.seen !== undefined && a.seen !== null ? said`Marked seen through change ${b.through ?? 0}.`.text : sayBrief(b, who)),
  ),
  wait: entry(
    waitNow,
    (d, a, who, ctx) => (d.changed ? sayBrief(d.brief, who) : sayNothing(a, who, ctx, 0)),
  ),
} satisfies Record<string, CatalogEntry>;
