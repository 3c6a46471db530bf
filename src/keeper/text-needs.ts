/**
 * How records that wait on others read for an agent: `get`'s lines of what a record needs and
 * what needs it, `needs`' answer, and `ready --blocked`. Plain text built from data, every value
 * through `said` (text-values.ts); nothing here touches the store, and no record the asker
 * cannot see is ever named.
 */
import type { BlockedPage, BlockedRecord, NeedLink, NeedsChanged, RecordView } from '../store/index.js';
import { Shown, joined, lines, said } from './text-values.js';
import { step } from '../store/light.js';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const link = (l: NeedLink): Shown => said`#${l.id} (${l.stateName})`;
const unseen = (n: number): Shown | null => (n ? new Shown(`${n === 1 ? 'a record' : `${n} records`} you cannot see`) : null);
const listed = (parts: readonly (Shown | null)[]): Shown => joined(parts.filter((p): p is Shown => p !== null), ', ');

/** `needs #12 (Doing), #14 (Done)` and `needed by #20 (To do)`, for `get`. */
export function needLines(view: RecordView): Shown[] {
  const needs = view.needs ?? [];
  const by = view.neededBy ?? [];
  const hidden = view.hiddenNeeds ?? 0;
  const out: Shown[] = [];
  if (needs.length || hidden) {
    const waiting = needs.filter((l) => !l.done).map((l) => new Shown(`#${l.id}`));
    const until = listed([...waiting, unseen(hidden)]);
    const all = listed([...needs.map(link), hidden ? new Shown(`${plural(hidden, 'more')} you cannot see`) : null]);
    const verb = waiting.length + hidden === 1 ? 'is' : 'are';
    out.push(said`needs ${all}${until.text ? said`; not ready until ${until} ${verb} done` : '; all done'}`);
  }
  if (by.length) out.push(said`needed by ${joined(by.map(link), ', ')}`);
  return out;
}

/** `under #3 (Doing)` on a child, `under it: #8 (Done), #9 (To do): 1 of 2 done` on a parent, for `get`. */
export function familyLines(view: RecordView): Shown[] {
  const out: Shown[] = [];
  if (view.parent) out.push(said`under ${link(view.parent)} ${view.parent.title}`);
  const children = view.children ?? [];
  if (children.length) {
    const done = children.filter((l) => l.done).length;
    out.push(said`under it: ${joined(children.map(link), ', ')}: ${new Shown(`${done} of ${children.length} done`)}`);
  }
  return out;
}

export function sayNeeds(d: NeedsChanged, remove: boolean): Shown {
  const id = d.record.id;
  const now = d.needs.length ? said`#${id} needs ${joined(d.needs.map(link), ', ')}` : said`#${id} needs nothing now`;
  const waits = d.record.blocked
    ? said` Until ${new Shown(d.record.blocked === 1 ? 'that one is' : `those ${d.record.blocked} are`)} done, it is left out of ${step('ready')}.`
    : new Shown(d.needs.length ? ' All of them are done: it may start.' : '');
  if (remove) {
    const gone = new Shown(d.removed.length ? `No longer needs ${d.removed.map((n) => `#${n}`).join(', ')}. ` : 'It needed none of those: nothing changed. ');
    return said`${gone}${now}.${waits}`;
  }
  const added = new Shown(d.added.length ? '' : 'It needed those already: nothing changed. ');
  return said`${added}${now}.${waits}`;
}

/** `waits on #3 Build (To do) and on its children #12, #14`: what one record waits on, for `ready --blocked`. */
function waitsLine(b: BlockedRecord): Shown {
  const needs = b.waitsOn.length + b.hidden > 0
    ? listed([...b.waitsOn.map((w) => said`#${w.id} ${w.title} (${w.stateName})`), unseen(b.hidden)]) : null;
  const under = b.children?.length || b.hiddenChildren
    ? said`its children ${listed([...(b.children ?? []).map((c) => said`#${c.id}`), unseen(b.hiddenChildren ?? 0)])}` : null;
  const on = needs && under ? said`${needs} and on ${under}` : (needs ?? under ?? new Shown(''));
  return said`  #${b.record.id} ${b.record.title} waits on ${on}`;
}

export function sayBlocked(page: BlockedPage, list: string | undefined): string {
  const out: Shown[] = [];
  let children = false;
  for (const l of page.lists) {
    if (l.total === 0) continue;
    const over = l.atLeast ? 'more than ' : '';
    out.push(said`${l.list}: ${new Shown(`${over}${plural(l.total, 'record waits', 'records wait')}`)} on others:`);
    for (const b of l.records) {
      children ||= b.children !== undefined;
      out.push(waitsLine(b));
    }
    if (l.total > l.records.length) out.push(new Shown(`  … ${over}${l.total - l.records.length} more.`));
  }
  if (out.length === 0) return said`Nothing${list ? said` in ${list}` : ''} waits on another record.`.text;
  out.push(new Shown(`A record is ready once every record it needs is in its list's last state${
    children ? ', and, where its list says children first, every record under it' : ''}.`));
  return lines(out);
}
