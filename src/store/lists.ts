/**
 * Reading lists: the lists an asker can see with their counts, one list, and a page of its
 * records by state. A page is read per state through the (list, archived, state, id) index,
 * so a list of a hundred thousand records is never scanned whole.
 */
import { findList, personOnly, visibleListRows } from './access.js';
import type { Context } from './context.js';
import { recordColumns, recordOf, type RecordRow } from './rows.js';
import type { ShowOptions } from './store.js';
import type { ListPage, ListSummary, State, Who } from './types.js';
import { findState } from './values.js';
import { countsOf, stateCounts } from './counts.js';
import { parseQuery } from './query.js';
import { asksArchived, queryCondition } from './query-sql.js';
import { indexMarked } from './text-index.js';

const PAGE = 50;
const MAX_PAGE = 1000;

export async function lists(ctx: Context, who: Who, options: { archived?: boolean } = {}): Promise<ListSummary[]> {
  if (options.archived === true) personOnly(who, 'lists --archived', (w) => w.seeArchivedLists());
  const rows = await visibleListRows(ctx, who, options.archived === true);
  const out: ListSummary[] = [];
  for (const row of rows) {
    const states = JSON.parse(row.states) as State[];
    const gate = states.findIndex((s) => s.gate);
    const before = new Set(gate > 0 ? states.slice(0, gate).map((s) => s.id) : []);
    let count = 0;
    let waiting = 0;
    for (const c of await countsOf(ctx, row.id)) {
      count += c.n;
      if (c.approved === 0 && before.has(c.state)) waiting += c.n;
    }
    out.push({
      id: row.id,
      title: row.title,
      view: row.view as ListSummary['view'],
      archived: row.archived === 1,
      count,
      waiting,
      access: row.level,
    });
  }
  return out;
}

const whole = (n: number | undefined, fallback: number, max: number): number =>
  n === undefined || !Number.isFinite(n) ? fallback : Math.max(0, Math.min(max, Math.floor(n)));

export async function show(ctx: Context, ref: string, who: Who, options: ShowOptions = {}): Promise<ListPage> {
  const { list, access } = await findList(ctx, ref, who, 'read');
  const query = parseQuery(options.query ?? '');
  const archived = options.archived === true || asksArchived(query) ? 1 : 0;
  const states = options.state !== undefined && String(options.state).trim() !== ''
    ? [findState(list, options.state)]
    : list.states;
  const limit = whole(options.limit, PAGE, MAX_PAGE);
  const offset = whole(options.offset, 0, Number.MAX_SAFE_INTEGER);
  const asked = query.any.length > 0;
  if (asked) await indexMarked(ctx, true);
  const where = asked ? queryCondition(ctx.q.dialect, query, [list], who, ctx.now()) : undefined;
  // --mine and a query narrow alike: the records counted are those shown.
  const mine = [options.mine === true ? `AND ${ctx.q.dialect.arrayHas('r.owners')}` : '', where ? `AND ${where.sql}` : ''].join(' ');
  const mineParams = [...(options.mine === true ? [who.id] : []), ...(where?.params ?? [])];

  // Without --mine the counts are kept ones; with it, only the asker's records are counted.
  const counted = mine.trim() !== ''
    ? await ctx.q.all<{ state: string; n: number }>(`SELECT r.state, count(*) AS n FROM records r
      WHERE r.list = ? AND r.archived = ? ${mine} GROUP BY r.state`, [list.id, archived, ...mineParams])
    : await stateCounts(ctx, list.id, archived);
  const byState = new Map(counted.map((c) => [c.state, c.n]));

  const records = [];
  const counts: Record<string, number> = {};
  const more: Record<string, number> = {};
  for (const state of states) {
    const total = byState.get(state.id) ?? 0;
    counts[state.id] = total;
    const rows = total > offset && limit > 0
      ? await ctx.q.all<RecordRow>(`SELECT ${recordColumns(ctx.q.dialect)} FROM records r
        WHERE r.list = ? AND r.archived = ? AND r.state = ? ${mine}
        ORDER BY r.id LIMIT ? OFFSET ?`, [list.id, archived, state.id, ...mineParams, limit, offset])
      : [];
    more[state.id] = Math.max(0, total - offset - rows.length);
    for (const row of rows) records.push(recordOf(row));
  }
  return { list, access, records, counts, more };
}
