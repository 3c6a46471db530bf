/**
 * Records under records: a record's one parent, in any list the asker can change; the children
 * `get` names with their states; a parent kept from its list's last state while a child is not
 * done. A parent never lies under its own child: the loop is refused by name.
 */
import { findRecord, recordNumber } from './access.js';
import type { Context } from './context.js';
import { childrenWaitedOn } from './needs-sql.js';
import type { State, Who } from './types.js';
import { refusal } from './words/index.js';

/** A record lies at most this deep under others: past it, the chain is a list of its own. */
const DEPTH_MAX = 50;

/** The parent given: `none` or empty for none, else a record's number. */
export const parentGiven = (ref: number | string): number | null =>
  typeof ref === 'string' && ['', 'none', 'aucun', 'aucune'].includes(ref.trim().toLowerCase()) ? null : recordNumber(ref);

/**
 * Looks up a new record's parent before the record is made: a number not given yet would be the
 * new record's own, and would read as "its own parent" once it was made.
 */
export async function parentBeforeAdding(ctx: Context, ref: number | string, who: Who): Promise<void> {
  const parent = parentGiven(ref);
  if (parent !== null) await findRecord(ctx, parent, who, 'write');
}

/** The records above `id`, its parent first. */
async function above(ctx: Context, id: number): Promise<number[]> {
  const chain: number[] = [];
  for (let at: number | undefined = id; chain.length <= DEPTH_MAX;) {
    at = await ctx.q.value<number>('SELECT parent FROM parents WHERE record = ?', [at]);
    if (at === undefined || at === null) break;
    chain.push(Number(at));
  }
  return chain;
}

/**
 * Puts `id` under `ref` (or under nothing). The asker writes to both lists (a record it cannot
 * see is refused as an absent one); a record is never its own parent nor under its own child.
 * Returns the parent before and after, or null when nothing changed.
 */
export async function setParent(ctx: Context, id: number, ref: number | string, who: Who): Promise<[number | null, number | null] | null> {
  const before = (await ctx.q.value<number>('SELECT parent FROM parents WHERE record = ?', [id])) ?? null;
  const parent = parentGiven(ref);
  if (parent === (before === null ? null : Number(before))) return null;
  if (parent === null) {
    await ctx.q.run('DELETE FROM parents WHERE record = ?', [id]);
    return [Number(before), null];
  }
  if (parent === id) throw refusal('parentItself', [id]);
  await findRecord(ctx, parent, who, 'write');
  const chain = await above(ctx, parent);
  if (chain.includes(id)) {
    const loop = [parent, ...chain.slice(0, chain.indexOf(id) + 1)];
    throw refusal('parentLoop', [id, parent, loop.map((n) => `#${n}`).join(' under ')]);
  }
  if (chain.length >= DEPTH_MAX) throw refusal('parentTooDeep', [DEPTH_MAX]);
  await ctx.q.run('DELETE FROM parents WHERE record = ?', [id]);
  await ctx.q.run('INSERT INTO parents (record, parent) VALUES (?, ?)', [id, parent]);
  return [before === null ? null : Number(before), parent];
}

/** Refuses moving `id` into its list's last state while any child of it is not done, naming them. */
export async function childrenFirst(ctx: Context, id: number, to: string, states: readonly State[]): Promise<void> {
  if (states[states.length - 1]?.id !== to) return;
  // The children it would wait on in `ready` where its list says children first: one rule for both.
  const open = await ctx.q.column<number>(`SELECT o.id FROM records o WHERE o.id IN (${childrenWaitedOn(ctx.q.dialect)}) ORDER BY o.id`, [id]);
  if (open.length > 0) throw refusal('childrenNotDone', [id, open.map((n) => `#${n}`).join(', ')]);
}
