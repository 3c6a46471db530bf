/**
 * The minder's part of one writer among workers (one-writer.ts): each worker's batch of asks goes
 * to the writer, the writer's answers back to the worker that asked. When no writer takes asks
 * (not started yet, or ended and not yet replaced), a batch is handed back: its worker does it.
 * When the writer ends with asks in hand, those with an Idempotency-Key are handed back too (done
 * once, whether the writer had committed them or not); the others are answered that the keeper
 * stopped, as their request would have been had its own keeper ended.
 */
import type { Worker } from 'node:cluster';
import { STOPPED_TEXT } from './direct-asks.js';
import { isWriterMessage } from './one-writer.js';

export interface WriterRelay {
  /** `worker` is the writer from now on (it says when it takes asks). */
  writerIs(worker: Worker): void;
  isWriter(worker: Worker): boolean;
  /** Called once, when the writer of now says it takes asks. */
  onWriting(then: () => void): void;
  message(worker: Worker, message: unknown): void;
  ended(worker: Worker): void;
}

export function createWriterRelay(byId: (id: number) => Worker | undefined): WriterRelay {
  let writer: Worker | null = null;
  let writing = false;
  let whenWriting: (() => void) | null = null;
  /** Asks the writer has, by `worker id:n`. */
  const inHand = new Map<string, { worker: Worker; n: number; keyed: boolean }>();
  // A worker may be gone before its channel says so (killed): the send fails (EPIPE) into its
  // callback — without one, into an 'error' event that would end the minder and every worker with
  // it. Its 'exit' follows, and ended() deals with what it had in hand.
  const send = (worker: Worker, message: unknown): void => {
    if (worker.isConnected()) worker.send(message as never, undefined, () => undefined);
  };

  return {
    writerIs(worker) {
      writer = worker;
      writing = false;
    },
    isWriter: (worker) => worker === writer,
    onWriting(then) {
      whenWriting = then;
    },
    message(worker, message) {
      if (!isWriterMessage(message)) return;
      if (message.binder === 'writing' && worker === writer) {
        writing = true;
        whenWriting?.();
        whenWriting = null;
      }
      if (message.binder === 'asks' && Array.isArray(message.asks)) {
        if (!writer || !writing || !writer.isConnected()) {
          send(worker, { binder: 'back', asks: message.asks.map((ask) => ask.n) });
          return;
        }
        for (const ask of message.asks) inHand.set(`${worker.id}:${ask.n}`, { worker, n: ask.n, keyed: ask.key !== undefined });
        send(writer, { binder: 'asks', from: worker.id, asks: message.asks });
      }
      if (message.binder === 'answers' && worker === writer && message.to !== undefined) {
        for (const { n } of message.answers) inHand.delete(`${message.to}:${n}`);
        const to = byId(message.to);
        if (to) send(to, { binder: 'answers', answers: message.answers });
      }
    },
    ended(worker) {
      if (worker !== writer) {
        for (const [at, ask] of inHand) if (ask.worker === worker) inHand.delete(at);
        return;
      }
      writer = null;
      writing = false;
      const back = new Map<Worker, number[]>();
      const stopped = new Map<Worker, number[]>();
      for (const ask of inHand.values()) {
        const to = ask.keyed ? back : stopped;
        to.set(ask.worker, [...(to.get(ask.worker) ?? []), ask.n]);
      }
      inHand.clear();
      for (const [to, asks] of back) send(to, { binder: 'back', asks });
      for (const [to, asks] of stopped) {
        send(to, { binder: 'answers', answers: asks.map((n) => ({ n, answer: { ok: false, text: STOPPED_TEXT, refusal: 'stopped' } })) });
      }
    },
  };
}
