/**
 * The folder pump's step that takes asks: each ask read is looked up in the ledger and, if new,
 * done, its answer recorded with it — every folder's asks in one transaction, each ask in a
 * savepoint of its own. An ask asked again is answered again from the ledger, never done twice.
 * It must never do an ask twice, nor take one it could not answer.
 */
import type { Store } from '../store/index.js';
import type { Who } from '../store/index.js';
import { AHEAD_MAX_MS, startBy, type Answer } from './protocol.js';
import { operation } from './operations.js';
import type { Ask } from './folder-lines.js';
import { NO_MARK, markOf } from './folder-answers.js';
import { placeOf, samePlace } from './folder-asks.js';
import {
  ASKED_BEFORE_TEXT, FAILED_TEXT, NO_OP_TEXT, NO_TIME_TEXT, TOO_LATE_TEXT, aheadText, tooLongText, type Folder, type Reading, type Taken,
} from './pump-types.js';
import { answerLine, type PumpContext } from './pump-context.js';
import { takeAsk, type AskToTake } from './take-ask.js';
import { settle, settled, type Settling } from './folder-deliver.js';

/** What a pass took: the asks done, the folders moved by another keeper, the answers given again. */
export interface TakenNow { taken: Taken[]; moved: Folder[]; again: Map<Folder, string[]> }

/** An ask's answer when it cannot be done (too long, no time, too late…), or undefined. */
function refusedBefore(ask: Ask, now: number): Answer | undefined {
  if (ask.tooLong) return { ok: false, text: tooLongText(ask.tooLong) };
  if (ask.at === null) return { ok: false, text: NO_TIME_TEXT };
  if (ask.at > now + AHEAD_MAX_MS) return { ok: false, text: aheadText(ask.at - now) };
  if (now > startBy(ask.at, ask.until ?? null)) return { ok: false, text: TOO_LATE_TEXT };
  if (ask.op === null) return { ok: false, text: NO_OP_TEXT };
  return undefined;
}

/** An ask read from a folder, as the one taker of asks takes it (its id looked up already); its answer line is kept in `lines`. */
function toTake(pump: PumpContext, dir: string, ask: Ask, who: Who, now: number, lines: Map<string, string>): AskToTake {
  const { hold } = pump.deps;
  const refused = refusedBefore(ask, now);
  // Only an operation that may be held (a wait), and may be done, is shown to the hook.
  const holds = hold && !refused && operation(ask.op ?? '')?.holds;
  return {
    place: dir, id: ask.id, at: now,
    ...(holds ? { hold: (inside: Store) => hold(dir, ask, who, now, inside) } : {}),
    perform: async (inside) => refused ?? pump.deps.perform(ask.op ?? '', ask.args, who, ask.want, inside),
    failed: (error) => {
      pump.say(`an ask (${ask.op}) failed in the keeper and was undone: ${error instanceof Error ? error.message : String(error)}`);
      return { ok: false, text: FAILED_TEXT };
    },
    record: (answer) => {
      const line = answerLine(pump, ask, answer, now);
      lines.set(ask.id, line);
      return { line };
    },
  };
}

/**
 * What an ask asked again is answered: the answer recorded when it was taken (dated now), or,
 * once that is forgotten, that it was taken before; nothing for a wait still held.
 */
function givenAgain(pump: PumpContext, ask: Ask, before: { answer: string | null; delivered: number }, now: number): string | null {
  if (before.answer !== null) {
    try {
      return JSON.stringify({ ...(JSON.parse(before.answer) as object), at: new Date(now).toISOString() });
    } catch {
      return before.answer;
    }
  }
  return before.delivered ? answerLine(pump, { ...ask, want: undefined }, { ok: false, text: ASKED_BEFORE_TEXT }, now) : null;
}

/**
 * Does the asks read, in one transaction for every folder. Folders moved by another keeper are
 * returned, and the answers given again to asks asked again with an id already taken.
 */
