/**
 * Waits held open by the keeper: a `wait` ask with nothing to say yet is taken (its id in the
 * ledger, exactly once, like any ask) and kept in the `waits` table until something its asker
 * can see changes — woken by the keeper's news (news.ts) — or until its time is up. Waits asked
 * through a folder and over HTTP are held alike; each is answered through whatever it came by.
 * Any keeper of the store may answer a held wait (after a restart, the next one does); taking
 * its row out of `waits` in the answer's own transaction makes the answer one. It never polls
 * the binder's tables, never holds more than its cap nor more for one agent than its share,
 * and never reads a brief for an asker who stopped waiting.
 */
import { Refused, type Store, type WaitRow, type Who } from '../store/index.js';
import { sayNothing, waitLength, waitTarget, type WaitData } from './catalog-together.js';
import type { News } from './news.js';
import type { Perform } from './perform.js';
import { WAIT_MS, type Answer } from './protocol.js';
import { terminalSafe } from './terminal-safe.js';
import { said, toldAs, type Shown } from './text-values.js';
import { step } from '../store/light.js';

/** An ask as the pump read it (see folder-lines.ts). */
export interface HeldAsk {
  id: string;
  op: string | null;
  args: unknown;
  want: 'json' | undefined;
  /** ms the asker waits beyond the usual window; null when it did not say (an older client). */
  wait?: number | null;
  /** What vouched for the asker (over HTTP), looked at again when the wait is answered. */
  vouch?: Vouch;
}

/**
 * What an ask over HTTP was let in by, kept with its held wait: an agent's token (by its prefix),
 * or the end of a provider's token. A wait whose voucher is gone by its answer is refused, and
 * reads nothing: the asker's place in the history does not move for an answer nobody may read.
 */
export interface Vouch { token?: string; until?: number }

export const VOUCH_GONE_TEXT = 'The token this wait was asked with is no longer accepted (revoked or expired): nothing was read for it, and what changed waits for the agent\'s next look.';

/** What the held waits need of the pump: to answer one later, exactly once. */
export interface AnswerLater {
  /**
   * Inside one transaction: if ask `id` of `dir` was taken and is still unanswered, `decide`;
   * an answer it returns is recorded and then appended. Returns whether it was answered.
   */
  answerHeld(dir: string, id: string, op: string, want: 'json' | undefined, decide: (tx: Store) => Promise<Answer | null>): Promise<boolean>;
}

export interface HeldWaitsDeps {
  store: Store;
  perform: Perform;
  /** What wakes the waits held: changes through the store and by other processes. */
  news: News;
  now(): number;
  /** The folders this keeper keeps. */
  dirs(): string[];
  /**
   * Starts of the places of asks that come through no folder (HTTP): their waits are taken up by
   * any keeper of the store, since their askers come back to whichever one answers them.
   */
  anywhere?: readonly string[];
  log(line: string): void;
  /** How many waits one keeper holds at most (64). */
  cap?: number;
  /** How many waits one agent may have held at once, from all its places together (4). */
  perAgent?: number;
  /** How often lapsed claims are freed, in ms (5000). */
  lapseMs?: number;
}

export interface HeldWaits {
  /** The pump's hook, inside its transaction (`inside`): an answer now, `held`, or undefined (not a wait). */
  hold(dir: string, ask: HeldAsk, who: Who, now: number, inside: Store): Promise<Answer | 'held' | undefined>;
  /** The pump to answer through. */
  answerThrough(pump: AnswerLater): void;
  /** Takes up the waits in the store for this keeper's folders (left by a keeper that stopped). */
  adopt(): Promise<void>;
  /** Takes up one wait of the store, if this keeper does not hold it yet (its asker came back). */
  takeUp(dir: string, id: string): Promise<void>;
  /** Lets go of a wait whose row another transaction took out of the store (its asker went). */
  letGo(dir: string, id: string): void;
  /** Frees lapsed claims now and then. */
  start(): Promise<void>;
  close(): void;
  /** How many waits this keeper holds now. */
  count(): number;
}

export const WAIT_CAP = 64;
/** How many waits one agent may have held at once, through its folder and over HTTP together. */
export const WAITS_PER_AGENT = 4;
export const BUSY = said`Busy: this keeper holds as many waits as it can; try again in a few seconds (${step('brief')} says what changed meanwhile).`;
export const BUSY_TEXT = BUSY.text;
/** What an agent that holds as many waits as it may is told. */
export const busyAgent = (n: number): Shown =>
  said`Busy: you hold ${n} waits already, as many as one agent may; one returns when something changes or at its timeout (${step('brief')} says what changed meanwhile).`;
