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
import type { Store } from '../store/store.js';
import type { Who } from '../store/types.js';
import { Refused } from '../store/store.js';
import { sayNothing, waitLength, waitTarget, type WaitData } from './catalog-together.js';
import type { News } from './news.js';
import type { Perform } from './perform.js';
import { WAIT_MS, type Answer } from './protocol.js';
import { terminalSafe } from './terminal-safe.js';

/** An ask as the pump read it (see folder-lines.ts). */
export interface HeldAsk {
  id: string;
  op: string | null;
  args: unknown;
  want: 'json' | undefined;
  /** ms the asker waits beyond the usual window; null when it did not say (an older client). */
  wait?: number | null;
}

/** What the held waits need of the pump: to answer one later, exactly once. */
export interface AnswerLater {
  /**
   * Inside one transaction: if ask `id` of `dir` was taken and is still unanswered, `decide`;
   * an answer it returns is recorded and then appended. Returns whether it was answered.
   */
  answerHeld(dir: string, id: string, op: string, want: 'json' | undefined, decide: () => Answer | null): boolean;
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
  /** The pump's hook, inside its transaction: an answer now, `held`, or undefined (not a wait). */
  hold(dir: string, ask: HeldAsk, who: Who, now: number): Answer | 'held' | undefined;
  /** The pump to answer through. */
  answerThrough(pump: AnswerLater): void;
  /** Takes up the waits in the store for this keeper's folders (left by a keeper that stopped). */
  adopt(): void;
  /** Takes up one wait of the store, if this keeper does not hold it yet (its asker came back). */
  takeUp(dir: string, id: string): void;
  /** Lets go of a wait whose row another transaction took out of the store (its asker went). */
  letGo(dir: string, id: string): void;
  /** Frees lapsed claims now and then. */
  start(): void;
  close(): void;
  /** How many waits this keeper holds now. */
  count(): number;
}

export const WAIT_CAP = 64;
/** How many waits one agent may have held at once, through its folder and over HTTP together. */
export const WAITS_PER_AGENT = 4;
export const BUSY_TEXT = 'Busy: this keeper holds as many waits as it can; try again in a few seconds (binder brief says what changed meanwhile).';
/** What an agent that holds as many waits as it may is told. */
export const busyAgentText = (n: number): string =>
  `Busy: you hold ${n} waits already, as many as one agent may; one returns when something changes or at its timeout (binder brief says what changed meanwhile).`;
export const LATE_TEXT = 'The keeper stopped while this wait was held and you stopped waiting; nothing was read for you: binder brief says what changed.';
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
}
interface WaitRow { dir: string; id: string; who: string; args: string; want: string | null; at: number; until: number }

const key = (dir: string, id: string): string => `${dir}\n${id}`;
const argsOf = (args: unknown): Record<string, unknown> =>
  (args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {});

