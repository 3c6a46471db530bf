/**
 * An import's lists and numbers: the lists a binder export brings (made anew, their ids changed
 * only where taken here), or the list foreign records go into; and the numbers records, notes and
 * attachments get — their own where never given here, the next free ones where taken. A number
 * once given is never given again. Nothing here writes a record.
 */
import { findList } from './access.js';
import { iso, type Context } from './context.js';
import type { ImportPlan, IncomingList, MovingRow } from './exchange-types.js';
import { FIELD_TYPES, oneGate } from './list-admin.js';
import { listOf, type ListRow } from './rows.js';
import { slug, uniqueSlug } from './slug.js';
import { Refused } from './store.js';
import type { Field, List, State, Who } from './types.js';
import { cleanName, cleanTitle } from './values.js';
import { refusal, refusalSaid } from './words/index.js';

/** A refusal for the line `line` of the file: `Line 12: …`. */
export function atLine(line: number | undefined, error: Refused): Refused {
  if (line === undefined) return error;
  return refusalSaid((w, language) => w.atLine(line, language === 'fr' ? error.fr ?? error.message : error.message));
}

/** Runs `fn`, its refusal said for the line `line`. */
export async function onLine<T>(line: number | undefined, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof Refused) throw atLine(line, error);
    throw error;
  }
}

/** An author as a file says it: person or agent, with a name. */
export function cleanWho(given: Who): Who {
  const kind = given.kind;
  if ((kind !== 'person' && kind !== 'agent') || !given.id.startsWith(`${kind}:`) || given.id.length <= kind.length + 1
    || given.id.length > 200 || !given.name.trim() || given.name.length > 200) {
    throw refusal('importNotWho', [given.id.slice(0, 40)]);
  }
  return { id: given.id, kind, name: given.name };
}

/** A time as a file gives it, as an ISO time in UTC; `fallback` when none is given. */
export function cleanTime(given: string | undefined, fallback: string): string {
  if (given === undefined || given === '') return fallback;
  const ms = Date.parse(given);
  if (Number.isNaN(ms)) throw refusal('importNotTime', [given.slice(0, 40)]);
  const out = iso(ms);
  // Kept as written when it is already an ISO time in UTC: a round trip changes nothing.
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(given) ? given : out;
}

function cleanStates(given: readonly State[]): State[] {
  if (given.length === 0) throw refusal('listNeedsState', []);
  const out: State[] = [];
  for (const s of given) {
    const name = cleanName(s.name, 'nameOfAState');
    if (!s.id || slug(s.id) !== s.id || out.some((o) => o.id === s.id || o.name.toLowerCase() === name.toLowerCase())) {
      throw refusal('importStateNoId', [name]);
    }
    out.push({ id: s.id, name, gate: s.gate === true });
  }
  if (out[0]!.gate) throw refusal('importFirstGate', [out[0]!.name]);
  const gates = out.filter((s) => s.gate);
  if (gates.length > 1) throw oneGate(gates);
  return out;
}

function cleanFields(given: readonly Field[]): Field[] {
  const out: Field[] = [];
  for (const f of given) {
    const name = cleanName(f.name, 'nameOfAField');
    if (!f.id || slug(f.id) !== f.id || out.some((o) => o.id === f.id || o.name.toLowerCase() === name.toLowerCase()) || !FIELD_TYPES.includes(f.type)) {
      throw refusal('importFieldNotUnderstood', [name]);
    }
    const field: Field = { id: f.id, name, type: f.type };
    if (f.type === 'choice') {
      const choices = (f.choices ?? []).map((c) => cleanName(c, 'nameOfAChoice'));
      if (choices.length === 0) throw refusal('importNoChoices', [name]);
      field.choices = choices;
    }
    out.push(field);
  }
  return out;
}