export const busyAgentText = (n: number): string => busyAgent(n).text;
export const LATE = said`The keeper stopped while this wait was held and you stopped waiting; nothing was read for you: ${step('brief')} says what changed.`;
export const LATE_TEXT = LATE.text;
/** Without a `wait` on its line, an ask is answered within the asker's usual window. */
const UNSAID_HOLD_MS = WAIT_MS - 5000;

interface Held {
  dir: string;
  id: string;
  who: Who;
  args: Record<string, unknown>;
  want: 'json' | undefined;
  at: number;
  until: number;
  timer: NodeJS.Timeout | null;
  vouch?: Vouch;
}

const key = (dir: string, id: string): string => `${dir}\n${id}`;
const argsOf = (args: unknown): Record<string, unknown> =>
  (args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {});

/** A wait as its row keeps it, with no timer yet. */
function heldOf(row: WaitRow): Held {
  const { vouch, ...who } = JSON.parse(row.who) as Who & { vouch?: Vouch };
  return {
    dir: row.dir, id: row.id, who, args: argsOf(JSON.parse(row.args)),
    want: row.want === 'json' ? 'json' : undefined, at: row.at, until: row.until, timer: null, ...(vouch ? { vouch } : {}),
  };
}

/** What a wait asked is held with: the arguments kept, and for how long (the asker's window at most). */
function holding(ask: HeldAsk): { args: Record<string, unknown>; ms: number } {
  const given = argsOf(ask.args);
  const args = Object.fromEntries(['on', 'timeout'].filter((k) => given[k] !== undefined).map((k) => [k, given[k]]));
  const window = typeof ask.wait === 'number' && ask.wait >= 0 ? ask.wait : UNSAID_HOLD_MS;
  return { args, ms: Math.min(waitLength(args), window) };
}

/** Is there news for `w`? A refusal (its list hidden since) is news too: the answer says it. */
async function changedFor(store: Store, w: Held): Promise<boolean> {
  try {
    return (await store.brief(w.who, { ...waitTarget(w.args), peek: true, limit: 1 })).items.length > 0;
  } catch (error) {
    if (error instanceof Refused) return true;
    throw error;
  }
}

/** Is what let the asker in still accepted? */
async function vouches(tx: Store, vouch: Vouch, now: number): Promise<boolean> {
  if (vouch.until !== undefined && vouch.until <= now) return false;
  return vouch.token === undefined || (await tx.checkTokenPrefix(vouch.token)).ok;
}

/**
 * The answer to held wait `w`, in the transaction `tx` that takes it out of `waits`: null to keep
 * it held (its ask answered already, or the news taken meanwhile by another reader of its asker).
 */
async function heldAnswer(perform: Perform, tx: Store, w: Held, when: { timeUp: boolean; gaveUp: boolean; now: number }): Promise<Answer | null> {
  if (!await tx.ledger.held(w.dir, w.id)) return null;
  let answer: Answer;
  if (when.gaveUp) answer = { ok: true, ...toldAs(LATE) };
  else if (w.vouch && !await vouches(tx, w.vouch, when.now)) answer = { ok: false, text: VOUCH_GONE_TEXT, refusal: 'access' };
  else {
    answer = await perform('wait', w.args, w.who, 'json', 'en', tx);
    if (answer.ok && !(answer.data as WaitData).changed) {
      if (!when.timeUp) return null;
      answer = { ok: true, ...toldAs(await sayNothing(w.args, w.who, { store: tx }, w.until - w.at)), data: answer.data };
    }
  }
  await tx.ledger.unhold(w.dir, w.id);
  return answer;
}

/** Waits held and being taken for one agent. */
function heldFor(agent: string, held: ReadonlyMap<string, Held>, taking: ReadonlyMap<string, number>): number {
  let n = taking.get(agent) ?? 0;
  for (const w of held.values()) if (w.who.id === agent) n++;
  return n;
}