export function createHeldWaits(deps: HeldWaitsDeps): HeldWaits {
  const { store } = deps;
  const cap = deps.cap ?? WAIT_CAP;
  const sql = {
    insert: store.db.prepare('INSERT INTO waits (dir, id, who, args, want, at, until) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    exists: store.db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM waits WHERE dir = ? AND id = ?'),
    remove: store.db.prepare<[string, string]>('DELETE FROM waits WHERE dir = ? AND id = ?'),
    inDirs: store.db.prepare<[string, string], WaitRow>(`SELECT * FROM waits WHERE dir IN (SELECT value FROM json_each(?))
      OR EXISTS (SELECT 1 FROM json_each(?) WHERE substr(dir, 1, length(value)) = value)`),
    one: store.db.prepare<[string, string], WaitRow>('SELECT * FROM waits WHERE dir = ? AND id = ?'),
  };
  const perAgent = deps.perAgent ?? WAITS_PER_AGENT;
  const held = new Map<string, Held>();
  let pump: AnswerLater | null = null;
  /** Waits taken since the last adoption, by agent: counted against the caps before they are adopted. */
  const taking = new Map<string, number>();
  let takingAll = 0;
  let check: NodeJS.Immediate | null = null;
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
  function settle(w: Held, timeUp: boolean): void {
    if (closed || !pump) return;
    const now = deps.now();
    const gaveUp = now > w.until + WAIT_MS;
    try {
      if (!timeUp && !gaveUp && !changedFor(w)) return;
      pump.answerHeld(w.dir, w.id, 'wait', w.want, () => {
        if (!sql.exists.get(w.dir, w.id)) return null;
        let answer: Answer;
        if (gaveUp) answer = { ok: true, text: LATE_TEXT };
        else {
          answer = deps.perform('wait', w.args, w.who, 'json');
          // Another reader of the same asker took the news meanwhile: keep waiting.
          if (answer.ok && !(answer.data as WaitData).changed) {
            if (!timeUp) return null;
            answer = { ok: true, text: sayNothing(w.args, w.who, { store }, w.until - w.at), data: answer.data };
          }
        }
        sql.remove.run(w.dir, w.id);
        return answer;
      });
      if (!sql.exists.get(w.dir, w.id)) forget(w);
      else if (timeUp) {
        // Its ask is not one the ledger holds open (it went): nothing can answer it any more.
        store.transaction(() => sql.remove.run(w.dir, w.id));
        forget(w);
        say(`a wait (${w.id}) held for ${w.dir} had no open ask left; dropped`);
      }
    } catch (error) {
      say(`a held wait failed and is kept: ${error instanceof Error ? error.message : String(error)}`);
      // Past its time, it is tried again shortly rather than left with nothing to answer it.
      if (timeUp && held.has(key(w.dir, w.id))) {
        w.timer = setTimeout(() => settle(w, true), 1000);
        w.timer.unref();
      }
    }
  }

  /** Is there news for `w`? A refusal (its list hidden since) is news too: the answer says it. */
  function changedFor(w: Held): boolean {
    try {
      return store.brief(w.who, { ...waitTarget(w.args), peek: true, limit: 1 }).items.length > 0;
    } catch (error) {
      if (error instanceof Refused) return true;
      throw error;
    }
  }

  function checkAll(): void {
    check = null;
    for (const w of [...held.values()]) settle(w, false);
  }
  function schedule(): void {
    if (closed || check || held.size === 0) return;
    check = setImmediate(checkAll);
  }

  function keep(row: WaitRow): void {
    const k = key(row.dir, row.id);
    if (held.has(k)) return;
    const w: Held = {
      dir: row.dir, id: row.id, who: JSON.parse(row.who) as Who, args: argsOf(JSON.parse(row.args)),
      want: row.want === 'json' ? 'json' : undefined, at: row.at, until: row.until, timer: null,
    };
    held.set(k, w);
    w.timer = setTimeout(() => settle(w, true), Math.max(0, w.until - deps.now()));
    w.timer.unref();
    unlisten ??= deps.news.listen(schedule);
  }

  /** Waits held and being taken for one agent. */
  function heldBy(agent: string): number {
    let n = taking.get(agent) ?? 0;
    for (const w of held.values()) if (w.who.id === agent) n++;
    return n;
  }

  function adopt(): void {
    adopting = null;
    taking.clear();
    takingAll = 0;
    if (closed) return;
    const rows = sql.inDirs.all(JSON.stringify(deps.dirs()), JSON.stringify(deps.anywhere ?? []));
    for (const row of rows) keep(row);
    // What changed while they were not held (a keeper restarting) is looked at once now.
    if (rows.length) {
      check = null;
      schedule();
    }
  }

  return {
    hold(dir, ask, who, now) {
      if (ask.op !== 'wait') return undefined;
      const first = deps.perform('wait', ask.args, who, 'json');
      if (!first.ok || (first.data as WaitData).changed) return first;
      const given = argsOf(ask.args);
      const args = Object.fromEntries(['on', 'timeout'].filter((k) => given[k] !== undefined).map((k) => [k, given[k]]));
      const asked = waitLength(args);
      const window = typeof ask.wait === 'number' && ask.wait >= 0 ? ask.wait : UNSAID_HOLD_MS;
      const ms = Math.min(asked, window);
      if (ms <= 0) return first;
      if (held.size + takingAll >= cap) return { ok: false, text: BUSY_TEXT, refusal: 'busy' };
      const mine = heldBy(who.id);
      if (mine >= perAgent) return { ok: false, text: busyAgentText(mine), refusal: 'busy' };
      sql.insert.run(dir, ask.id, JSON.stringify(who), JSON.stringify(args), ask.want ?? null, now, now + ms);
      taking.set(who.id, (taking.get(who.id) ?? 0) + 1);
      takingAll++;
      // Held once its transaction committed: read back from the table, where a rollback leaves nothing.
      if (!adopting && !closed) adopting = setImmediate(adopt);
      return 'held';
    },
    answerThrough(given) {
      pump = given;
    },
    adopt,
    takeUp(dir, id) {
      if (closed || held.has(key(dir, id))) return;
      const row = sql.one.get(dir, id);
      if (row) keep(row);
    },
    letGo(dir, id) {
      const w = held.get(key(dir, id));
      if (w) forget(w);
    },
    start() {
      if (lapser || closed) return;
      adopt();
      lapser = setInterval(() => {
        try {
          store.lapse();
        } catch (error) {
          say(`freeing lapsed claims failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }, deps.lapseMs ?? 5000);
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
