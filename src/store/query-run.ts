/**
 * Running a query (query.ts, made SQL by query-sql.ts) in the lists the asker can read: the same
 * lists search and show let them see, the archived ones only for a person who asks for them.
 * Reading only; every value reaches the database as a parameter.
 */
import { isPerson, visibleListRows } from './access.js';
import type { Context } from './context.js';
import type { Query } from './query.js';
import { asksArchived, queryCondition } from './query-sql.js';
import { listOf } from './rows.js';
import { indexMarked } from './text-index.js';
import type { SearchHit, State, Who } from './types.js';

/** Whether the query is words alone, all wanted, in one group: a search ranked by the index answers it. */
export const wordsAlone = (query: Query): boolean =>
  query.any.length === 1 && query.any[0]!.every((t) => t.key === 'word' && !t.not);

interface QueryRow { id: number; list: string; title: string; state: string; archived: number }

/** The records the query finds, newest first, as search's hits (the title as the snippet). */
export async function queryHits(
  ctx: Context, query: Query, who: Who, options: { limit?: number; archived?: boolean } = {},
): Promise<SearchHit[]> {
  if (query.any.length === 0) return [];
  await indexMarked(ctx, true);
  const archived = options.archived === true || asksArchived(query);
  // Archived lists are a person's to see, as search says.
  const rows = await visibleListRows(ctx, who, archived && isPerson(who));
  if (rows.length === 0) return [];
  const lists = rows.map((row) => listOf(row, {}));
  const limit = Math.max(1, Math.min(500, Math.floor(options.limit ?? 50)));
  const where = queryCondition(ctx.q.dialect, query, lists, who, ctx.now());
  const found = await ctx.q.all<QueryRow>(`SELECT r.id, r.list, r.title, r.state, r.archived FROM records r
      WHERE r.list IN (${lists.map(() => '?').join(', ')}) ${archived ? '' : 'AND r.archived = 0'} AND ${where.sql}
      ORDER BY r.id DESC LIMIT ?`, [...lists.map((l) => l.id), ...where.params, limit]);
  const byId = new Map(lists.map((l) => [l.id, l]));
  return found.map((r) => {
    const list = byId.get(r.list)!;
    const states: State[] = list.states;
    return {
      id: r.id, list: r.list, listTitle: list.title, title: r.title, state: r.state,
      stateName: states.find((s) => s.id === r.state)?.name ?? r.state,
      archived: r.archived === 1, snippet: r.title,
    };
  });
}
