/**
 * `GET /api/changes`: Server-Sent Events, one per change the caller may see — what `brief` would
 * show it (from its place in the history, or after `Last-Event-ID`), then each change as it comes,
 * woken by the keeper's news, never by polling the binder. It only looks: the caller's place
 * is never moved (`brief` still shows the changes once). `?on=LIST|#ID` narrows it as `wait` does.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { itemLine, waitTarget } from '../keeper/catalog-together.js';
import { jsonDocument } from '../keeper/json-document.js';
import type { Keeper } from '../keeper/keeper-types.js';
import type { Brief } from '../store/index.js';
import { STATUS, refusalOf, refuse, textOf } from './answers.js';
import { tokenGone, type HttpEnv } from './auth.js';
import { STREAMS_PER_AGENT, STREAM_PING_MS } from './limits.js';

const PAGE = 100;
/** Bytes a stream may have waiting for its client to read them before it is closed. */
const BEHIND_MAX = 1024 * 1024;

export function changesHandler(): (c: Context<HttpEnv>) => Promise<Response> {
  const open = new Map<string, number>();
  return async (c) => {
    const { who, org } = c.get('caller');
    const keeper: Keeper = c.get('keeper');
    // Counted per binder: an agent of one organisation is not another's of the same name.
    const counted = org !== undefined ? `${org}\n${who.id}` : who.id;
    if ((open.get(counted) ?? 0) >= STREAMS_PER_AGENT) {
      return refuse(c, 429, `You have ${STREAMS_PER_AGENT} streams of changes open already: close one first.`, { 'Retry-After': '5' });
    }
    const on = c.req.query('on');
    const target = on !== undefined ? waitTarget({ on }) : {};
    const last = c.req.header('last-event-id');
    let after: number | undefined = last !== undefined && /^\d{1,15}$/.test(last.trim()) ? Number(last.trim()) : undefined;
    const look = async (): Promise<Brief> => keeper.store.brief(who, { ...target, peek: true, limit: PAGE, ...(after !== undefined ? { after } : {}) });
    let first: Brief;
    try {
      first = await look();
    } catch (error) {
      const refused = refusalOf(error);
      if (refused) return refuse(c, STATUS[refused.kind], refused.text);
      throw error;
    }

    const encoder = new TextEncoder();
    // Served by Node, the connection itself (cut without a word to the log); none without a socket.
    const socket = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
    const out = { send: (_text: string): void => {} };
    let end = (): void => {};
    let stopped = false;
    let reading = false;
    let again = false;
    let unlisten = (): void => {};
    let ping: NodeJS.Timeout | null = null;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      unlisten();
      if (ping) clearInterval(ping);
      open.set(counted, (open.get(counted) ?? 1) - 1);
      if ((open.get(counted) ?? 0) <= 0) open.delete(counted);
    };
    const tell = (brief: Brief): void => {
      const events = brief.items.map((item) => `id: ${item.id}\nevent: change\ndata: ${jsonDocument({ ...item, line: textOf(itemLine(item, who, true).text) })}\n\n`);
      if (events.length) out.send(events.join(''));
      after = brief.through ?? after;
    };
    // The stream lives as long as its token: looked at again before each look and at each
    // ping, so a token revoked (a commit, which wakes the stream) or expired ends it, telling
    // nothing more.
    const stillAccepted = async (): Promise<boolean> => {
      if (stopped) return false;
      const gone = await tokenGone(c);
      if (gone === null) return true;
      out.send(`event: refused\ndata: ${jsonDocument({ ok: false, text: gone, data: null })}\n\n`);
      stop();
      end();
      return false;
    };
    // One look at a time; news during a look makes one more look after it.
    const wake = async (): Promise<void> => {
      if (stopped) return;
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          if (!await stillAccepted()) return;
          const brief = await look();
          tell(brief);
          again ||= brief.more;
        } while (again && !stopped);
      } catch (error) {
        out.send(`event: refused\ndata: ${jsonDocument({ ok: false, text: textOf(error instanceof Error ? error.message : String(error)), data: null })}\n\n`);
      } finally {
        reading = false;
      }
    };

    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        end = () => {
          try {
            controller.close();
          } catch {
            // Closed already.
          }
        };
        out.send = (text) => {
          if (stopped) return;
          try {
            controller.enqueue(encoder.encode(text));
            // A client that does not read is not kept up with: what waits for it is dropped with
            // its connection, and it comes back with Last-Event-ID.
            if ((controller.desiredSize ?? 0) < -BEHIND_MAX) {
              stop();
              if (socket) socket.destroy();
              else controller.error(new Error('the client reads too slowly'));
            }
          } catch {
            stop();
          }
        };
      },
      cancel: stop,
    }, new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }));
    open.set(counted, (open.get(counted) ?? 0) + 1);
    out.send(`: changes for ${who.id}\nretry: 2000\n\n`);
    tell(first);
    unlisten = keeper.onNews(() => void wake());
    ping = setInterval(() => {
      out.send(': ping\n\n');
      void stillAccepted().catch(() => undefined);
    }, STREAM_PING_MS);
    ping.unref();
    c.req.raw.signal.addEventListener('abort', stop, { once: true });
    if (first.more) void wake();
    return new Response(body, {
      headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' },
    });
  };
}
