/**
 * The keeper's folder pump: reads what agents appended to their folders' asks.jsonl, does each
 * ask exactly once inside the store's transaction, and appends its answer to answers.jsonl.
 * Wakes on file events with a safety poll; compacts the folder's files past the answer window.
 * It must never do an ask twice, answer one twice, block on a folder, or trust what it reads.
 */
import { watch as fsWatch } from 'node:fs';
import { mustRethrow, type Store, type Who } from '../store/index.js';
import { AHEAD_MAX_MS, ANSWERS_FILE, ASKS_FILE, HEARTBEAT_MS, TOO_LATE_MS, startBy, type Answer } from './protocol.js';
import type { SideConfig } from './keeper-types.js';
import { terminalSafe } from './terminal-safe.js';
import { operation } from './operations.js';
import { openToAppend, removeStaleTemps } from './folder-files.js';
import { createFolderSet } from './folder-set.js';
import { type Ask } from './folder-lines.js';
import {
  ANSWERS_MODE, NO_MARK, answeredUnrecorded, answersDue, appendAnswers, compactAnswers, markOf,
} from './folder-answers.js';
import { OLD_ASKS_FILE, placeOf, readSince, samePlace, setAsksAside, tendOldAsks, type Place } from './folder-asks.js';
import { writeHeartbeat } from './heartbeat.js';
import { refuseFull } from './full-disk.js';
import { unwatch, watchAll } from './folder-watch.js';
import {
  ASKED_BEFORE_TEXT, DISK_FULL_TEXT, FAILED_TEXT, NO_OP_TEXT, NO_TIME_TEXT, TOO_LATE_TEXT, aheadText, diskFull, tooLongText,
  type Folder, type FolderPump, type PumpDeps, type Reading, type Taken,
} from './pump-types.js';

export { READ_MAX } from './folder-lines.js';
export { OLD_ASKS_FILE } from './folder-asks.js';
export { ASKED_BEFORE_TEXT, DISK_FULL_TEXT, FAILED_TEXT, NO_OP_TEXT, NO_TIME_TEXT, TOO_LATE_TEXT, aheadText, tooLongText, type FolderPump, type PumpDeps } from './pump-types.js';

const POLL_MS = 1000;
/** An undelivered answer older than this is appended by whichever keeper sees it. */
const RECOVER_AFTER_MS = 2000;
/** Asks are remembered a week: an id replayed after that is taken as a new ask. */
export const KEEP_ASKS_MS = 7 * 24 * 3600 * 1000;

