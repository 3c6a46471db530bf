/**
 * Asks that come through no folder (HTTP): the keeper's API for them. Each is done through the
 * one dispatch, as its agent; asks that arrive together are done in one transaction (one sync
 * for all, as the folder pump does). An ask with a key (HTTP's Idempotency-Key) is recorded under
 * it, in the same transaction as its change, in the ledger the folders use — in a place of its
 * agent's own (`http:agent:x`) — so that asked again it is answered from the ledger and never
 * done twice. A wait is held by the keeper's held waits and answered through here when they say.
 * It never believes who an ask says it is from: the caller says, having checked a token.
 */
import { createHash, randomUUID } from 'node:crypto';
import { type AskRow, type Store, StoreUnavailable, TokenLapsed, TransactionConflict, type Who } from '../store/index.js';
import type { AnswerLater, HeldWaits, Vouch } from './held-waits.js';
import { keptLine, type Kept } from './kept-answers.js';
import { takeAsk } from './take-ask.js';
import { operation } from './operations.js';
import { BUSY_STORE_TEXT, type Perform } from './perform.js';
import { UNAVAILABLE_TEXT, type Answer } from './protocol.js';
import { DISK_FULL_TEXT, FAILED_TEXT, diskFull } from './pump-types.js';
import { terminalSafe } from './terminal-safe.js';
import { said, toldAs } from './text-values.js';
import { step } from '../store/light.js';

/** The start of every place of asks that come over HTTP. */
export const DIRECT_PLACE = 'http:';
/** The ledger's place of an agent's HTTP asks: its keys are its own, never another agent's. */
export const directPlace = (who: Who): string => `${DIRECT_PLACE}${who.id}`;

export interface DirectAskOptions {
  /** Makes the ask exactly once: asked again with the same key, it is answered from the ledger. */
  key?: string;
  /** ms the asker waits for a wait's answer: the keeper holds it no longer. */
  wait?: number;
  /** Aborted when the asker goes away: a wait it cannot ask again (no key) is let go. */
  signal?: AbortSignal;
  /** What let the asker in: a wait held is answered only while it still does. */
  vouch?: Vouch;
}

export interface DirectAnswer extends Answer {
  /** Answered from the ledger: this key was asked before, and nothing was done again. */
  replayed?: boolean;
}

export interface DirectAsks extends AnswerLater {
  ask(who: Who, op: string, args: unknown, options?: DirectAskOptions): Promise<DirectAnswer>;
  /** Every ask still waiting for its answer is told the keeper stopped. */
  close(): void;
}

export interface DirectAsksDeps {
  store: Store;
  perform: Perform;
  waits: HeldWaits;
  now(): number;
  log(line: string): void;
  /** Test hook: called once changes were done and committed, before their askers are answered. */
  crashAfterCommit?: () => void;
}

export const STOPPED_TEXT = 'The keeper stopped before it could answer: ask again (with the same Idempotency-Key, a change is never done twice).';
export const OTHER_ASK_TEXT = 'This Idempotency-Key was given with another ask: nothing was done. Give each ask its own key.';
export const TOO_DEEP_TEXT = 'The arguments are nested too deeply to be read: nothing was done. Send them as one plain JSON object.';
export const FORGOTTEN = said`This Idempotency-Key was answered more than a minute ago and its answer is no longer kept; nothing was done again (${step('brief')} says what changed).`;
export const FORGOTTEN_TEXT = FORGOTTEN.text;
const GONE_TEXT = 'Its asker went away before anything changed: the wait was let go.';

interface Queued {
  who: Who; op: string; args: unknown; options: DirectAskOptions; resolve(answer: DirectAnswer): void;
  /** What was asked under its key (askedOf), for a key given again with another ask. */
  asked?: string;
}

/** A promise looked at later, or never (its ask failed first): no unhandled rejection meanwhile. */
const quietly = <T>(p: Promise<T>): Promise<T> => {
  p.catch(() => undefined);
  return p;
};

/** Batches of one keeper done at once on a server store (its pool has room for them and more). */
const BATCH_LANES = 4;

const slot = (place: string, id: string): string => `${place}\n${id}`;
/** What was asked, to tell a key given again with another ask. */
const askedOf = (op: string, args: unknown): string => createHash('sha256').update(JSON.stringify([op, args ?? null]) ?? '').digest('base64url');

const unline = (text: string): Kept => JSON.parse(text) as Kept;
const shown = ({ asked: _asked, ...answer }: Kept): Answer => answer;

