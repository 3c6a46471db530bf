/**
 * The brief's SQL in each engine's words: which history rows an asker is told (read in id order,
 * stopping at a page), what kind of change each is, and the asker's place moved forward only.
 * The rule is brief.ts's; here only how each engine reads the JSON the history keeps. SQLite is
 * given hints (`+l.list`, CROSS JOIN) that keep it reading the history in id order.
 */
import type { DialectName } from '../sql/port.js';

/** The history's ops a brief tells, as SQL. */
const OPS = "'add', 'move', 'approve', 'withdraw', 'note', 'lapse', 'release', 'due', 'unblocked'";

/** JSON text at a path of a TEXT column: `$.a.b` in SQLite, `{a,b}` in PostgreSQL. */
const at = (d: DialectName, column: string, ...path: string[]): string =>
  (d === 'sqlite' ? `json_extract(${column}, '$.${path.join('.')}')` : `((${column})::jsonb #>> '{${path.join(',')}}')`);

export interface BriefSql {
  /** A history row's kind of change (the same as `itemOf` decides). */
  kind: string;
  /** `log l` joined to its record `r`, as the summary counts it. */
  joined: string;
  /** The rows told, with the record's title and a note's text. */
  selectRows: string;
  /** The condition on `l` (and `r`) for the rows `who` is told, and its parameters in order. */
  told(who: { id: string; person: boolean }, lists: string[], record: number | null): { where: string; params: unknown[] };
  /** Moves the asker's place forward, never back: (who, log id). */
  cursor: string;
}

export function briefSql(d: DialectName): BriefSql {
  const sqlite = d === 'sqlite';
  const joined = sqlite ? 'log l CROSS JOIN records r ON r.id = l.record' : 'log l JOIN records r ON r.id = l.record';
  return {
    kind: `CASE l.op WHEN 'add' THEN 'added' WHEN 'move' THEN 'moved'
    WHEN 'approve' THEN CASE WHEN ${sqlite ? `${at(d, 'l.change', 'approved')} = 0` : `${at(d, 'l.change', 'approved')} = 'false'`} THEN 'withdrawn' ELSE 'approved' END
    WHEN 'withdraw' THEN 'withdrawn' WHEN 'note' THEN 'note' WHEN 'lapse' THEN 'lapsed'
    WHEN 'release' THEN CASE WHEN ${at(d, 'l.change', 'holder', 'id')} = ${at(d, 'l.by', 'id')} THEN 'released' ELSE 'taken-away' END
    WHEN 'due' THEN 'due' WHEN 'unblocked' THEN 'unblocked' END`,
    joined,
    selectRows: `SELECT l.id, l.at, l.by, l.op, l.list, l.record, l.change, r.title, n.text AS note_text
      FROM ${joined}
      LEFT JOIN notes n ON l.op = 'note' AND n.id = ${sqlite ? at(d, 'l.change', 'note') : `(${at(d, 'l.change', 'note')})::bigint`}`,
    told(who, lists, record) {
      const list = sqlite ? '+l.list' : 'l.list';
      const [which, chosen] = record !== null ? [`l.record = ? AND ${list} = ?`, [record, lists[0]]]
        : lists.length === 1 ? ['l.list = ?', [lists[0]]]
        : sqlite ? ['+l.list IN (SELECT value FROM json_each(?))', [JSON.stringify(lists)]]
        : [`l.list IN (${lists.map(() => '?').join(', ')})`, lists];
      const tell = sqlite
        ? "EXISTS (SELECT 1 FROM json_each(l.change, '$.tell') t WHERE t.value = ?)"
        : "jsonb_exists((l.change)::jsonb -> 'tell', ?)";
      const where = `${which}
        AND l.op IN (${OPS}) AND l.imported = 0
        AND (l.op IN ('lapse', 'unblocked') OR ${at(d, 'l.by', 'id')} <> ?)
        AND (l.op <> 'unblocked' OR ${tell})
        AND (? = 1 OR l.op <> 'note' OR ${at(d, 'l.by', 'kind')} = 'person' OR ${at(d, 'r.lease_by', 'id')} = ?)`;
      return { where, params: [...chosen, who.id, who.id, who.person ? 1 : 0, who.id] };
    },
    cursor: `INSERT INTO cursors (who, log_id) VALUES (?, ?)
        ON CONFLICT (who) DO UPDATE SET log_id = ${sqlite ? 'max(cursors.log_id, excluded.log_id)' : 'GREATEST(cursors.log_id, excluded.log_id)'}`,
  };
}