export function createHeldWaits(deps: HeldWaitsDeps): HeldWaits {
  const { store } = deps;
  const cap = deps.cap ?? WAIT_CAP;
  const perAgent = deps.perAgent ?? WAITS_PER_AGENT;
  const held = new Map<string, Held>();
  let pump: AnswerLater | null = null;
  /** Waits taken since the last adoption, by agent: counted against the caps before they are adopted. */
  const taking = new Map<string, number>();
  let takingAll = 0;
  let check: NodeJS.Immediate | null = null;
  /** The look at every wait held under way, if one is: the next waits for its end. */
  let checking: Promise<void> | null = null;
  let adopting: NodeJS.Immediate | null = null;
  let unlisten: (() => void) | null = null;
  let lapser: NodeJS.Timeout | null = null;
  let closed = false;

  const say = (line: string): void => deps.log(`binder keeper: ${terminalSafe(line)}`);

  function forget(w: Held): void {
    if (w.timer) clearTimeout(w.timer);
    held.delete(key(w.dir, w.id));
    if (held.size === 0 && unlisten) {
      unlisten();
      unlisten = null;
    }
  }

  /** Answers `w` if something it waits on changed, or its time is up; forgets it once answered. */
  async function settle(w: Held, timeUp: boolean): Promise<void> {
    if (closed || !pump) return;
    const now = deps.now();
    const gaveUp = now > w.until + WAIT_MS;
    try {
      if (!timeUp && !gaveUp && !await changedFor(store, w)) return;
      await pump.answerHeld(w.dir, w.id, 'wait', w.want, (tx) => heldAnswer(deps.perform, tx, w, { timeUp, gaveUp, now }));
      if (!await store.ledger.held(w.dir, w.id)) forget(w);
      else if (timeUp) {
        // Its ask is not one the ledger holds open (it went): nothing can answer it any more.
        await store.transaction((tx) => tx.ledger.unhold(w.dir, w.id));
        forget(w);
        say(`a wait (${w.id}) held for ${w.dir} had no open ask left; dropped`);
      }
    } catch (error) {
      say(`a held wait failed and is kept: ${error instanceof Error ? error.message : String(error)}`);
      // Past its time, it is tried again shortly rather than left with nothing to answer it.
      if (timeUp && held.has(key(w.dir, w.id))) {
        w.timer = setTimeout(() => void settle(w, true), 1000);
        w.timer.unref();
      }
    }
  }

  async function checkAll(): Promise<void> {
    check = null;
    // One look at a time: news that comes during one is looked at by the next.
    if (checking) await checking;
    const look = (async () => {
      for (const w of [...held.values()]) await settle(w, false);
    })();
    checking = look;
    try {
      await look;
    } finally {
      if (checking === look) checking = null;
    }
  }
  function schedule(): void {
    if (closed || check || held.size === 0) return;
    check = setImmediate(() => void checkAll());
  }

  function keep(row: WaitRow): void {
    const k = key(row.dir, row.id);
    if (held.has(k)) return;
    const w = heldOf(row);
    held.set(k, w);
    w.timer = setTimeout(() => void settle(w, true), Math.max(0, w.until - deps.now()));
    w.timer.unref();
    unlisten ??= deps.news.listen(schedule);
  }

  async function adopt(): Promise<void> {
    adopting = null;
    taking.clear();
    takingAll = 0;
    if (closed) return;
    const rows = await store.ledger.heldIn(deps.dirs(), deps.anywhere ?? []);
    if (closed) return;
    for (const row of rows) keep(row);
    // What changed while they were not held (a keeper restarting) is looked at once now.
    if (rows.length) {
      check = null;
      schedule();
    }
  }

  return {
    async hold(dir, ask, who, now, inside) {
      if (ask.op !== 'wait') return undefined;
      const first = await deps.perform('wait', ask.args, who, 'json', 'en', inside);
      if (!first.ok || (first.data as WaitData).changed) return first;
      const { args, ms } = holding(ask);
      if (ms <= 0) return first;
      if (held.size + takingAll >= cap) return { ok: false, ...toldAs(BUSY), refusal: 'busy' };
      const mine = heldFor(who.id, held, taking);
      if (mine >= perAgent) return { ok: false, ...toldAs(busyAgent(mine)), refusal: 'busy' };
      await inside.ledger.hold({ dir, id: ask.id, who: JSON.stringify(ask.vouch ? { ...who, vouch: ask.vouch } : who), args: JSON.stringify(args), want: ask.want ?? null, at: now, until: now + ms });
      taking.set(who.id, (taking.get(who.id) ?? 0) + 1);
      takingAll++;
      // Held once its transaction committed: read back from the table, where a rollback leaves nothing.
      if (!adopting && !closed) adopting = setImmediate(() => void adopt().catch((error: unknown) => say(`taking up held waits failed: ${error instanceof Error ? error.message : String(error)}`)));
      return 'held';
    },
    answerThrough(given) {
      pump = given;
    },
    adopt,
    async takeUp(dir, id) {
      if (closed || held.has(key(dir, id))) return;
      const row = await store.ledger.held(dir, id);
      if (row && !closed) keep(row);
    },
    letGo(dir, id) {
      const w = held.get(key(dir, id));
      if (w) forget(w);
    },
    async start() {
      if (lapser || closed) return;
      lapser = setInterval(() => {
        store.lapse().catch((error: unknown) => say(`freeing lapsed claims failed: ${error instanceof Error ? error.message : String(error)}`));
      }, deps.lapseMs ?? 5000);
      await adopt();
      lapser.unref();
    },
    close() {
      closed = true;
      if (check) clearImmediate(check);
      if (adopting) clearImmediate(adopting);
      if (lapser) clearInterval(lapser);
      for (const w of [...held.values()]) forget(w);
      unlisten?.();
      check = adopting = lapser = unlisten = null;
    },
    count: () => held.size,
  };
}