/** Writes history rows brought whole by an import: marked so that no brief tells them as news. */
export async function keepRows(ctx: Context, rows: readonly MovingRow[], list: string | null, record: number | null, remap: (row: MovingRow) => unknown): Promise<void> {
  for (const row of rows) {
    const change = remap(row);
    await ctx.q.run('INSERT INTO log (at, by, op, list, record, change, imported) VALUES (?, ?, ?, ?, ?, ?, 1)',
      [cleanTime(row.at, row.at), JSON.stringify(cleanWho(row.by)), String(row.op).slice(0, 40), list, record,
        change === null || change === undefined ? null : JSON.stringify(change)]);
  }
}

/** Makes the lists a binder export brings; their keys in the file, to the lists made. */
export async function bringLists(ctx: Context, given: readonly IncomingList[], made: { from: string; id: string; title: string }[]): Promise<Map<string, List>> {
  const out = new Map<string, List>();
  const position = (await ctx.q.value('SELECT coalesce(max(position), 0) FROM lists')) as number;
  const ids = new Set(await ctx.q.column<string>('SELECT id FROM lists'));
  const taken = (id: string): boolean => ids.has(id);
  for (const [i, l] of given.entries()) await onLine(l.line, async () => {
    if (out.has(l.id)) throw refusal('importListTwice', [l.id]);
    const title = cleanTitle(l.title, 'titleOfAList');
    const states = cleanStates(l.states);
    const fields = cleanFields(l.fields);
    const id = uniqueSlug(slug(l.id) || slug(title) || 'list', taken);
    const at = iso(ctx.now());
    ids.add(id);
    (await ctx.q.run(`INSERT INTO lists (id, title, states, fields, view, archived, position, created, updated, children_first)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [id, title, JSON.stringify(states), JSON.stringify(fields),
      l.view === 'table' ? 'table' : 'board', l.archived ? 1 : 0, position + 1 + i, cleanTime(l.created, at), cleanTime(l.updated, at),
      l.childrenFirst === true ? 1 : 0]));
    for (const [agent, level] of Object.entries(l.access)) {
      if (!/^agent:[a-z0-9-]+$/.test(agent) || (level !== 'read' && level !== 'write')) {
        throw refusal('importNotAccess', [agent.slice(0, 40)]);
      }
      (await ctx.q.run('INSERT INTO access (list, agent, level) VALUES (?, ?, ?)', [id, agent, level]));
    }
    await keepRows(ctx, l.history, id, null, (row) => row.change);
    out.set(l.id, listOf((await ctx.q.get('SELECT * FROM lists WHERE id = ?', [id])) as ListRow, {}));
    made.push({ from: l.id, id, title });
  });
  return out;
}

/** The refusal of an import of another tool's records that says no list to put them in. */
export const noInto = (format: ImportPlan['format']): Refused => refusal('importNoInto', [format]);

/** The list foreign records go into, as the person may change it. */
export async function intoList(ctx: Context, into: string | undefined, who: Who, plan: ImportPlan): Promise<List> {
  if (into === undefined || into.trim() === '') throw noInto(plan.format);
  const { list } = await findList(ctx, into, who, 'write');
  if (list.archived) {
    throw refusal('importIntoArchived', [list.title, list.id]);
  }
  return list;
}

/**
 * The highest number a file's may keep: the 15 digits every face reads a record's number in. Past
 * it (up to 2^53), the numbers after it would meet where a double can no longer tell them apart.
 */
export const NUMBER_MAX = 999_999_999_999_999;
const keepable = (n: number | undefined): n is number => n !== undefined && Number.isSafeInteger(n) && n > 0 && n <= NUMBER_MAX;

/** Numbers for things of the file: their own where never given here (and readable), else the next free ones. */
export function numbering(used: number, given: readonly (number | undefined)[]): number[] {
  let top = used;
  for (const n of given) if (keepable(n) && n > top) top = n;
  let next = top + 1;
  const seen = new Set<number>();
  return given.map((n) => {
    if (!keepable(n) || n <= used || seen.has(n)) return next++;
    seen.add(n);
    return n;
  });
}
