/**
 * Exactly once, written once: one ask taken inside its transport's transaction — the ledger
 * looked at, the change done in a savepoint of its own, the ledger's row recorded with it — for
 * asks through a folder and over HTTP alike. The transports keep only their I/O: reading lines or
 * requests, and answering them. It must never do an ask whose id the ledger has already.
 */
import { mustRethrow } from '../store/light.js';
import type { Store } from '../store/index.js';
import type { AskRow } from '../store/index.js';
import type { Answer } from './protocol.js';

export interface AskToTake {
  /** The ledger's place (a folder's key, or an HTTP agent's) and the ask's id in it. */
  place: string;
  id: string;
  at: number;
  /**
   * The ledger's row of this id, looked up ahead: it may go to a server store with the change's
   * first statement (one round trip, not two); it is looked at before the change's savepoint ends,
   * which it undoes when the id was taken before. Undefined: no row to look for (no id of its own).
   */
  looked?: Promise<AskRow | undefined>;
  /** An ask that may be held (a wait): its hold's word, in its own savepoint — `held` to answer later. */
  hold?(inside: Store): Promise<Answer | 'held' | undefined>;
  /** Does the ask inside its savepoint. */
  perform(inside: Store): Promise<Answer>;
  /** The answer when the keeper failed on it (a bug): the ask's savepoint is undone. */
  failed(error: unknown): Answer;
  /** The ledger row's answer (null: none is kept, the ask is not recorded) and whether it is delivered already. */
  record?: (answer: Answer) => { line: string; delivered?: boolean } | null;
}

/** What taking an ask came to: taken before (its row), held for later, or done and answered. */
export type Took = { before: AskRow } | { held: true } | { answer: Answer };

/** Thrown inside an ask's savepoint to undo it: its id was taken before (the ledger's row). */
class TakenBefore extends Error {
  constructor(readonly row: AskRow) {
    super('this ask was taken before');
  }
}

export async function takeAsk(tx: Store, ask: AskToTake): Promise<Took> {
  let answer: Answer | undefined;
  try {
    if (ask.hold) {
      // A wait is not held twice: its row is looked at before it is held.
      const row = await ask.looked;
      if (row) return { before: row };
      const later = await tx.transaction(async (inner) => ask.hold!(inner));
      if (later === 'held') {
        await tx.ledger.take(ask.place, ask.id, ask.at, null);
        return { held: true };
      }
      answer = later;
    }
    answer ??= await tx.transaction(async (inner) => {
      const done = await ask.perform(inner);
      const row = await ask.looked;
      if (row) throw new TakenBefore(row);
      return done;
    });
  } catch (error) {
    if (error instanceof TakenBefore) return { before: error.row };
    if (mustRethrow(error)) throw error;
    answer = ask.failed(error);
  }
  const kept = ask.record?.(answer);
  if (kept) await tx.ledger.take(ask.place, ask.id, ask.at, kept.line, kept.delivered);
  return { answer };
}
