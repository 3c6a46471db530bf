/**
 * A record's history in words, one change a line: "owners: Bob added", "claimed until 14:30",
 * "note n3: first words…", "moved To do → Doing", "approval withdrawn: title changed", "needs #12". An operation the screen has no sentence for
 * is still said in words (its name, and what changed as `key: value`), never as raw JSON. Pure;
 * every piece of text from the store is made terminal-safe here.
 */
import type { LogRow } from '../store/index.js';
import { safe, shortWhen } from './format.js';
import type { NameOf } from './names.js';
import type { Words } from './words.js';

export interface HistoryLookup {
  words: Words;
  /** A state's name in the record's list, by id. */
  stateName(id: string): string;
  /** A field's name in the record's list, by id. */
  fieldName(id: string): string;
  nameOf: NameOf;
  /** A note of the record, by id (null once it is gone). */
  noteText(id: number): string | null;
  now: number;
}

type Change = Record<string, unknown>;

/** At most `n` characters of one line of text, cut after a word where it can, with `…` when cut. */
function firstWords(text: string, n = 40): string {
  const flat = safe(text.replace(/\s+/g, ' ').trim());
  const chars = [...flat];
  if (chars.length <= n) return flat;
  const head = chars.slice(0, n - 1).join('');
  const space = head.lastIndexOf(' ');
  return `${space > n / 2 ? head.slice(0, space) : head}…`;
}

const isId = (text: string) => /^(person|agent):/.test(text);

/** Any value in words: a list joined, an object's parts as `key: value`, a person or agent by name. */
export function plainValue(value: unknown, nameOf: NameOf, depth = 0): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return isId(value) ? nameOf(value) : firstWords(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length ? value.map((v) => plainValue(v, nameOf, depth + 1)).join(', ') : '—';
  if (typeof value === 'object') {
    const o = value as Change;
    if (typeof o.id === 'string' && isId(o.id)) return nameOf(o.id);
    if (typeof o.name === 'string') return safe(o.name);
    if (depth > 2) return '…';
    return Object.entries(o).map(([k, v]) => `${safe(k)}: ${plainValue(v, nameOf, depth + 1)}`).join('; ');
  }
  return '—';
}

