/**
 * The folder pump's step that answers: appends the answers of asks taken (recorded in the ledger
 * with their change) to each folder's answers.jsonl, marks them told, and finds again those a
 * keeper recorded but never appended (it stopped in between). It must never answer an ask twice.
 *
 * A folder's answers file as this keeper's last append left it is simply appended to, and the
 * ledger's marks (told, and where the file now ends) are written with the pump's next transaction
 * rather than one of their own: a keeper that stops before is in the state the ledger has always
 * allowed for — lines appended, not marked — and the next one finds them in the file. Any other
 * file (first seen, grown or replaced by someone else) is looked at in a transaction, as before.
 */
import type { Ledger, Store } from '../store/index.js';
import type { Answer } from './protocol.js';
import { ANSWERS_MODE, appendAnswers, appendAsLeft, type AnswersMark } from './folder-answers.js';
import { closeFile, openToAppend } from './folder-files.js';
import { ANSWERS_FILE } from './protocol.js';
import type { Folder } from './pump-types.js';
import { answerLine, told, type PumpContext, type Untold } from './pump-context.js';

/** An undelivered answer older than this is appended by whichever keeper sees it. */
const RECOVER_AFTER_MS = 2000;

/** `lines`: the answers of `ids` as recorded, when the caller has them (taken just now). */
export interface Delivery { folder: Folder; ids: string[]; again?: string[]; lines?: string[] }

/** The marks a transaction writes, to be forgotten once it commits. */
export type Settling = Array<[string, Untold]>;

/** Writes, in the transaction of `ledger`, the marks of answers appended since the pump's last transaction. */
export async function settle(pump: PumpContext, ledger: Ledger): Promise<Settling> {
  const settling: Settling = [...pump.untold];
  for (const [key, untold] of settling) {
    for (const id of untold.ids) await ledger.told(key, id);
    await ledger.setAnswers(key, untold.ino, untold.offset, untold.at);
  }
  return settling;
}

/** Once the transaction that wrote them committed: those marks are not written again (newer ones stay). */
export function settled(pump: PumpContext, settling: Settling): void {
  for (const [key, untold] of settling) {
    const now = pump.untold.get(key);
    if (now === untold) pump.untold.delete(key);
    else if (now) pump.untold.set(key, { ...now, ids: now.ids.filter((id) => !untold.ids.includes(id)) });
  }
}

/** Writes the marks waiting, in a transaction of their own (none when nothing waits). */
export async function settleNow(pump: PumpContext): Promise<void> {
  if (pump.untold.size === 0) return;
  let settling: Settling = [];
  await pump.store.transaction(async (tx) => {
    settling = await settle(pump, tx.ledger);
  }, { sync: false });
  settled(pump, settling);
}

/** Appends a folder's answers where its file is as this keeper left it: true when done so. */
function deliverAsLeft(pump: PumpContext, { folder, ids, again = [], lines }: Delivery, now: number): boolean {
  const left = pump.answersLeft.get(folder.key);
  if (!left || !lines || lines.length !== ids.length || !pump.kept.has(folder.key)) return false;
  const open = pump.set.opened(folder);
  const file = folder.answers ?? openToAppend(open, ANSWERS_FILE, ANSWERS_MODE);
  try {
    // Nothing is awaited from the look at the file to the record of where it is left.
    const after = appendAsLeft(open, file, left, [...lines, ...again]);
    if (!after) return false;
    pump.answersLeft.set(folder.key, after);
    const before = pump.untold.get(folder.key);
    pump.untold.set(folder.key, { ...after, ids: [...(before?.ids ?? []), ...ids], at: now });
  } catch (error) {
    pump.answersLeft.delete(folder.key);
    throw error;
  } finally {
    if (file !== folder.answers) closeFile(file);
  }
  pump.deps.crashAfterAppend?.();
  pump.settleSoon();
  return true;
}

export async function deliver(pump: PumpContext, batch: Delivery[], recovery: boolean, now: number): Promise<void> {
  const { set } = pump;
  const rest: Delivery[] = recovery ? batch : [];
  for (const delivery of recovery ? [] : batch) {
    // A folder whose append failed (noted by the guard) is left to the recovery, as a transaction undone would be.
    let asLeft: boolean | null = null;
    await set.guard(delivery.folder, 'answers', () => { asLeft = deliverAsLeft(pump, delivery, now); });
    if (asLeft === false) rest.push(delivery);
  }
  if (rest.length === 0) return;
  const left = new Map<string, AnswersMark>();
  let settling: Settling = [];
  for (const { folder } of rest) pump.answersLeft.delete(folder.key);
  // This commit needs no sync of its own: lost, it is found again from the answers file (its
  // lines are looked for from the mark on), and the next synced commit carries it to disk anyway.
  await pump.store.transaction(async (tx) => {
    left.clear();
    settling = await settle(pump, tx.ledger);
    for (const { folder, ids, again } of rest) {
      await set.guard(folder, 'answers', async () => {
        const after = await appendAnswers(tx.ledger, set.opened(folder), ids, recovery, now, folder.answers, again);
        if (after) left.set(folder.key, after);
      });
    }
    pump.deps.crashAfterAppend?.();
    // Appended once: a conflict fails the delivery, and the recovery finds the lines in the file.
  }, { sync: false, retry: false });
  settled(pump, settling);
  for (const [key, after] of left) pump.answersLeft.set(key, after);
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
  let line = '';
  const answer = await pump.store.transaction(async (tx) => {
    if (!await tx.ledger.open(key, id)) return null;
    const given = await choose(tx);
    if (given) {
      line = answerLine(pump, { id, op, args: {}, at: now, want }, given, now);
      await tx.ledger.answer(key, id, line);
    }
    return given;
  });
  if (!answer) return false;
  set.known();
  const folder = set.byKey(key);
  // Its folder is kept no more, or by another keeper: the recovery of whoever keeps it appends it.
  if (!folder || !pump.kept.has(key)) return true;
  try {
    await deliver(pump, [{ folder, ids: [id], lines: [line] }], false, now);
  } finally {
    set.closeAll();
  }
  told(pump, folder, op, answer);
  return true;
}
