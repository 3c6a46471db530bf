/**
 * What "done" means for a record another needs, as SQL: in its list's last state, the same done
 * that `ready` uses. The one place that reads a list's states in SQL (they are kept as JSON, and
 * reading JSON is each database's own dialect).
 */
import type { Dialect } from './dialect/dialect.js';

/** True for the record aliased `o` while it is not in its list's last state. */
export const undone = (o: string, d: Dialect): string =>
  `${o}.state <> (SELECT ${d.lastState('dl')} FROM lists dl WHERE dl.id = ${o}.list)`;

/** How many records the record aliased `r` needs that are not done: a column of a record's row. */
export const blockedColumn = (d: Dialect): string => `(SELECT count(*) FROM needs bn JOIN records bo ON bo.id = bn.needed
    WHERE bn.record = r.id AND ${undone('bo', d)}) AS blocked_by`;

/**
 * What a record waits on, each kind once: the needs not done (`wn.record` waits on `wn.needed`)
 * and, where its list says children first, the records under it not done and not archived
 * (`cp.parent` waits on `cp.record`). `ready` asks that a record waits on none of them,
 * `ready --blocked` that it waits on one; neither writes a kind again.
 */
interface WaitKind { from: (d: Dialect) => string; waiter: string }
const NEEDS: WaitKind = { from: (d) => `needs wn JOIN records wo ON wo.id = wn.needed WHERE ${undone('wo', d)}`, waiter: 'wn.record' };
const CHILDREN: WaitKind = {
  from: (d) => `parents cp JOIN records co ON co.id = cp.record WHERE co.archived = 0 AND ${undone('co', d)}`, waiter: 'cp.parent',
};
const waitKinds = (list: { childrenFirst?: boolean }): WaitKind[] => (list.childrenFirst ? [NEEDS, CHILDREN] : [NEEDS]);

/** A condition on the record aliased `r`: it waits on nothing (`ready`'s), read record by record. */
export const waitsOnNothing = (d: Dialect, list: { childrenFirst?: boolean }): string =>
  waitKinds(list).map((k) => `NOT EXISTS (SELECT 1 FROM ${k.from(d)} AND ${k.waiter} = r.id)`).join(' AND ');

/** A condition on the record aliased `r`: it waits on something (`ready --blocked`'s), read from the few that wait. */
export const waitsOnSomething = (d: Dialect, list: { childrenFirst?: boolean }): string =>
  `(${waitKinds(list).map((k) => `r.id IN (SELECT ${k.waiter} FROM ${k.from(d)})`).join(' OR ')})`;

/** The ids of the records under the record `?` that keep it waiting, where its list says children first. */
export const childrenWaitedOn = (d: Dialect): string => `SELECT cp.record FROM ${CHILDREN.from(d)} AND cp.parent = ?`;