export function createFolderPump(deps: PumpDeps): FolderPump {
  const { store } = deps;
  const ledger = store.ledger;
  // Each ask in a savepoint of its own: a bug in one ask undoes that ask alone.
  const performOne = (tx: Store, ask: Ask, who: Who): Promise<Answer> =>
    tx.transaction((inner) => deps.perform(ask.op ?? '', ask.args, who, ask.want, inner));
  const holdOne = (tx: Store, dir: string, ask: Ask, who: Who, now: number): Promise<Answer | 'held' | undefined> =>
    tx.transaction(async (inner) => deps.hold?.(dir, ask, who, now, inner));

  const listeners = new Set<(side: SideConfig, op: string, answer: Answer) => void>();
  let running = false;
  let poll: NodeJS.Timeout | null = null;
  let beat: NodeJS.Timeout | null = null;
  let wake: NodeJS.Immediate | null = null;
  let tidiedAt = -Infinity;
  let sweptAt = -Infinity;
  let recoveredAll = false;
  /** The store's disk was full at the last try. */
  let full = false;

  const say = (line: string): void => deps.log(`binder keeper: ${terminalSafe(line)}`);
  const set = createFolderSet({ sides: deps.sides, ...(deps.bind ? { bind: deps.bind } : {}), store, say });
  const { guard, skip, opened } = set;
  /** An answer delivered: counted, and told to whoever listens (a listener's failure is only said). */
  const told = (folder: Folder, op: string, answer: Answer): void => {
    folder.status.answered++;
    for (const listener of listeners) {
      try {
        listener(folder.side, op, answer);
      } catch (error) {
        say(`a listener of answers failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };

  /* ---- reading ---- */

  async function readFolder(folder: Folder, now: number): Promise<Reading[]> {
    const readings: Reading[] = [];
    const skipped = (why: string, count: number) => skip(folder, why, count);
    await guard(folder, 'read', async () => {
      const open = opened(folder);
      if (!folder.scanned) {
        // Asks refused while the disk was full by a keeper that stopped before it could record them.
        for (const id of await answeredUnrecorded(ledger, open)) {
          folder.refusedFull.set(id, answerLine({ id, op: null, args: {}, at: now, want: undefined }, { ok: false, text: DISK_FULL_TEXT }, now));
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
    if (readings.some((reading) => reading.more)) schedule();
    if (!folder.problems.has('read')) return readings;
    folder.skipped.clear(); // read again once the folder is fixed, and said then
    return [];
  }

  /* ---- doing ---- */

  async function decide(tx: Store, ask: Ask, who: Who, now: number): Promise<Answer> {
    if (ask.tooLong) return { ok: false, text: tooLongText(ask.tooLong) };
    if (ask.at === null) return { ok: false, text: NO_TIME_TEXT };
    if (ask.at > now + AHEAD_MAX_MS) return { ok: false, text: aheadText(ask.at - now) };
    if (now > startBy(ask.at, ask.until ?? null)) return { ok: false, text: TOO_LATE_TEXT };
    if (ask.op === null) return { ok: false, text: NO_OP_TEXT };
    try {
      return await performOne(tx, ask, who);
    } catch (error) {
      if (mustRethrow(error)) throw error;
      say(`an ask (${ask.op}) failed in the keeper and was undone: ${error instanceof Error ? error.message : String(error)}`);
      return { ok: false, text: FAILED_TEXT };
    }
  }

  /** The `hold` hook's word on an ask that may be done (its time and op are good), in its own savepoint. */
  async function holdLater(tx: Store, dir: string, ask: Ask, who: Who, now: number): Promise<Answer | 'held' | undefined> {
    // Only an operation that may be held (a wait) is shown to the hook: the others need no savepoint of it.
    if (!deps.hold || ask.at === null || ask.op === null || ask.at > now + AHEAD_MAX_MS || now > startBy(ask.at, ask.until ?? null)
      || !operation(ask.op)?.holds) return undefined;
    try {
      return await holdOne(tx, dir, ask, who, now);
    } catch (error) {
      if (mustRethrow(error)) throw error;
      say(`an ask (${ask.op}) failed in the keeper and was undone: ${error instanceof Error ? error.message : String(error)}`);
      return { ok: false, text: FAILED_TEXT };
    }
  }

  async function answerHeld(key: string, id: string, op: string, want: 'json' | undefined, choose: (tx: Store) => Promise<Answer | null>): Promise<boolean> {
    const now = deps.now();
    const answer = await store.transaction(async (tx) => {
      if (!await tx.ledger.open(key, id)) return null;
      const given = await choose(tx);
      if (given) await tx.ledger.answer(key, id, answerLine({ id, op, args: {}, at: now, want }, given, now));
      return given;
    });
    if (!answer) return false;
    set.known();
    const folder = set.byKey(key);
    // Its folder is kept no more, or by another keeper: the recovery of whoever keeps it appends it.
    if (!folder || !kept.has(key)) return true;
    try {
      await deliver([{ folder, ids: [id] }], false, now);
    } finally {
      set.closeAll();
    }
    told(folder, op, answer);
    return true;
  }

  function answerLine(ask: Ask, answer: Answer, now: number): string {
    const line = { ask: ask.id, at: new Date(now).toISOString(), ok: answer.ok === true, text: String(answer.text) };
    if (ask.want === 'json' && answer.data !== undefined) {
      try {
        return JSON.stringify({ ...line, data: answer.data });
      } catch {
        say(`the data of an answer (${ask.op ?? ''}) cannot be written as JSON: answered with its text alone`);
      }
    }
    return JSON.stringify(line);
  }

  /**
   * What an ask asked again is answered: the answer recorded when it was taken (dated now), or,
   * once that is forgotten, that it was taken before; nothing for a wait still held.
   */
  function givenAgain(ask: Ask, before: { answer: string | null; delivered: number }, now: number): string | null {
    if (before.answer !== null) {
      try {
        return JSON.stringify({ ...(JSON.parse(before.answer) as object), at: new Date(now).toISOString() });
      } catch {
        return before.answer;
      }
    }
    return before.delivered ? answerLine({ ...ask, want: undefined }, { ok: false, text: ASKED_BEFORE_TEXT }, now) : null;
  }

  /**
   * Does the asks read, in one transaction for every folder. Folders moved by another keeper are
   * returned, and the answers given again to asks asked again with an id already taken.
   */
  async function take(readings: Reading[], now: number): Promise<{ taken: Taken[]; moved: Folder[]; again: Map<Folder, string[]> }> {
    const taken: Taken[] = [];
    const moved: Folder[] = [];
    const replays = new Map<Folder, number>();
    const again = new Map<Folder, string[]>();
    const takenNow = new Set<string>();
    // Asks that only read are not worth a wait for the disk: a power loss could only make such an
    // ask read and answered again. One that may change the binder is committed synced.
    const reads = readings.every((reading) => reading.asks.every((ask) => operation(ask.op ?? '')?.readOnly !== false));
    await store.transaction(async (tx) => {
      // Run again from the start when the database asks (PostgreSQL): nothing of a try before is kept.
      taken.length = moved.length = 0;
      replays.clear();
      again.clear();
      takenNow.clear();
      const ledger = tx.ledger;
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
            const line = ask.at !== null && ask.at > before.at && !takenNow.has(`${dir}\n${ask.id}`) ? givenAgain(ask, before, now) : null;
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
          const later = await holdLater(tx, dir, ask, folder.side.who, now);
          if (later === 'held') {
            await ledger.take(dir, ask.id, now, null);
            continue;
          }
          const answer = later ?? await decide(tx, ask, folder.side.who, now);
          await ledger.take(dir, ask.id, now, answerLine(ask, answer, now));
          taken.push({ folder, id: ask.id, op: ask.op ?? '', answer });
        }
        if (!reading.old) {
          const lastAsk = reading.asks.length ? now : before.last_ask;
          await ledger.setAsks(dir, next.ino, next.offset, next.skipping, lastAsk, before === NO_MARK ? now : before.compacted);
        }
      }
    }, { sync: !reads });
    for (const [folder, count] of replays) skip(folder, 'an ask with an id already taken from this folder: not done nor answered again', count);
    for (const [folder, lines] of again) skip(folder, 'an ask with an id already taken from this folder, asked again: its answer given again, not done again', lines.length);
    for (const reading of readings) {
      if (!moved.includes(reading.folder)) for (const ask of reading.asks) reading.folder.refusedFull.delete(ask.id);
      const drain = reading.folder.drain;
      if (reading.old && drain) Object.assign(drain, { offset: reading.next.offset, skipping: reading.next.skipping });
      if (!reading.old && !moved.includes(reading.folder)) reading.folder.tail = reading.tail;
      if (reading.asks.length && !moved.includes(reading.folder)) reading.folder.status.lastAsk = now;
    }
    for (const folder of moved) again.delete(folder);
    return { taken, moved, again };
  }

  /* ---- answering ---- */

  async function deliver(batch: { folder: Folder; ids: string[]; again?: string[] }[], recovery: boolean, now: number): Promise<void> {
    if (batch.length === 0) return;
    // This commit needs no sync of its own: lost, it is found again from the answers file (its
    // lines are looked for from the mark on), and the next synced commit carries it to disk anyway.
    await store.transaction(async (tx) => {
      for (const { folder, ids, again } of batch) {
        await guard(folder, 'answers', () => appendAnswers(tx.ledger, opened(folder), ids, recovery, now, folder.answers, again));
      }
      deps.crashAfterAppend?.();
      // Appended once: a conflict fails the delivery, and the recovery finds the lines in the file.
    }, { sync: false, retry: false });
  }

  /** Answers recorded but never appended (a keeper stopped in between): all at the first pass, then those older than ~2 s. */
  async function recover(now: number): Promise<void> {
    const rows = await ledger.untoldSince(recoveredAll ? now - RECOVER_AFTER_MS : Number.MAX_SAFE_INTEGER);
    recoveredAll = true;
    const byFolder = new Map<Folder, string[]>();
    for (const row of rows) {
      const folder = set.byKey(row.dir);
      if (!folder || !kept.has(folder.key)) continue;
      const ids = byFolder.get(folder) ?? [];
      ids.push(row.id);
      byFolder.set(folder, ids);
    }
    await deliver([...byFolder].map(([folder, ids]) => ({ folder, ids })), true, now);
  }

  /* ---- tidying: nothing piles up ---- */

  async function tidy(list: Folder[], now: number): Promise<void> {
    await recover(now);
    for (const folder of list) {
      await guard(folder, 'tidy', async () => {
        const open = opened(folder);
        if (folder.fresh) removeStaleTemps(open);
        folder.drain = tendOldAsks(open, folder.drain, folder.fresh, now);
        if (!folder.drain) folder.drain = await setAsksAside(store, open, folder.asksSeen, now);
        if (await answersDue(ledger, open.key, now)) {
          const said = await store.transaction((tx) => compactAnswers(tx.ledger, open, now), { retry: false });
          if (said) say(said);
        }
      });
      folder.fresh = false;
    }
    if (now - sweptAt >= TOO_LATE_MS) {
      sweptAt = now;
      await store.transaction(async (tx) => {
        await tx.ledger.forget(now - TOO_LATE_MS);
        await tx.ledger.drop(now - KEEP_ASKS_MS);
      });
    }
  }

  /* ---- waking ---- */

  function schedule(): void {
    if (!running || wake) return;
    wake = setImmediate(() => void run());
  }
  let lastFailure = '';
  async function run(): Promise<void> {
    wake = null;
    try {
      await pump();
      lastFailure = '';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== lastFailure) say(`a pass over the folders failed: ${message}`);
      lastFailure = message;
    }
  }

  async function beatAll(stopped: boolean): Promise<void> {
    const now = deps.now();
    try {
      // Only a folder this keeper keeps: "stopped" said by one that keeps no folder would be a lie.
      const list = stopped ? set.known().filter((folder) => !folder.key || kept.has(folder.key)) : await keep(await set.sync());
      for (const folder of list) await guard(folder, 'heartbeat', () => writeHeartbeat(opened(folder), now, stopped));
    } finally {
      set.closeAll();
    }
  }

  /* ---- the pass ---- */

  /**
   * The folders this keeper keeps now: on PostgreSQL, those whose lock it holds (one keeper at a
   * time per folder; another's is left to it, and taken over when it dies); on SQLite, all.
   * A folder not bound yet is kept, to be bound (or told why it cannot be) by the pass.
   */
  const kept = new Set<string>();
  async function keep(list: Folder[]): Promise<Folder[]> {
    const out: Folder[] = [];
    for (const folder of list) {
      if (!folder.key || folder.twinOf) {
        out.push(folder);
        continue;
      }
      if (await store.holdFolder(folder.key)) {
        kept.add(folder.key);
        out.push(folder);
      } else kept.delete(folder.key);
    }
    return out;
  }

  // One pass at a time: a pass asked for while one runs waits for it, then runs.
  let passing: Promise<number> = Promise.resolve(0);
  function pump(): Promise<number> {
    const next = passing.catch(() => 0).then(async () => {
      try {
        return await pass();
      } finally {
        set.closeAll();
      }
    });
    passing = next;
    return next;
  }
  async function pass(): Promise<number> {
    await deps.refresh?.();
    const now = deps.now();
    let list = await keep(await set.sync());
    if (now - tidiedAt >= (deps.pollMs ?? POLL_MS) || !recoveredAll) {
      tidiedAt = now;
      try {
        await tidy(list, now);
      } catch (error) {
        // Tidying waits for room; the asks are still read, and refused.
        if (!diskFull(error)) throw error;
      }
    }
    let answered = 0;
    // A folder moved by another keeper meanwhile is read again; a few rounds, then the next pass.
    for (let round = 0; round < 3 && list.length; round++) {
      const readings: Reading[] = [];
      for (const folder of list) readings.push(...await readFolder(folder, now));
      if (readings.length === 0) break;
      let done: Awaited<ReturnType<typeof take>>;
      try {
        done = await take(readings, now);
        if (full) say('the disk that holds the binder has room again: asks are done again');
        full = false;
      } catch (error) {
        if (!diskFull(error)) throw error;
        if (!full) say(`the disk that holds the binder is full: asks are refused until a person makes room (${error instanceof Error ? error.message : String(error)})`);
        full = true;
        await refuseFull(readings, now, { store, guard, opened, answerLine, told });
        break;
      }
      const { taken, moved, again } = done;
      if (taken.length) deps.crashAfterCommit?.();
      for (const folder of moved) folder.skipped.clear();
      // Only the asks taken now: an ask left undelivered before is the recovery's, which looks in the file first.
      const byFolder = new Map<Folder, string[]>([...again.keys()].map((folder) => [folder, []]));
      for (const { folder, id } of taken) byFolder.set(folder, [...(byFolder.get(folder) ?? []), id]);
      await deliver([...byFolder].map(([folder, ids]) => ({ folder, ids, again: again.get(folder) ?? [] })), false, now);
      for (const { folder, op, answer } of taken) told(folder, op, answer);
      answered += taken.length;
      list = moved;
    }
    if (running) watchAll([...set.values()], deps.watch ?? fsWatch, schedule);
    for (const folder of set.values()) {
      for (const [why, count] of folder.skipped) say(`${folder.side.dir}: ${count} ask line${count === 1 ? '' : 's'} skipped: ${why}`);
      folder.skipped.clear();
    }
    return answered;
  }

  return {
    pump,
    async start() {
      if (running) return;
      running = true;
      tidiedAt = -Infinity;
      await deps.refresh?.();
      await beatAll(false);
      await run();
      if (!running) return;
      poll = setInterval(() => void run(), deps.pollMs ?? POLL_MS);
      beat = setInterval(() => void beatAll(false).catch(() => undefined), HEARTBEAT_MS);
    },
    async close() {
      running = false;
      if (poll) clearInterval(poll);
      if (beat) clearInterval(beat);
      if (wake) clearImmediate(wake);
      poll = beat = wake = null;
      for (const folder of set.values()) unwatch(folder);
      // The pass under way ends first: its answers are appended before "stopped" is said.
      await passing.catch(() => 0);
      await beatAll(true);
    },
    folders: () => set.known().map((folder) => ({ ...folder.status })),
    keys: () => set.known().filter((folder) => folder.key && !folder.twinOf && kept.has(folder.key)).map((folder) => folder.key),
    onAnswer(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    answerHeld,
  };
}
