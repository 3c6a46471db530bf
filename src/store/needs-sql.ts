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

/** A condition on the record aliased `r`: no record under it (not archived) is not done. */
export const childrenDone = (d: Dialect): string => `NOT EXISTS (SELECT 1 FROM parents cp JOIN records co ON co.id = cp.record
    WHERE cp.parent = r.id AND co.archived = 0 AND ${undone('co', d)})`;

/** A condition on the record aliased `r`: it needs nothing that is not done. */
export const notBlocked = (d: Dialect): string => `NOT EXISTS (SELECT 1 FROM needs wn JOIN records wo ON wo.id = wn.needed
    WHERE wn.record = r.id AND ${undone('wo', d)})`;
