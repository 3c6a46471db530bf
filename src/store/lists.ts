/**
 * Reading lists: the lists an asker can see with their counts, one list, and a page of its
 * records by state. A page is read per state through the (list, archived, state, id) index,
 * so a list of a hundred thousand records is never scanned whole.
 */
import { findList, personOnly, visibleListRows } from './access.js';
import type { Context } from './context.js';
import { RECORD_COLUMNS, recordOf, type RecordRow } from './rows.js';
import type { ShowOptions } from './store.js';
import type { ListPage, ListSummary, State, Who } from './types.js';
import { findState } from './values.js';

const PAGE = 50;
const MAX_PAGE = 1000;

export function lists(ctx: Context, who: Who, options: { archived?: boolean } = {}): ListSummary[] {
  if (options.archived === true) personOnly(who, 'see the archived lists', 'lists --archived', 'voir les listes archivées');
  const rows = visibleListRows(ctx, who, options.archived === true);
  const counted = ctx.db.prepare('SELECT state, approved, n FROM record_counts WHERE list = ? AND archived = 0');
  return rows.map((row) => {
    const states = JSON.parse(row.states) as State[];
    const gate = states.findIndex((s) => s.gate);
    const before = new Set(gate > 0 ? states.slice(0, gate).map((s) => s.id) : []);
    let count = 0;
    let waiting = 0;
    for (const c of counted.all(row.id) as { state: string; approved: number; n: number }[]) {
      count += c.n;
      if (c.approved === 0 && before.has(c.state)) waiting += c.n;
    }
    return {
      id: row.id,
      title: row.title,
      view: row.view as ListSummary['view'],
      archived: row.archived === 1,
      count,
      waiting,
      access: row.level,
    };
  });
}

const whole = (n: number | undefined, fallback: number, max: number): number =>
  n === undefined || !Number.isFinite(n) ? fallback : Math.max(0, Math.min(max, Math.floor(n)));

export function show(ctx: Context, ref: string, who: Who, options: ShowOptions = {}): ListPage {
  const { list, access } = findList(ctx, ref, who, 'read');
  const archived = options.archived === true ? 1 : 0;
  const states = options.state !== undefined && String(options.state).trim() !== ''
    ? [findState(list, options.state)]
    : list.states;
  const limit = whole(options.limit, PAGE, MAX_PAGE);
  const offset = whole(options.offset, 0, Number.MAX_SAFE_INTEGER);
  const mine = options.mine === true ? 'AND EXISTS (SELECT 1 FROM json_each(r.owners) WHERE value = @who)' : '';
  const params = { list: list.id, archived, who: who.id };

  // Without --mine the counts are kept ones; with it, only the asker's records are counted.
  const counted = (mine
    ? ctx.db.prepare(`SELECT r.state, count(*) AS n FROM records r
      WHERE r.list = @list AND r.archived = @archived ${mine} GROUP BY r.state`).all(params)
    : ctx.db.prepare(`SELECT state, sum(n) AS n FROM record_counts
      WHERE list = @list AND archived = @archived GROUP BY state`).all(params)) as { state: string; n: number }[];
  const byState = new Map(counted.map((c) => [c.state, c.n]));
  const page = ctx.db.prepare(`SELECT ${RECORD_COLUMNS} FROM records r
      WHERE r.list = @list AND r.archived = @archived AND r.state = @state ${mine}
      ORDER BY r.id LIMIT @limit OFFSET @offset`);

  const records = [];
  const counts: Record<string, number> = {};
  const more: Record<string, number> = {};
  for (const state of states) {
    const total = byState.get(state.id) ?? 0;
    counts[state.id] = total;
    const rows = total > offset && limit > 0
      ? (page.all({ ...params, state: state.id, limit, offset }) as RecordRow[])
      : [];
    more[state.id] = Math.max(0, total - offset - rows.length);
    for (const row of rows) records.push(recordOf(row));
  }
  return { list, access, records, counts, more };
}
