/**
 * The keeper's folder pump: reads what agents appended to their folders' asks.jsonl, does each
 * ask exactly once inside the store's transaction, and appends its answer to answers.jsonl.
 * Wakes on file events with a safety poll; compacts the folder's files past the answer window.
 * A pass is named steps, each in a file of its own: read (folder-read.ts), take (folder-take.ts),
 * answer (folder-deliver.ts), compact (folder-tidy.ts); here they are put in order.
 * It must never do an ask twice, answer one twice, block on a folder, or trust what it reads.
 */
import { watch as fsWatch } from 'node:fs';
import type { Answer } from './protocol.js';
import { HEARTBEAT_MS } from './protocol.js';
import type { SideConfig } from './keeper-types.js';
import { terminalSafe } from './terminal-safe.js';
import { createFolderSet } from './folder-set.js';
import { writeHeartbeat } from './heartbeat.js';
import { refuseFull } from './full-disk.js';
import { unwatch, watchAll } from './folder-watch.js';
import { diskFull, type Folder, type FolderPump, type PumpDeps, type Reading } from './pump-types.js';
import { answerLine, told, type PumpContext } from './pump-context.js';
import { readFolder } from './folder-read.js';
import { takeAsks, type TakenNow } from './folder-take.js';
import { answerHeld, deliver, settleNow, type Delivery } from './folder-deliver.js';
import { tidy } from './folder-tidy.js';

export { READ_MAX } from './folder-lines.js';
export { OLD_ASKS_FILE } from './folder-asks.js';
export { KEEP_ASKS_MS } from './folder-tidy.js';
export { ASKED_BEFORE_TEXT, DISK_FULL_TEXT, FAILED_TEXT, NO_OP_TEXT, NO_TIME_TEXT, TOO_LATE_TEXT, aheadText, tooLongText, type FolderPump, type PumpDeps } from './pump-types.js';

const POLL_MS = 1000;
/** How long the marks of answers appended may wait for the next pass's transaction. */
const SETTLE_MS = 50;

/**
 * The folders this keeper keeps now: on PostgreSQL, those whose lock it holds (one keeper at a
 * time per folder; another's is left to it, and taken over when it dies); on SQLite, all.
 * A folder not bound yet is kept, to be bound (or told why it cannot be) by the pass.
 */
async function keepFolders(context: PumpContext, list: Folder[]): Promise<Folder[]> {
  const out: Folder[] = [];
  for (const folder of list) {
    if (!folder.key || folder.twinOf) {
      out.push(folder);
      continue;
    }
    if (await context.store.holdFolder(folder.key)) {
      context.kept.add(folder.key);
      out.push(folder);
    } else context.kept.delete(folder.key);
  }
  return out;
}

/** The answers of the asks just taken, appended and told; returns how many were answered. */
async function answerTaken(context: PumpContext, { taken, moved, again }: TakenNow, now: number): Promise<number> {
  if (taken.length) context.deps.crashAfterCommit?.();
  for (const folder of moved) folder.skipped.clear();
  // Only the asks taken now: an ask left undelivered before is the recovery's, which looks in the file first.
  const byFolder = new Map<Folder, Delivery>([...again.keys()].map((folder) => [folder, { folder, ids: [], lines: [], again: again.get(folder) ?? [] }]));
  for (const { folder, id, line } of taken) {
    const delivery = byFolder.get(folder) ?? { folder, ids: [], lines: [], again: [] };
    delivery.ids.push(id);
    delivery.lines?.push(line);
    byFolder.set(folder, delivery);
  }
  await deliver(context, [...byFolder.values()], false, now);
  for (const { folder, op, answer } of taken) told(context, folder, op, answer);
  return taken.length;
}

/** What one pump remembers between passes. */
interface PassState {
  running: boolean;
  tidiedAt: number;
  /** The store's disk was full at the last try. */
  full: boolean;
}

/** The store's disk is full: said once, until an ask is taken again. */
function sayFull(say: (line: string) => void, state: PassState, error: unknown): void {
  if (!state.full) say(`the disk that holds the binder is full: asks are refused until a person makes room (${error instanceof Error ? error.message : String(error)})`);
  state.full = true;
}

/** The asks read taken, or, while the disk is full, refused and answered so: null then. */
async function take(context: PumpContext, state: PassState, readings: Reading[], now: number): Promise<TakenNow | null> {
  const { say, store, set } = context;
  try {
    const done = await takeAsks(context, readings, now);
    if (state.full) say('the disk that holds the binder has room again: asks are done again');
    state.full = false;
    return done;
  } catch (error) {
    if (!diskFull(error)) throw error;
    sayFull(say, state, error);
    await refuseFull(readings, now, {
      store, guard: set.guard, opened: set.opened, answerLine: (ask, answer, at) => answerLine(context, ask, answer, at), told: (folder, op, answer) => told(context, folder, op, answer),
    });
    return null;
  }
}

