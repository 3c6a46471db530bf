/**
 * How records that wait on others read for an agent: `get`'s lines of what a record needs and
 * what needs it, `needs`' answer, and `ready --blocked`. Plain text built from data; nothing
 * here touches the store, and no record the asker cannot see is ever named.
 */
import type { BlockedPage, NeedsChanged } from '../store/together-types.js';
import type { NeedLink, RecordView } from '../store/types.js';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const link = (l: NeedLink): string => `#${l.id} (${l.stateName})`;
const unseen = (n: number): string => (n ? `${n === 1 ? 'a record' : `${n} records`} you cannot see` : '');
const joined = (parts: string[]): string => parts.filter((p) => p !== '').join(', ');

/** `needs #12 (Doing), #14 (Done)` and `needed by #20 (To do)`, for `get`. */
export function needLines(view: RecordView): string[] {
  const needs = view.needs ?? [];
  const by = view.neededBy ?? [];
  const hidden = view.hiddenNeeds ?? 0;
  const lines: string[] = [];
  if (needs.length || hidden) {
    const waiting = needs.filter((l) => !l.done).map((l) => `#${l.id}`);
    const until = joined([...waiting, unseen(hidden)]);
    lines.push(`needs ${joined([...needs.map(link), hidden ? `${plural(hidden, 'more')} you cannot see` : ''])}`
      + (until ? `; not ready until ${until} ${waiting.length + hidden === 1 ? 'is' : 'are'} done` : '; all done'));
  }
  if (by.length) lines.push(`needed by ${by.map(link).join(', ')}`);
  return lines;
}

export function sayNeeds(d: NeedsChanged, remove: boolean): string {
  const id = d.record.id;
  const now = d.needs.length ? `#${id} needs ${d.needs.map(link).join(', ')}` : `#${id} needs nothing now`;
  const waits = d.record.blocked
    ? ` It is left out of binder ready until ${d.record.blocked === 1 ? 'that one is' : `those ${d.record.blocked} are`} done.`
    : d.needs.length ? ' All of them are done: it may start.' : '';
  if (remove) {
    const gone = d.removed.length ? `No longer needs ${d.removed.map((n) => `#${n}`).join(', ')}. ` : 'It needed none of those: nothing changed. ';
    return `${gone}${now}.${waits}`;
  }
  const added = d.added.length ? '' : 'It needed those already: nothing changed. ';
  return `${added}${now}.${waits}`;
}

export function sayBlocked(page: BlockedPage, list: string | undefined): string {
  const lines: string[] = [];
  for (const l of page.lists) {
    if (l.total === 0) continue;
    const over = l.atLeast ? 'more than ' : '';
    lines.push(`${l.list}: ${over}${plural(l.total, 'record waits', 'records wait')} on others:`);
    for (const b of l.records) {
      const on = joined([...b.waitsOn.map((w) => `#${w.id} ${w.title} (${w.stateName})`), unseen(b.hidden)]);
      lines.push(`  #${b.record.id} ${b.record.title} waits on ${on}`);
    }
    if (l.total > l.records.length) lines.push(`  … ${over}${l.total - l.records.length} more.`);
  }
  if (lines.length === 0) return `Nothing${list ? ` in ${list}` : ''} waits on another record.`;
  lines.push('A record is ready once every record it needs is in its list\'s last state.');
  return lines.join('\n');
}
