/**
 * The folder pump's step that answers: appends the answers of asks taken (recorded in the ledger
 * with their change) to each folder's answers.jsonl, marks them told, and finds again those a
 * keeper recorded but never appended (it stopped in between). It must never answer an ask twice.
 */
import type { Store } from '../store/index.js';
import type { Answer } from './protocol.js';
import { appendAnswers } from './folder-answers.js';
import type { Folder } from './pump-types.js';
import { answerLine, told, type PumpContext } from './pump-context.js';

/** An undelivered answer older than this is appended by whichever keeper sees it. */
const RECOVER_AFTER_MS = 2000;

export interface Delivery { folder: Folder; ids: string[]; again?: string[] }

export async function deliver(pump: PumpContext, batch: Delivery[], recovery: boolean, now: number): Promise<void> {
  if (batch.length === 0) return;
  const { set } = pump;
  // This commit needs no sync of its own: lost, it is found again from the answers file (its
  // lines are looked for from the mark on), and the next synced commit carries it to disk anyway.
  await pump.store.transaction(async (tx) => {
    for (const { folder, ids, again } of batch) {
      await set.guard(folder, 'answers', () => appendAnswers(tx.ledger, set.opened(folder), ids, recovery, now, folder.answers, again));
    }
    pump.deps.crashAfterAppend?.();
    // Appended once: a conflict fails the delivery, and the recovery finds the lines in the file.
  }, { sync: false, retry: false });
}

/** Answers recorded but never appended (a keeper stopped in between): all at the first pass, then those older than ~2 s. */
export async function recover(pump: PumpContext, now: number): Promise<void> {
  const rows = await pump.store.ledger.untoldSince(pump.recoveredAll ? now - RECOVER_AFTER_MS : Number.MAX_SAFE_INTEGER);
  pump.recoveredAll = true;
  const byFolder = new Map<Folder, string[]>();
  for (const row of rows) {
    const folder = pump.set.byKey(row.dir);
    if (!folder || !pump.kept.has(folder.key)) continue;
    const ids = byFolder.get(folder) ?? [];
    ids.push(row.id);
    byFolder.set(folder, ids);
  }
  await deliver(pump, [...byFolder].map(([folder, ids]) => ({ folder, ids })), true, now);
}

/**
 * Answers an ask taken with no answer yet (a wait held), once: inside one transaction, if it is
 * still unanswered, `choose`; an answer it returns is recorded, then appended at once.
 */
export async function answerHeld(
  pump: PumpContext, key: string, id: string, op: string, want: 'json' | undefined, choose: (tx: Store) => Promise<Answer | null>,
): Promise<boolean> {
  const { set } = pump;
  const now = pump.deps.now();
  const answer = await pump.store.transaction(async (tx) => {
    if (!await tx.ledger.open(key, id)) return null;
    const given = await choose(tx);
    if (given) await tx.ledger.answer(key, id, answerLine(pump, { id, op, args: {}, at: now, want }, given, now));
    return given;
  });
  if (!answer) return false;
  set.known();
  const folder = set.byKey(key);
  // Its folder is kept no more, or by another keeper: the recovery of whoever keeps it appends it.
  if (!folder || !pump.kept.has(key)) return true;
  try {
    await deliver(pump, [{ folder, ids: [id] }], false, now);
  } finally {
    set.closeAll();
  }
  told(pump, folder, op, answer);
  return true;
}
