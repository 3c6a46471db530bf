/**
 * The folder pump's step that compacts: nothing piles up. Answers recovered first; then in each
 * folder its stale temporary files removed, the asks file set aside once read, the answers file
 * cut past the answer window; and the ledger swept of asks too old to be asked again.
 */
import { removeStaleTemps } from './folder-files.js';
import { answersDue, compactAnswers } from './folder-answers.js';
import { setAsksAside, tendOldAsks } from './folder-asks.js';
import { TOO_LATE_MS } from './protocol.js';
import type { Folder } from './pump-types.js';
import { recover, settleNow } from './folder-deliver.js';
import type { PumpContext } from './pump-context.js';

/** Asks are remembered a week: an id replayed after that is taken as a new ask. */
export const KEEP_ASKS_MS = 7 * 24 * 3600 * 1000;

export async function tidy(pump: PumpContext, list: Folder[], now: number): Promise<void> {
  const { set, store } = pump;
  // The marks of answers appended are written before any file is looked at or compacted.
  await settleNow(pump);
  await recover(pump, now);
  for (const folder of list) {
    await set.guard(folder, 'tidy', async () => {
      const open = set.opened(folder);
      if (folder.fresh) removeStaleTemps(open);
      folder.drain = tendOldAsks(open, folder.drain, folder.fresh, now);
      if (!folder.drain) folder.drain = await setAsksAside(store, open, folder.asksSeen, now);
      if (await answersDue(store.ledger, open.key, now)) {
        const said = await store.transaction((tx) => compactAnswers(tx.ledger, open, now), { retry: false });
        if (said) pump.say(said);
      }
    });
    folder.fresh = false;
  }
  if (now - pump.sweptAt >= TOO_LATE_MS) {
    pump.sweptAt = now;
    await store.transaction(async (tx) => {
      await tx.ledger.forget(now - TOO_LATE_MS);
      await tx.ledger.drop(now - KEEP_ASKS_MS);
    });
  }
}
