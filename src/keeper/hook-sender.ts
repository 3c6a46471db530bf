/**
 * The keeper's webhook deliveries: after changes (within 20 ms; and when a retry falls due) it has the
 * store keep a delivery for each new event a hook asked for, then POSTs the deliveries due, each
 * signed (`Binder-Signature: t=…,v1=…`, HMAC-SHA256 over `${t}.${body}` with the hook's secret)
 * and with its id (`Binder-Delivery`), the same at every try. A redirect is not followed, a try
 * lasts at most `timeoutMs`, and what a receiver answers is kept clipped and plain. On PostgreSQL
 * one keeper sends (a lock, as a folder's). It never logs a secret, a body, nor a receiver's answer.
 */
import { createHmac } from 'node:crypto';
import type { DeliveryToTry, StoreKeeping, TryOutcome } from '../store/index.js';
import type { News } from './news.js';

/** A try's longest wait for the receiver's answer. */
export const HOOK_TIMEOUT_MS = 10_000;
/** What of a receiver's answer is read: enough for `hook list` to say why it failed. */
const ANSWER_READ = 1024;
/** Deliveries tried at once (each of another record, or another hook). */
const AT_ONCE = 8;
/** The longest the keeper sleeps between passes when nothing wakes it: a keeper that did not hold the lock looks again. */
const LOOK_AGAIN_MS = 30_000;
/**
 * How long after a change the keeper looks for new events: the changes made meanwhile are looked
 * at in one pass, one read of the store (hookWork): looked at after every change, the reads were
 * a third of what a change sent to a server store, in a binder with no hook at all.
 */
const AFTER_CHANGE_MS = 20;
/** The lock's name among a PostgreSQL binder's keepers: not a folder's binding (dev:ino:birth). */
const SENDER = 'webhooks';

export interface HookSenderDeps {
  store: StoreKeeping;
  news: News;
  now: () => number;
  log: (line: string) => void;
  timeoutMs?: number;
}

export interface HookSender {
  /** Starts delivering (a pass now, then at each change and each retry due). */
  start(): void;
  /** Stops; a try under way is left to be tried again (it was not marked sent). */
  close(): Promise<void>;
}

/** The header a receiver checks: `t=UNIX_SECONDS,v1=HEX(HMAC-SHA256(secret, "t.body"))`. */
export function signDelivery(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/** The first bytes of an answer's body, as text; the rest is never read. */
async function answerStart(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ANSWER_READ) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, ANSWER_READ).toString('utf8');
}

/** One try of one delivery: what came of it, never thrown. */
export async function tryDelivery(d: DeliveryToTry, now: number, timeoutMs: number, stop?: AbortSignal): Promise<TryOutcome> {
  try {
    const response = await fetch(d.url, {
      method: 'POST',
      redirect: 'manual',
      signal: stop ? AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]) : AbortSignal.timeout(timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Binder-Hooks',
        'binder-delivery': d.id,
        'binder-event': d.event,
        'binder-signature': signDelivery(d.secret, d.body, Math.floor(now / 1000)),
      },
      body: d.body,
    });
    const said = await answerStart(response).catch(() => '');
    if (response.status >= 200 && response.status < 300) return { delivered: true, status: response.status, error: null };
    if (response.status >= 300 && response.status < 400) {
      return { delivered: false, status: response.status, error: 'the receiver answered with a redirect, which is not followed: give the hook its final URL' };
    }
    return { delivered: false, status: response.status, error: `HTTP ${response.status}${said.trim() ? `: ${said}` : ''}` };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    const why = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${Math.round(timeoutMs / 1000)} s`
      : `${error instanceof Error ? error.message : String(error)}${cause ? ` (${cause})` : ''}`;
    return { delivered: false, status: null, error: why };
  }
}

export function createHookSender(deps: HookSenderDeps): HookSender {
  const { store, now, log } = deps;
  const timeoutMs = deps.timeoutMs ?? HOOK_TIMEOUT_MS;
  // A delivery being sent is left alone by the other keepers a little past its longest try.
  const leaseMs = timeoutMs + 5_000;
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Infinity;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let unlisten: (() => void) | null = null;
  const stopping = new AbortController();

  const schedule = (delay: number): void => {
    if (closed) return;
    const at = now() + Math.max(0, delay);
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => { timer = null; timerAt = Infinity; void pass(); }, Math.max(0, delay));
    timer.unref();
  };

  async function once(): Promise<void> {
    // One look first: most passes (a keeper's own changes, news of another's) find nothing to do.
    const work = await store.hookWork();
    let next = work.next;
    if (work.behind) {
      let more = true;
      while (more && !closed) more = (await store.queueHookEvents()).more;
      next = await store.nextDeliveryAt();
    }
    if (next === null) return;
    if (next > now()) { schedule(Math.min(next - now(), LOOK_AGAIN_MS)); return; }
    if (!(await store.holdFolder(SENDER))) { schedule(LOOK_AGAIN_MS); return; }
    const due = await store.deliveriesDue(AT_ONCE, leaseMs);
    await Promise.all(due.map(async (d) => {
      const outcome = await tryDelivery(d, now(), timeoutMs, stopping.signal);
      if (closed) return;
      await store.deliveryTried(d.id, outcome);
    }));
    if (due.length) again = true;
    else schedule(LOOK_AGAIN_MS);
  }

  function pass(): Promise<void> {
    if (closed) return Promise.resolve();
    if (running) { again = true; return running; }
    running = (async () => {
      do {
        again = false;
        try {
          await once();
        } catch (error) {
          log(`binder keeper: the webhooks' pass failed: ${error instanceof Error ? error.message : String(error)}`);
          schedule(LOOK_AGAIN_MS);
        }
      } while (again && !closed);
    })().finally(() => { running = null; });
    return running;
  }

  return {
    start() {
      unlisten ??= deps.news.listen(() => schedule(AFTER_CHANGE_MS));
      schedule(0);
    },
    async close() {
      closed = true;
      stopping.abort();
      unlisten?.();
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
