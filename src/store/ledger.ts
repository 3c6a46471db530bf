/**
 * The keeper's ledger, kept in the store beside the binder: every ask taken (by its place — a
 * folder's binding, or an HTTP agent's place — and its id, unique in the database), where the
 * keepers stand in each folder's files, and the waits held open. Written once over the SQL port,
 * for both engines. Every function that writes runs inside the caller's transaction, the same as
 * the ask's change: an ask is done exactly once, whichever keeper takes it.
 */
import type { Sql } from './sql/port.js';

/** Where the keepers of this store stand in one folder's files. */
export interface MarkRow {
  asks_ino: string;
  asks_offset: number;
  asks_skipping: number;
  answers_ino: string;
  answers_offset: number;
  last_ask: number;
  compacted: number;
}

/** An ask as the ledger keeps it: when it was taken, its answer line while kept, whether delivered. */
export interface AskRow { at: number; answer: string | null; delivered: number }

export interface WaitRow { dir: string; id: string; who: string; args: string; want: string | null; at: number; until: number }

export interface Ledger {
  /** Takes what the ledger kept under a folder's path `dir` as its binding `key`'s. */
  adopt(dir: string, key: string): Promise<void>;
  mark(dir: string): Promise<MarkRow | undefined>;
  /** Where asks.jsonl is read from next; a new mark's compaction clock starts at `since`. */
  setAsks(dir: string, ino: string, offset: number, skipping: number, lastAsk: number, since: number): Promise<void>;
  setAnswers(dir: string, ino: string, offset: number, since: number): Promise<void>;
  setCompacted(dir: string, at: number): Promise<void>;
  /** Forgets where keepers stood in these folders' files (registered again: read afresh). */
  dropMarks(dirs: readonly string[]): Promise<void>;
  recorded(dir: string, id: string): Promise<AskRow | undefined>;
  /** An ask taken, with its answer line (null: a wait held, no answer yet). */
  take(dir: string, id: string, at: number, answer: string | null, delivered?: boolean): Promise<void>;
  /** Is the ask taken and still unanswered (a wait held)? */
  open(dir: string, id: string): Promise<boolean>;
  /** The answer of an ask held until now; `delivered` when it is given at once (HTTP). */
  answer(dir: string, id: string, answer: string, delivered?: boolean): Promise<void>;
  /** Asks of `dir` answered and not delivered yet. */
  untold(dir: string): Promise<{ id: string; answer: string }[]>;
  /** Asks of every place answered by `at` and not delivered yet. */
  untoldSince(at: number): Promise<{ dir: string; id: string }[]>;
  told(dir: string, id: string): Promise<void>;
  /** Answers delivered before `before`: only the id is kept, to know a replay. */
  forget(before: number): Promise<void>;
  /** Asks taken before `before`, forgotten whole. */
  drop(before: number): Promise<void>;

  /* ---- waits held ---- */
  hold(row: WaitRow): Promise<void>;
  held(dir: string, id: string): Promise<WaitRow | undefined>;
  unhold(dir: string, id: string): Promise<boolean>;
  /** The waits held for these places, and for every place starting with one of `starts`. */
  heldIn(dirs: readonly string[], starts: readonly string[]): Promise<WaitRow[]>;
}

const MARK = 'SELECT asks_ino, asks_offset, asks_skipping, answers_ino, answers_offset, last_ask, compacted FROM folder_marks WHERE dir = ?';

