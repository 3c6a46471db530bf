/**
 * Among `--workers` on SQLite, one keeper makes every change asked over HTTP: the others hand it their
 * agents' changes over the cluster's channel (the minder passes them on, serve-workers.ts), a batch
 * per turn of their loop, and answer with what it answered. SQLite writes one transaction at a
 * time whoever asks: two writing processes each waited for the other's lock and read again the
 * pages the other's commits had changed, and their changes fell below one process's. Reads are
 * done where they are asked, and so are waits (held by the keeper that holds the request).
 *
 * The writer believes the agent a batch names: only this binder's own processes speak on the
 * channel, and each named the agent of a token it checked. An ask the minder hands back (no writer
 * took it: none was running) is done by the worker itself, as one keeper of several does.
 */
import type { Who } from '../store/index.js';
import type { DirectAnswer, DirectAskOptions } from './direct-asks.js';
import { STOPPED_TEXT } from './direct-asks.js';
import type { Keeper } from './keeper-types.js';
import { operation } from './operations.js';
import { FAILED_TEXT } from './pump-types.js';

/** An ask handed to the writer: `n` is its number in the worker that asks. */
export interface HandedAsk { n: number; who: Who; op: string; args: unknown; key?: string }

/** What goes on the channel between the workers and the minder. */
export type WriterMessage =
  /** A worker's asks (`from`: its id, set by the minder as it passes them to the writer). */
  | { binder: 'asks'; from?: number; asks: HandedAsk[] }
  /** The writer's answers (`to`: the worker that asked). */
  | { binder: 'answers'; to?: number; answers: { n: number; answer: DirectAnswer }[] }
  /** The minder to a worker: no writer did these; do them yourself. */
  | { binder: 'back'; asks: number[] }
  /** The writer to the minder: it takes asks from now on. */
  | { binder: 'writing' };

export const isWriterMessage = (message: unknown): message is WriterMessage =>
  typeof message === 'object' && message !== null && typeof (message as { binder?: unknown }).binder === 'string';

/** What a worker's end of the channel needs: a child process's own (`process`), or a test's. */
export interface Channel {
  send(message: WriterMessage): unknown;
  readonly connected: boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
}

/** Asks that change the binder, or that carry a key (a ledger's row): the writer's. */
function handed(op: string, options: DirectAskOptions): boolean {
  const spec = operation(op);
  return spec !== undefined && !spec.holds && (!spec.readOnly || options.key !== undefined);
}

/** Calls `send` once per turn of the loop with what was queued meanwhile. */
function batcher<T>(send: (items: T[]) => void): (item: T) => void {
  let queued: T[] = [];
  let due: NodeJS.Immediate | null = null;
  return (item) => {
    queued.push(item);
    due ??= setImmediate(() => {
      due = null;
      const items = queued;
      queued = [];
      send(items);
    });
  };
}

/** A worker's keeper: its changes handed to the writer, everything else its own. */
export function handingKeeper(keeper: Keeper, channel: Channel): Keeper {
  let last = 0;
  const waiting = new Map<number, { ask: HandedAsk; options: DirectAskOptions; resolve(answer: DirectAnswer | Promise<DirectAnswer>): void }>();
  const hand = batcher<HandedAsk>((asks) => {
    try {
      channel.send({ binder: 'asks', asks });
    } catch {
      // The channel closed meanwhile: nobody took them, so they are done here.
      for (const ask of asks) doHere(ask.n);
    }
  });
  const doHere = (n: number): void => {
    const was = waiting.get(n);
    if (!was) return;
    waiting.delete(n);
    was.resolve(keeper.ask(was.ask.who, was.ask.op, was.ask.args, was.options));
  };
  channel.on('message', (message) => {
    if (!isWriterMessage(message)) return;
    if (message.binder === 'back') for (const n of message.asks) doHere(n);
    if (message.binder !== 'answers') return;
    for (const { n, answer } of message.answers) {
      const was = waiting.get(n);
      waiting.delete(n);
      was?.resolve(answer);
    }
  });
  // The minder is gone: what the writer had may or may not be done; asked again with its key, it is done once.
  channel.on('disconnect', () => {
    for (const [n, was] of waiting) {
      waiting.delete(n);
      was.resolve({ ok: false, text: STOPPED_TEXT, refusal: 'stopped' });
    }
  });
  return {
    ...keeper,
    ask(who, op, args, options = {}) {
      if (!handed(op, options) || !channel.connected) return keeper.ask(who, op, args, options);
      return new Promise((resolve) => {
        const ask: HandedAsk = { n: ++last, who, op, args, ...(options.key !== undefined ? { key: options.key } : {}) };
        waiting.set(ask.n, { ask, options, resolve });
        hand(ask);
      });
    },
  };
}

/** The writer's end: does the asks handed to it, as its own HTTP asks, and answers each worker in batches. */
export function takeHandedAsks(keeper: Keeper, channel: Channel): { writing(): void } {
  const answerers = new Map<number, (item: { n: number; answer: DirectAnswer }) => void>();
  const answerer = (to: number) => {
    let send = answerers.get(to);
    if (!send) {
      send = batcher((answers) => { if (channel.connected) channel.send({ binder: 'answers', to, answers }); });
      answerers.set(to, send);
    }
    return send;
  };
  channel.on('message', (message) => {
    if (!isWriterMessage(message) || message.binder !== 'asks' || message.from === undefined) return;
    const send = answerer(message.from);
    for (const ask of message.asks) {
      void keeper.ask(ask.who, ask.op, ask.args, ask.key !== undefined ? { key: ask.key } : {}).then(
        (answer) => send({ n: ask.n, answer }),
        () => send({ n: ask.n, answer: { ok: false, text: FAILED_TEXT, refusal: 'failed' } }),
      );
    }
  });
  return { writing: () => { if (channel.connected) channel.send({ binder: 'writing' }); } };
}
