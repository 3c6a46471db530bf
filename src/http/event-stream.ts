/**
 * The life of a stream of Server-Sent Events, written once for the agents' changes
 * (`/api/changes`) and the page's (`/page/events`): its headers, a ping on a quiet stream, a
 * bound on the streams one holder keeps open, its end when the client goes, and its cut-off when
 * the client reads too slowly. What a stream says, and when, is its route's; this never reads
 * the binder.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { HttpEnv } from './auth.js';
import { STREAMS_PER_AGENT, STREAM_PING_MS } from './limits.js';

/** Bytes a stream may have waiting for its client to read them before it is cut off. */
const BEHIND_MAX = 1024 * 1024;

const HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' };

/** The streams open per holder (an agent, a browser's session), for one route. */
export interface OpenStreams {
  /** Whether the holder has as many open as one may. */
  full(holder: string): boolean;
  opened(holder: string): void;
  closed(holder: string): void;
}

export function openStreams(): OpenStreams {
  const open = new Map<string, number>();
  return {
    full: (holder) => (open.get(holder) ?? 0) >= STREAMS_PER_AGENT,
    opened: (holder) => { open.set(holder, (open.get(holder) ?? 0) + 1); },
    closed(holder) {
      const left = (open.get(holder) ?? 1) - 1;
      if (left > 0) open.set(holder, left);
      else open.delete(holder);
    },
  };
}

export interface StreamLife {
  open: OpenStreams;
  holder: string;
  /** At each ping, once it is sent: a look at whether the stream may go on. */
  onPing(): void;
  /** Once, when the stream stops for whatever reason: let go of what it listens to. */
  onStop(): void;
}

export interface EventStream {
  /** Sends whole events as written; nothing once the stream stopped. */
  send(text: string): void;
  /** Ends the stream from this side: it stops, and its client sees the end. */
  end(): void;
  /** Whether it stopped: its client went or read too slowly, or it was ended. */
  readonly stopped: boolean;
  /** The response that carries it, to give back to the client. */
  readonly response: Response;
}

/** Opens a stream for the request of `c`; the caller checked `open.full(holder)` first. */
export function eventStream(c: Context<HttpEnv>, life: StreamLife): EventStream {
  const encoder = new TextEncoder();
  // Served by Node, the connection itself (cut without a word to the log); none without a socket.
  const socket = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
  let stopped = false;
  let ping: NodeJS.Timeout | null = null;
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    if (ping) clearInterval(ping);
    life.open.closed(life.holder);
    life.onStop();
  };
  const send = (text: string): void => {
    if (stopped || !controller) return;
    try {
      controller.enqueue(encoder.encode(text));
      // A client that does not read is not kept up with: what waits for it is dropped with its
      // connection, and it comes back (with Last-Event-ID, or to read its view afresh).
      if ((controller.desiredSize ?? 0) < -BEHIND_MAX) {
        stop();
        if (socket) socket.destroy();
        else controller.error(new Error('the client reads too slowly'));
      }
    } catch {
      stop();
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(given) { controller = given; },
    cancel: stop,
  }, new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }));
  life.open.opened(life.holder);
  ping = setInterval(() => {
    send(': ping\n\n');
    life.onPing();
  }, STREAM_PING_MS);
  ping.unref();
  c.req.raw.signal.addEventListener('abort', stop, { once: true });
  return {
    send,
    end() {
      stop();
      try {
        controller?.close();
      } catch {
        // Closed already.
      }
    },
    get stopped() { return stopped; },
    response: new Response(body, { headers: HEADERS }),
  };
}