export function ledgerOver(q: Sql): Ledger {
  const inList = (n: number): string => Array.from({ length: n }, () => '?').join(', ');
  return {
    async adopt(dir, key) {
      for (const [table, same] of [['asks', 'f.id = asks.id'], ['folder_marks', 'TRUE'], ['waits', 'f.id = waits.id']] as const) {
        // A row the binding has already wins: the path's is dropped.
        await q.run(`UPDATE ${table} SET dir = ? WHERE dir = ? AND NOT EXISTS (SELECT 1 FROM ${table} f WHERE f.dir = ? AND ${same})`,
          [key, dir, key]);
        await q.run(`DELETE FROM ${table} WHERE dir = ?`, [dir]);
      }
    },
    mark: (dir) => q.get<MarkRow>(MARK, [dir]),
    async setAsks(dir, ino, offset, skipping, lastAsk, since) {
      await q.run(`INSERT INTO folder_marks (dir, asks_ino, asks_offset, asks_skipping, last_ask, compacted) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (dir) DO UPDATE SET asks_ino = excluded.asks_ino, asks_offset = excluded.asks_offset,
          asks_skipping = excluded.asks_skipping, last_ask = excluded.last_ask`, [dir, ino, offset, skipping, lastAsk, since]);
    },
    async setAnswers(dir, ino, offset, since) {
      await q.run(`INSERT INTO folder_marks (dir, answers_ino, answers_offset, compacted) VALUES (?, ?, ?, ?)
        ON CONFLICT (dir) DO UPDATE SET answers_ino = excluded.answers_ino, answers_offset = excluded.answers_offset`, [dir, ino, offset, since]);
    },
    async setCompacted(dir, at) {
      await q.run('UPDATE folder_marks SET compacted = ? WHERE dir = ?', [at, dir]);
    },
    async dropMarks(dirs) {
      if (dirs.length) await q.run(`DELETE FROM folder_marks WHERE dir IN (${inList(dirs.length)})`, dirs);
    },
    recorded: (dir, id) => q.get<AskRow>('SELECT at, answer, delivered FROM asks WHERE dir = ? AND id = ?', [dir, id]),
    async take(dir, id, at, answer, delivered = false) {
      q.later('INSERT INTO asks (dir, id, at, answer, delivered) VALUES (?, ?, ?, ?, ?)', [dir, id, at, answer, delivered ? 1 : 0]);
    },
    open: async (dir, id) => (await q.get('SELECT 1 AS one FROM asks WHERE dir = ? AND id = ? AND answer IS NULL AND delivered = 0', [dir, id])) !== undefined,
    async answer(dir, id, answer, delivered = false) {
      await q.run(delivered ? 'UPDATE asks SET answer = ?, delivered = 1 WHERE dir = ? AND id = ?' : 'UPDATE asks SET answer = ? WHERE dir = ? AND id = ?',
        [answer, dir, id]);
    },
    // An ask taken with no answer yet (one held open until something changes) is not ready: left alone.
    // By the index of undelivered asks: by the key, every ask of the folder this week would be read.
    untold: (dir) => q.all<{ id: string; answer: string }>(`SELECT id, answer FROM ${q.dialect.readBy('asks', 'asks', 'asks_undelivered')}
      WHERE delivered = 0 AND dir = ? AND answer IS NOT NULL`, [dir]),
    untoldSince: (at) => q.all<{ dir: string; id: string }>('SELECT dir, id FROM asks WHERE delivered = 0 AND at <= ? AND answer IS NOT NULL', [at]),
    async told(dir, id) {
      await q.run('UPDATE asks SET delivered = 1 WHERE dir = ? AND id = ?', [dir, id]);
    },
    async forget(before) {
      await q.run('UPDATE asks SET answer = NULL WHERE delivered = 1 AND answer IS NOT NULL AND at < ?', [before]);
    },
    async drop(before) {
      await q.run('DELETE FROM asks WHERE at < ?', [before]);
    },
    async hold(w) {
      await q.run('INSERT INTO waits (dir, id, who, args, want, at, until) VALUES (?, ?, ?, ?, ?, ?, ?)', [w.dir, w.id, w.who, w.args, w.want, w.at, w.until]);
    },
    held: (dir, id) => q.get<WaitRow>('SELECT * FROM waits WHERE dir = ? AND id = ?', [dir, id]),
    unhold: async (dir, id) => (await q.run('DELETE FROM waits WHERE dir = ? AND id = ?', [dir, id])).changes > 0,
    async heldIn(dirs, starts) {
      const rows: WaitRow[] = [];
      if (dirs.length) rows.push(...await q.all<WaitRow>(`SELECT * FROM waits WHERE dir IN (${inList(dirs.length)})`, dirs));
      for (const start of starts) {
        rows.push(...await q.all<WaitRow>('SELECT * FROM waits WHERE substr(dir, 1, ?) = ?', [start.length, start]));
      }
      const seen = new Set<string>();
      return rows.filter((row) => {
        const k = `${row.dir}\n${row.id}`;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
    },
  };
}