/** What a batch that could not be done (its transaction failed whole) answers each of its asks. */
function batchFailed(error: unknown): Answer {
  const full = diskFull(error);
  return error instanceof StoreUnavailable ? { ok: false, text: UNAVAILABLE_TEXT, refusal: 'stopped' }
    : error instanceof TransactionConflict ? { ok: false, text: BUSY_STORE_TEXT, refusal: 'busy' }
    : { ok: false, text: full ? DISK_FULL_TEXT : FAILED_TEXT, refusal: full ? 'stopped' : 'failed' };
}

/** What to do for an ask whose key the ledger has already: nothing is done again (`attach`: wait for a wait still held). */
function replay(row: AskRow, q: Queued, attach: () => void): () => void {
  if (row.answer === null && row.delivered === 0) return attach;
  if (row.answer === null) return () => q.resolve({ ok: false, ...toldAs(FORGOTTEN), refusal: 'rule', replayed: true });
  const kept = unline(row.answer);
  if (kept.asked !== undefined && kept.asked !== q.asked) return () => q.resolve({ ok: false, text: OTHER_ASK_TEXT, refusal: 'rule' });
  return () => q.resolve({ ...shown(kept), replayed: true });
}

/**
 * Answers the asks of a batch whose transaction failed whole, and returns those to do again. An
 * asker's token lapsed, seen by the look sent with its ask's first statement (store/token-ahead.ts):
 * that asker's asks are refused, the others done again without them. Anything else: all are told.
 */
function afterFailure(batch: Queued[], error: unknown, say: (line: string) => void): Queued[] {
  const lapsed = error instanceof TokenLapsed ? batch.filter((q) => q.who === error.who) : [];
  if (lapsed.length) {
    for (const q of lapsed) q.resolve({ ok: false, text: (error as TokenLapsed).message, refusal: 'access' });
    return batch.filter((q) => !lapsed.includes(q));
  }
  say(`${batch.length} ask${batch.length === 1 ? '' : 's'} over HTTP could not be done: ${error instanceof Error ? error.message : String(error)}`);
  const answer = batchFailed(error);
  for (const q of batch) q.resolve(answer);
  return [];
}

