/**
 * What changed since the person last looked (the store's brief), as the lines the screen shows:
 * one change a line, when, which record, and what happened to it, by whom. Pure; every piece of
 * text from the store is made terminal-safe here and cut to the width, so one line is one row.
 */
import type { BriefCounts, BriefItem, BriefKind } from '../store/index.js';
import { cut, safe, when } from './format.js';
import type { Line, Tone } from './record-lines.js';
import type { Words } from './words.js';

/** One change, in the screen's words. */
export function changeText(item: BriefItem, words: Words): string {
  const b = words.brief;
  const by = safe(item.by.name);
  const to = item.to ? safe(item.to) : null;
  switch (item.kind) {
    case 'approved': return b.approved(by);
    case 'withdrawn': {
      // `title` is the store's word for the title; fields come by their names.
      const changed = (item.changed ?? []).map((c) => (c === 'title' ? words.view.columns.title.toLowerCase() : c));
      return b.withdrawn(by, to && item.to !== item.from ? to : null, changed.length ? safe(changed.join(', ')) : null);
    }
    case 'added': return b.added(by, to);
    case 'moved': return b.moved(by, safe(item.from ?? '?'), to ?? '?');
    case 'note': return b.note(by, safe((item.text ?? '').replace(/\s+/g, ' ').trim()));
    case 'lapsed': return b.lapsed(safe(item.holder?.name ?? item.by.name));
    case 'taken-away': return b.takenAway(by, safe(item.holder?.name ?? '?'));
    case 'released': return b.released(safe(item.holder?.name ?? item.by.name));
    case 'due': return b.due(item.due ? safe(item.due) : null);
    case 'unblocked': return b.unblocked(item.need ?? null);
    default: {
      const never: never = item.kind;
      throw new Error(`unknown change ${String(never)}`);
    }
  }
}

const TONES: Record<BriefItem['kind'], Tone> = {
  approved: 'good', withdrawn: 'warn', added: 'plain', moved: 'plain', note: 'plain', lapsed: 'warn', 'taken-away': 'warn', released: 'plain', due: 'warn', unblocked: 'good',
};

/** The brief's lines, as given (newest first): each change opens its record (Enter); a last line says how many older ones wait unshown. */
export function briefLines(items: readonly BriefItem[], older: number, words: Words, width: number, seenKey: string): Line[] {
  if (items.length === 0) return [{ text: words.brief.nothing, tone: 'dim' }];
  const lists = new Set(items.map((i) => i.list)).size > 1;
  const lines: Line[] = items.map((item) => ({
    text: cut(`${when(item.at)}  #${item.record} ${safe(item.title)}${lists ? ` (${safe(item.list)})` : ''} — ${changeText(item, words)}`, width),
    tone: TONES[item.kind],
    part: { kind: 'record', id: item.record },
  }));
  if (older > 0) lines.push({ text: cut(words.brief.older(older, seenKey), width), tone: 'dim' });
  return lines;
}

/** Each kind's count, in the order the kinds are told: `3 added · 1 moved · 1 noted`. */
export function kindCounts(counts: BriefCounts | null, words: Words): string {
  if (!counts) return '';
  return (Object.keys(TONES) as BriefKind[]).filter((k) => counts.kinds[k]).map((k) => words.brief.kind(k, counts.kinds[k]!)).join(' · ');
}