export async function takeAsks(pump: PumpContext, readings: Reading[], now: number): Promise<TakenNow> {
  const taken: Taken[] = [];
  const moved: Folder[] = [];
  const replays = new Map<Folder, number>();
  const again = new Map<Folder, string[]>();
  const takenNow = new Set<string>();
  const lines = new Map<string, string>();
  let settling: Settling = [];
  // Asks that only read are not worth a wait for the disk: a power loss could only make such an
  // ask read and answered again. One that may change the binder is committed synced.
  const reads = readings.every((reading) => reading.asks.every((ask) => operation(ask.op ?? '')?.readOnly !== false));
  await pump.store.transaction(async (tx) => {
    // Run again from the start when the database asks (PostgreSQL): nothing of a try before is kept.
    taken.length = moved.length = 0;
    replays.clear();
    again.clear();
    takenNow.clear();
    lines.clear();
    const ledger = tx.ledger;
    // The marks of answers appended since the last transaction are written with this one.
    settling = await settle(pump, ledger);
    for (const reading of readings) {
      const { folder, next } = reading;
      const dir = folder.key;
      const before = await markOf(ledger, dir);
      if (!reading.old && !samePlace(placeOf(before), reading.seen)) {
        moved.push(folder);
        continue;
      }
      for (const ask of reading.asks) {
        const before = await ledger.recorded(dir, ask.id);
        if (before) {
          // Written after its id was taken (by another pass): its asker asks again, having had no
          // answer. Written before: a line read again (a file rotated, read afresh), already answered.
          const line = ask.at !== null && ask.at > before.at && !takenNow.has(`${dir}\n${ask.id}`) ? givenAgain(pump, ask, before, now) : null;
          if (line !== null) again.set(folder, [...(again.get(folder) ?? []), line]);
          else if (!(reading.old && folder.drain?.quiet)) replays.set(folder, (replays.get(folder) ?? 0) + 1);
          continue;
        }
        takenNow.add(`${dir}\n${ask.id}`);
        // Refused and answered while the disk was full: recorded now, as answered, never done.
        const refusal = folder.refusedFull.get(ask.id);
        if (refusal !== undefined) {
          await ledger.take(dir, ask.id, now, refusal);
          await ledger.told(dir, ask.id);
          continue;
        }
        const took = await takeAsk(tx, toTake(pump, dir, ask, folder.side.who, now, lines));
        if ('answer' in took) taken.push({ folder, id: ask.id, op: ask.op ?? '', answer: took.answer, line: lines.get(ask.id) ?? '' });
      }
      if (!reading.old) {
        const lastAsk = reading.asks.length ? now : before.last_ask;
        await ledger.setAsks(dir, next.ino, next.offset, next.skipping, lastAsk, before === NO_MARK ? now : before.compacted);
      }
    }
  }, { sync: !reads });
  settled(pump, settling);
  afterTaking(pump, readings, moved, replays, again, now);
  return { taken, moved, again };
}

/** Once committed: the lines skipped said, each folder's place moved on, a moved folder's answers dropped. */
function afterTaking(pump: PumpContext, readings: Reading[], moved: Folder[], replays: Map<Folder, number>, again: Map<Folder, string[]>, now: number): void {
  for (const [folder, count] of replays) pump.set.skip(folder, 'an ask with an id already taken from this folder: not done nor answered again', count);
  for (const [folder, lines] of again) pump.set.skip(folder, 'an ask with an id already taken from this folder, asked again: its answer given again, not done again', lines.length);
  for (const reading of readings) {
    if (!moved.includes(reading.folder)) for (const ask of reading.asks) reading.folder.refusedFull.delete(ask.id);
    const drain = reading.folder.drain;
    if (reading.old && drain) Object.assign(drain, { offset: reading.next.offset, skipping: reading.next.skipping });
    if (!reading.old && !moved.includes(reading.folder)) reading.folder.tail = reading.tail;
    if (reading.asks.length && !moved.includes(reading.folder)) reading.folder.status.lastAsk = now;
  }
  for (const folder of moved) again.delete(folder);
}
