/**
 * The folder pump when the store's disk is full: nothing read can be recorded, so each ask read
 * is answered with a refusal at once, and remembered so that it is answered once and recorded
 * once there is room. It must never refuse one ask twice, even with two keepers at work.
 */
import type { Answer } from './protocol.js';
import type { Ask } from './folder-lines.js';
import type { OpenFolder } from './folder-bind.js';
import { answeredUnrecorded, appendUnrecorded } from './folder-answers.js';
import type { Store } from '../store/index.js';
import { DISK_FULL_TEXT, type Folder, type Reading } from './pump-types.js';

/** What the refusals need of the pump. */
export interface FullDiskTools {
  store: Store;
  /** Runs the work for one folder; a problem with the folder is noted for it alone. */
  guard(folder: Folder, where: string, work: () => void | Promise<void>): Promise<void>;
  /** The folder's directory, opened for the pass through its binding. */
  opened(folder: Folder): OpenFolder;
  answerLine(ask: Ask, answer: Answer, now: number): string;
  /** An answer delivered: counted and told to the pump's listeners. */
  told(folder: Folder, op: string, answer: Answer): void;
}

/**
 * Refuses every ask read and not refused yet. Under the store's write lock (taken even so:
 * nothing is written to the store), the answers file is looked at first, so that two keepers
 * never both refuse one ask.
 */
export async function refuseFull(readings: Reading[], now: number, { store, guard, opened, answerLine, told }: FullDiskTools): Promise<void> {
  const refusal: Answer = { ok: false, text: DISK_FULL_TEXT };
  const line = (id: string, ask?: Ask) => answerLine(ask ?? { id, op: null, args: {}, at: now, want: undefined }, refusal, now);
  for (const { folder, asks } of readings) {
    const fresh = new Map<string, Ask>();
    await guard(folder, 'answers', () => store.transaction(async ({ ledger }) => {
      const open = opened(folder);
      for (const id of await answeredUnrecorded(ledger, open)) if (!folder.refusedFull.has(id)) folder.refusedFull.set(id, line(id));
      for (const ask of asks) if (!folder.refusedFull.has(ask.id) && !await ledger.recorded(open.key, ask.id)) fresh.set(ask.id, ask);
      if (fresh.size === 0) return;
      const lines = [...fresh.values()].map((ask) => line(ask.id, ask));
      appendUnrecorded(open, lines);
      [...fresh.keys()].forEach((id, i) => folder.refusedFull.set(id, lines[i]!));
    }, { retry: false }));
    if (folder.problems.has('answers')) continue;
    for (const ask of fresh.values()) told(folder, ask.op ?? '', refusal);
  }
}