export function createDirectAsks(deps: DirectAsksDeps): DirectAsks {
  const { store, perform, waits } = deps;
  const holdOne = (inside: Store, place: string, id: string, q: Queued, now: number): Promise<Answer | 'held' | undefined> =>
    waits.hold(place, { id, op: q.op, args: q.args, want: 'json', wait: q.options.wait ?? null, ...(q.options.vouch ? { vouch: q.options.vouch } : {}) }, q.who, now, inside);
  const queue: Queued[] = [];
  /** Askers waiting for a held wait's answer, by place and id. */
  const pending = new Map<string, Set<(answer: DirectAnswer) => void>>();
  let flushing: NodeJS.Immediate | null = null;
  /**
   * Batches under way, each after the one before it in its lane (asks that come in meanwhile join
   * the next). SQLite does one transaction at a time whatever is asked: one lane. A server store
   * does several at once, each on a connection of its own, meeting as two keepers' would (a
   * conflict runs one again): a few lanes, so one keeper's batches are not one at a time.
   */
  const inFlight: Promise<void>[] = Array.from({ length: store.severalKeepers ? BATCH_LANES : 1 }, () => Promise.resolve());
  let lane = 0;
  let closed = false;

  const say = (line: string): void => deps.log(`binder keeper: ${terminalSafe(line)}`);

  function tell(place: string, id: string, answer: DirectAnswer): void {
    const waiting = pending.get(slot(place, id));
    pending.delete(slot(place, id));
    for (const resolve of waiting ?? []) resolve(answer);
    waiting?.clear();
  }

  /** Waits for the answer of a held wait; one that cannot be asked again is let go when its asker goes. */
  function attach(place: string, id: string, q: Queued, again: boolean): void {
    const at = slot(place, id);
    const waiting = pending.get(at) ?? new Set();
    pending.set(at, waiting);
    waiting.add(q.resolve);
    void waits.takeUp(place, id).catch((error: unknown) => say(`a held wait could not be taken up: ${error instanceof Error ? error.message : String(error)}`));
    const signal = q.options.signal;
    if (!signal) return;
    const gone = (): void => {
      // Its request ends here (the answer goes nowhere): nothing of it is kept waiting.
      if (!waiting.delete(q.resolve)) return;
      q.resolve({ ok: false, text: GONE_TEXT, refusal: 'stopped' });
      if (again || waiting.size) return;
      store.transaction(async ({ ledger }) => {
        if (!await ledger.open(place, id)) return;
        await ledger.unhold(place, id);
        await ledger.answer(place, id, keptLine('', { ok: true, text: GONE_TEXT }), true);
      }).then(() => waits.letGo(place, id), (error: unknown) => {
        say(`a wait whose asker went could not be let go; it is answered at its time: ${error instanceof Error ? error.message : String(error)}`);
      });
    };
    if (signal.aborted) gone();
    else signal.addEventListener('abort', gone, { once: true });
  }

  /** Inside the batch's transaction: does one ask, and returns what to do once it is committed. */
  async function one(tx: Store, q: Queued, now: number): Promise<() => void> {
    const place = directPlace(q.who);
    const key = q.options.key;
    const id = key ?? randomUUID();
    const holds = operation(q.op)?.holds !== undefined;
    const took = await takeAsk(tx, {
      place, id, at: now,
      // Not waited for before the change: it goes to a server store with the change's first statement.
      ...(key !== undefined ? { looked: quietly(tx.ledger.recorded(place, key)) } : {}),
      ...(holds ? { hold: (inside: Store) => holdOne(inside, place, id, q, now) } : {}),
      perform: (inside) => perform(q.op, q.args, q.who, 'json', 'en', inside),
      failed: (error) => {
        say(`an ask (${q.op}) over HTTP failed in the keeper and was undone: ${error instanceof Error ? error.message : String(error)}`);
        return { ok: false, text: FAILED_TEXT, refusal: 'failed' };
      },
      // Busy is no answer to keep: asked again with its key later, the ask is done then.
      record: (answer) => (key !== undefined && answer.refusal !== 'busy' ? { line: keptLine(q.op, answer, q.asked), delivered: true } : null),
    });
    if ('before' in took) return replay(took.before, q, () => attach(place, key!, q, true));
    if ('held' in took) return () => attach(place, id, q, key !== undefined);
    return () => q.resolve(took.answer);
  }

  async function flush(): Promise<void> {
    const batch = queue.splice(0);
    if (batch.length === 0) return;
    const now = deps.now();
    const after: (() => void)[] = [];
    // Asks that only read are not worth a wait for the disk: lost to a power cut, a read is read again.
    const reads = batch.every((q) => operation(q.op)?.readOnly === true && !operation(q.op)?.holds);
    try {
      await store.transaction(async (tx) => {
        // Run again from the start when the database asks (PostgreSQL): nothing of a try before is kept.
        after.length = 0;
        for (const q of batch) after.push(await one(tx, q, now));
      }, { sync: !reads });
    } catch (error) {
      const rest = afterFailure(batch, error, say);
      queue.unshift(...rest);
      return rest.length ? flush() : undefined;
    }
    if (!reads) deps.crashAfterCommit?.();
    for (const done of after) done();
  }

  return {
    ask(who, op, args, options = {}) {
      if (closed) return Promise.resolve({ ok: false, text: STOPPED_TEXT, refusal: 'stopped' });
      const spec = operation(op);
      // A read with no key needs no ledger, and no transaction of the batch's: it is done at once.
      if (options.key === undefined && spec?.readOnly && !spec.holds) return perform(op, args, who, 'json');
      // Read before it joins a batch: arguments that cannot be read fail this ask alone, never the
      // batch's transaction and every other agent's ask in it.
      let asked: string | undefined;
      try {
        asked = options.key !== undefined ? askedOf(op, args) : undefined;
      } catch {
        return Promise.resolve({ ok: false, text: TOO_DEEP_TEXT, refusal: 'not-understood' });
      }
      return new Promise((resolve) => {
        queue.push({ who, op, args, options, resolve, ...(asked !== undefined ? { asked } : {}) });
        flushing ??= setImmediate(() => {
          flushing = null;
          const at = lane;
          lane = (lane + 1) % inFlight.length;
          inFlight[at] = inFlight[at]!.then(flush).catch((error: unknown) => say(`a batch of asks over HTTP failed: ${error instanceof Error ? error.message : String(error)}`));
        });
      });
    },
    async answerHeld(dir, id, op, _want, decide) {
      const answer = await store.transaction(async (tx) => {
        if (!await tx.ledger.open(dir, id)) return null;
        const given = await decide(tx);
        if (given) await tx.ledger.answer(dir, id, keptLine(op, given), true);
        return given;
      });
      // Answered by another keeper of the store meanwhile: its asker is told that answer.
      const row = answer ? null : await store.ledger.recorded(dir, id);
      const told = answer ?? (row?.answer ? shown(unline(row.answer)) : null);
      if (told) tell(dir, id, told);
      return answer !== null;
    },
    close() {
      closed = true;
      if (flushing) clearImmediate(flushing);
      flushing = null;
      for (const q of queue.splice(0)) q.resolve({ ok: false, text: STOPPED_TEXT, refusal: 'stopped' });
      for (const [at, waiting] of pending) {
        pending.delete(at);
        for (const resolve of waiting) resolve({ ok: false, text: STOPPED_TEXT, refusal: 'stopped' });
      }
    },
  };
}
