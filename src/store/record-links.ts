/**
 * A record's links to others as an asker may see them: the records it needs and those that need
 * it, its parent and its children. `get` reads all four in one statement: every read asks it,
 * and most records have none (a statement more a read cost SQLite's keeper ~5 µs, a server's a
 * part of its pipeline). A record in a list the asker cannot see is never named to it.
 */
import { isPerson, visibleListRows } from './access.js';
import type { Context } from './context.js';
import type { NeedLink, RecordView, State, Who } from './types.js';

export interface LinkRow { id: number; title: string; list: string; state: string; states: string }

export const LINK_COLUMNS = 'o.id, o.title, o.list, o.state, ol.states';

/** Done: in its list's last state (a list has one at least). */
const isDone = (state: string, states: readonly State[]): boolean => states[states.length - 1]?.id === state;

export function linkOf(row: LinkRow): NeedLink {
  const states = JSON.parse(row.states) as State[];
  return {
    id: row.id,
    title: row.title,
    list: row.list,
    state: row.state,
    stateName: states.find((s) => s.id === row.state)?.name ?? row.state,
    done: isDone(row.state, states),
  };
}

/** The lists `who` can see, or null for a person (every list). */
export async function seenLists(ctx: Context, who: Who): Promise<Set<string> | null> {
  if (isPerson(who)) return null;
  return new Set((await visibleListRows(ctx, who, false)).map((l) => l.id));
}

export const seen = (lists: Set<string> | null, list: string): boolean => lists === null || lists.has(list);

/** Each way a record is linked, by its number in the statement: the table, the other end, this end. */
const WAYS = [
  ['needs', 'needed', 'record'], // 0: the records it needs
  ['needs', 'record', 'needed'], // 1: the records that need it
  ['parents', 'parent', 'record'], // 2: its parent
  ['parents', 'record', 'parent'], // 3: its children
] as const;

/**
 * The rows of the first `count` ways, each with its number (`way`), of the record `record` (a
 * parameter, or a column). The other ends are found first, then joined to their records once:
 * a join written in each way made PostgreSQL start four joins on every page, most of them for no
 * row (bench/postgres-page: the page's statement in 0.80–0.87× the time); SQLite reads either as fast.
 */
const waysOf = (count: number, record: string): string => `SELECT w.way, ${LINK_COLUMNS} FROM (${
  WAYS.slice(0, count).map(([table, other, self], way) => `SELECT ${way} AS way, ${other} AS other FROM ${table} WHERE ${self} = ${record}`).join(' UNION ALL ')
}) w JOIN records o ON o.id = w.other JOIN lists ol ON ol.id = o.list`;
const NEEDS_SQL = `${waysOf(2, '?')} ORDER BY 1, 2`;
const ALL_SQL = `${waysOf(4, '?')} ORDER BY 1, 2`;
/**
 * How many of the records it needs are not done, from its links read every way (the rows of
 * way 0, in every list, seen by the asker or not): the count `blocked_by` says (needs-sql.ts),
 * for a statement that reads the links whole and so does not count them again.
 */
export function undoneNeeds(rows: readonly (LinkRow & { way: number })[]): number {
  return rows.filter((r) => r.way === 0 && !isDone(r.state, JSON.parse(r.states) as State[])).length;
}

/** The record `r`'s links every way, as rows of recordLinks' statement, for a column of another (Dialect.rowsAsJson). */
export const LINKS_OF_R = waysOf(4, 'r.id');
/** How LINKS_OF_R's rows are ordered, as recordLinks' statement orders them. */
export const LINKS_ORDER = 'x.way, x.id';

export type RecordLinks = Required<Pick<RecordView, 'needs' | 'neededBy' | 'children'>> & Pick<RecordView, 'hiddenNeeds' | 'parent'>;

/** The record's links as `who` may see them; `family` false reads its needs alone (both ways). */
export async function recordLinks(ctx: Context, id: number, who: Who, family = true): Promise<RecordLinks> {
  const rows = family
    ? await ctx.q.all<LinkRow & { way: number }>(ALL_SQL, [id, id, id, id])
    : await ctx.q.all<LinkRow & { way: number }>(NEEDS_SQL, [id, id]);
  return linksShown(ctx, rows, who);
}

/** The links read (each way's rows, in order) as `who` may see them. */
export async function linksShown(ctx: Context, rows: (LinkRow & { way: number })[], who: Who): Promise<RecordLinks> {
  // Most records are linked to none: then whose lists are seen is not asked.
  if (rows.length === 0) return { needs: [], neededBy: [], children: [] };
  const lists = await seenLists(ctx, who);
  const shown = (way: number): NeedLink[] => rows.filter((r) => r.way === way && seen(lists, r.list)).map(linkOf);
  const hidden = rows.filter((r) => r.way === 0 && !seen(lists, r.list)).map(linkOf).filter((l) => !l.done).length;
  const [parent] = shown(2);
  return {
    needs: shown(0),
    neededBy: shown(1),
    ...(hidden ? { hiddenNeeds: hidden } : {}),
    ...(parent ? { parent } : {}),
    children: shown(3),
  };
}