const asChange = (change: unknown): Change => (change && typeof change === 'object' && !Array.isArray(change) ? change as Change : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const ids = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The parts of a change the screen has no words for, in words. */
function rest(change: Change, known: readonly string[], h: HistoryLookup): string[] {
  return Object.entries(change)
    .filter(([k]) => !known.includes(k))
    .map(([k, v]) => `${safe(k)}: ${plainValue(v, h.nameOf)}`);
}

/** An edit: title, fields, owners and due, each said as what changed. */
function editText(c: Change, h: HistoryLookup): string[] {
  const w = h.words.history;
  const parts: string[] = [];
  if (Array.isArray(c.title)) parts.push(w.titled(firstWords(str(c.title[0])), firstWords(str(c.title[1]))));
  for (const [id, pair] of Object.entries(asChange(c.fields))) {
    const after = Array.isArray(pair) ? pair[1] : pair;
    const name = safe(h.fieldName(id));
    parts.push(after === null || after === '' ? w.fieldCleared(name) : w.fieldSet(name, plainValue(after, h.nameOf)));
  }
  if (Array.isArray(c.owners)) {
    const [before, after] = [ids(c.owners[0]), ids(c.owners[1])];
    const added = after.filter((o) => !before.includes(o));
    const removed = before.filter((o) => !after.includes(o));
    if (added.length) parts.push(w.ownersAdded(added.map(h.nameOf).join(', ')));
    if (removed.length) parts.push(w.ownersRemoved(removed.map(h.nameOf).join(', ')));
    if (!after.length && !removed.length) parts.push(w.ownersNone);
  }
  if (Array.isArray(c.due)) parts.push(c.due[1] ? w.dueSet(safe(str(c.due[1]))) : w.dueCleared);
  if (c.approved === false) parts.push(w.withdrawn(null));
  return [...parts, ...rest(c, ['title', 'fields', 'owners', 'due', 'approved'], h)];
}

/** What one history row says, in words (without its time or author). */
export function historyText(row: LogRow, h: HistoryLookup): string {
  const w = h.words.history;
  const c = asChange(row.change);
  const state = (id: unknown) => safe(h.stateName(str(id)));
  const noteWords = (id: number) => firstWords(h.noteText(id) ?? '');
  let parts: string[];
  switch (row.op) {
    case 'add': {
      parts = [w.added(state(c.state))];
      if (c.approved) parts.push(w.approved);
      const owners = ids(c.owners);
      if (owners.length) parts.push(w.ownersAdded(owners.map(h.nameOf).join(', ')));
      if (c.due) parts.push(w.dueSet(safe(str(c.due))));
      for (const [id, v] of Object.entries(asChange(c.fields))) parts.push(w.fieldSet(safe(h.fieldName(id)), plainValue(v, h.nameOf)));
      if (typeof c.note === 'number') parts.push(w.note(c.note, noteWords(c.note)));
      parts.push(...rest(c, ['title', 'state', 'approved', 'owners', 'due', 'fields', 'note'], h));
      break;
    }
    case 'edit': parts = editText(c, h); break;
    case 'move':
      parts = [c.approved ? w.movedApproving(state(c.from), state(c.to)) : w.moved(state(c.from), state(c.to)), ...rest(c, ['from', 'to', 'approved'], h)];
      break;
    case 'approve':
      parts = [c.approved === false ? w.withdrawn(c.to !== undefined && c.to !== c.from ? state(c.to) : null) : w.approved, ...rest(c, ['approved', 'from', 'to'], h)];
      break;
    case 'archive': parts = [w.archived]; break;
    case 'restore': parts = [w.restored]; break;
    case 'note': parts = [typeof c.note === 'number' ? w.note(c.note, noteWords(c.note)) : w.note(0, '')]; break;
    case 'edit-note': parts = [typeof c.note === 'number' ? w.noteEdited(c.note, noteWords(c.note)) : w.noteEdited(0, '')]; break;
    case 'attach': parts = [w.attached(safe(str(c.kind)), firstWords(str(c.ref), 60))]; break;
    case 'detach': parts = [w.detached(safe(str(c.kind)), firstWords(str(c.ref), 60))]; break;
    case 'take': {
      const until = str(c.until) ? shortWhen(str(c.until), h.now) : '?';
      parts = [c.extended ? w.claimKept(until) : w.claimed(until)];
      break;
    }
    case 'release': {
      const holder = asChange(c.holder);
      const own = !holder.id || holder.id === row.by.id;
      parts = [own ? w.releasedOwn : w.released(plainValue(holder, h.nameOf))];
      if (typeof c.note === 'number') parts.push(w.note(c.note, noteWords(c.note)));
      break;
    }
    case 'withdraw': {
      // What an agent's change changed: the title (the store's word), and fields by their names.
      const changed = [...(c.title ? [h.words.view.columns.title.toLowerCase()] : []), ...ids(c.fields).map((id) => safe(h.fieldName(id)))];
      parts = [w.withdrawnBy(changed.length ? changed.join(', ') : null, c.to !== undefined && c.to !== c.from ? state(c.to) : null)];
      break;
    }
    case 'needs': {
      const numbers = (v: unknown) => (Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number').map((n) => `#${n}`).join(', ') : '');
      const added = numbers(c.add);
      const removed = numbers(c.remove);
      parts = [...(added ? [w.needs(added)] : []), ...(removed ? [w.needsNoMore(removed)] : [])];
      break;
    }
    case 'unblocked': parts = [w.unblocked(typeof c.need === 'number' ? c.need : null, c.because === 'deleted')]; break;
    case 'lapse': parts = [w.lapsed]; break;
    case 'due': parts = [w.due(safe(str(c.due)))]; break;
    case 'delete': parts = [w.deleted]; break;
    case 'erased': parts = [w.erased]; break;
    default: {
      const what = row.change === null || row.change === undefined ? '' : plainValue(row.change, h.nameOf);
      parts = [w.other(safe(row.op.replace(/[-_]+/g, ' ')), what === '—' ? '' : what)];
    }
  }
  return parts.join(' · ');
}
