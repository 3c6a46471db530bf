/**
 * The folder pump's first step: read what an agent appended to its folder since the mark (and what
 * is left in the asks set aside), each line parsed into an ask. Nothing is taken here; no ask is
 * read that could not be answered (the answers file is opened for appending first).
 */
import { ANSWERS_FILE, ASKS_FILE } from './protocol.js';
import { openToAppend } from './folder-files.js';
import { ANSWERS_MODE, answeredUnrecorded, markOf } from './folder-answers.js';
import { OLD_ASKS_FILE, placeOf, readSince, type Place } from './folder-asks.js';
import { DISK_FULL_TEXT, type Folder, type Reading } from './pump-types.js';
import { answerLine, type PumpContext } from './pump-context.js';

export async function readFolder(pump: PumpContext, folder: Folder, now: number): Promise<Reading[]> {
  const { set, store } = pump;
  const ledger = store.ledger;
  const readings: Reading[] = [];
  const skipped = (why: string, count: number) => set.skip(folder, why, count);
  await set.guard(folder, 'read', async () => {
    const open = set.opened(folder);
    if (!folder.scanned) {
      // Asks refused while the disk was full by a keeper that stopped before it could record them.
      for (const id of await answeredUnrecorded(ledger, open)) {
        folder.refusedFull.set(id, answerLine(pump, { id, op: null, args: {}, at: now, want: undefined }, { ok: false, text: DISK_FULL_TEXT }, now));
      }
      folder.scanned = true;
    }
    const seen = placeOf(await markOf(ledger, open.key));
    const fresh = readSince(open, ASKS_FILE, seen, skipped, folder.tail);
    if (fresh) readings.push({ folder, old: false, seen, ...fresh });
    const drain = folder.drain;
    if (drain) {
      const from: Place = { ino: drain.key, offset: drain.offset, skipping: drain.skipping };
      const late = readSince(open, OLD_ASKS_FILE, from, skipped);
      if (late && late.next.ino !== drain.key) folder.drain = null; // another file in its place: not ours to read
      else if (late) {
        drain.quietSince = now;
        readings.push({ folder, old: true, seen: from, ...late });
      }
    }
    // No ask is taken that could not be answered: the answers file is opened for appending
    // first, and kept for the pass. Until it can be, the asks wait.
    if (readings.length && !folder.answers) folder.answers = openToAppend(open, ANSWERS_FILE, ANSWERS_MODE);
  });
  if (readings.some((reading) => reading.more)) pump.schedule();
  if (!folder.problems.has('read')) return readings;
  folder.skipped.clear(); // read again once the folder is fixed, and said then
  return [];
}