/** One pass: compact (now and then), read, take, answer; returns how many asks were answered. */
async function pass(context: PumpContext, state: PassState): Promise<number> {
  const { deps, set, say } = context;
  await deps.refresh?.();
  const now = deps.now();
  let list = await keepFolders(context, await set.sync());
  if (now - state.tidiedAt >= (deps.pollMs ?? POLL_MS) || !context.recoveredAll) {
    state.tidiedAt = now;
    try {
      await tidy(context, list, now);
    } catch (error) {
      // Tidying waits for room; the asks are still read, and refused.
      if (!diskFull(error)) throw error;
    }
  }
  let answered = 0;
  // A folder moved by another keeper meanwhile is read again; a few rounds, then the next pass.
  for (let round = 0; round < 3 && list.length; round++) {
    const readings: Reading[] = [];
    for (const folder of list) readings.push(...await readFolder(context, folder, now));
    if (readings.length === 0) break;
    const done = await take(context, state, readings, now);
    if (!done) break;
    answered += await answerTaken(context, done, now);
    list = done.moved;
  }
  if (state.running) watchAll([...set.values()], deps.watch ?? fsWatch, context.schedule);
  for (const folder of set.values()) {
    for (const [why, count] of folder.skipped) say(`${folder.side.dir}: ${count} ask line${count === 1 ? '' : 's'} skipped: ${why}`);
    folder.skipped.clear();
  }
  return answered;
}

export function createFolderPump(deps: PumpDeps): FolderPump {
  const { store } = deps;
  const state: PassState = { running: false, tidiedAt: -Infinity, full: false };
  let poll: NodeJS.Timeout | null = null;
  let beat: NodeJS.Timeout | null = null;
  let wake: NodeJS.Immediate | null = null;
  let settling: NodeJS.Timeout | null = null;

  const say = (line: string): void => deps.log(`binder keeper: ${terminalSafe(line)}`);
  const set = createFolderSet({ sides: deps.sides, ...(deps.bind ? { bind: deps.bind } : {}), store, say });
  const { guard, opened } = set;
  const context: PumpContext = {
    deps, store, set, say, kept: new Set<string>(), listeners: new Set<(side: SideConfig, op: string, answer: Answer) => void>(),
    schedule: () => schedule(), recoveredAll: false, sweptAt: -Infinity,
    answersLeft: new Map(), untold: new Map(), settleSoon: () => settleSoon(),
  };
  const { kept, listeners } = context;

  /* ---- waking ---- */

  function schedule(): void {
    if (!state.running || wake) return;
    wake = setImmediate(() => void run());
  }
  /**
   * The ledger's marks of answers appended go with the next pass's transaction; when none comes
   * within SETTLE_MS, with one of their own, in turn with the passes.
   */
  function settleSoon(): void {
    if (settling) clearTimeout(settling);
    settling = setTimeout(() => {
      settling = null;
      passing = passing.catch(() => 0).then(() => settleNow(context).catch((error: unknown) => {
        say(`the marks of answers appended could not be written (the recovery will find them): ${error instanceof Error ? error.message : String(error)}`);
      })).then(() => 0);
    }, SETTLE_MS);
    settling.unref();
  }

  let lastFailure = '';
  async function run(): Promise<void> {
    wake = null;
    try {
      await pump();
      lastFailure = '';
    } catch (error) {
      // A full disk met before the asks are taken (a folder's binding, its marks) is the full disk
      // the asks are refused for, said once: not a pass's failure besides.
      if (diskFull(error)) return sayFull(say, state, error);
      const message = error instanceof Error ? error.message : String(error);
      if (message !== lastFailure) say(`a pass over the folders failed: ${message}`);
      lastFailure = message;
    }
  }

  async function beatAll(stopped: boolean): Promise<void> {
    const now = deps.now();
    try {
      // Only a folder this keeper keeps: "stopped" said by one that keeps no folder would be a lie.
      const list = stopped ? set.known().filter((folder) => !folder.key || kept.has(folder.key)) : await keepFolders(context, await set.sync());
      for (const folder of list) await guard(folder, 'heartbeat', () => writeHeartbeat(opened(folder), now, stopped));
    } finally {
      set.closeAll();
    }
  }

  /* ---- the pass: compact, read, take, answer ---- */

  // One pass at a time: a pass asked for while one runs waits for it, then runs.
  let passing: Promise<number> = Promise.resolve(0);
  function pump(): Promise<number> {
    const next = passing.catch(() => 0).then(async () => {
      try {
        return await pass(context, state);
      } finally {
        set.closeAll();
      }
    });
    passing = next;
    return next;
  }

  return {
    pump,
    async start() {
      if (state.running) return;
      state.running = true;
      state.tidiedAt = -Infinity;
      await deps.refresh?.();
      await beatAll(false);
      await run();
      if (!state.running) return;
      poll = setInterval(() => void run(), deps.pollMs ?? POLL_MS);
      beat = setInterval(() => void beatAll(false).catch(() => undefined), HEARTBEAT_MS);
    },
    async close() {
      state.running = false;
      if (poll) clearInterval(poll);
      if (beat) clearInterval(beat);
      if (wake) clearImmediate(wake);
      if (settling) clearTimeout(settling);
      poll = beat = wake = settling = null;
      for (const folder of set.values()) unwatch(folder);
      // The pass under way ends first: its answers are appended and marked before "stopped" is said.
      await passing.catch(() => 0);
      await settleNow(context).catch(() => undefined);
      await beatAll(true);
    },
    folders: () => set.known().map((folder) => ({ ...folder.status })),
    keys: () => set.known().filter((folder) => folder.key && !folder.twinOf && kept.has(folder.key)).map((folder) => folder.key),
    onAnswer(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    answerHeld: (key, id, op, want, decide) => answerHeld(context, key, id, op, want, decide),
  };
}
