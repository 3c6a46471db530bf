/**
 * `GET /api/changes`: Server-Sent Events, one per change the caller may see — what `brief` would
 * show it (from its place in the history, or after `Last-Event-ID`), then each change as it comes,
 * woken by the keeper's news, never by polling the binder. It only looks: the caller's place
 * is never moved (`brief` still shows the changes once). `?on=LIST|#ID` narrows it as `wait` does.
 */
import type { Context } from 'hono';
import { itemLine, waitTarget } from '../keeper/catalog-together.js';
import { jsonDocument } from '../keeper/json-document.js';
import type { Keeper } from '../keeper/keeper-types.js';
import type { Brief } from '../store/index.js';
import { STATUS, refusalOf, refuse, textOf } from './answers.js';
import { tokenGone, type HttpEnv } from './auth.js';
import { eventStream, openStreams } from './event-stream.js';
import { STREAMS_PER_AGENT } from './limits.js';

const PAGE = 100;

export function changesHandler(): (c: Context<HttpEnv>) => Promise<Response> {
  const open = openStreams();
  return async (c) => {
    const { who, org } = c.get('caller');
    const keeper: Keeper = c.get('keeper');
    // Counted per binder: an agent of one organisation is not another's of the same name.
    const counted = org !== undefined ? `${org}\n${who.id}` : who.id;
    if (open.full(counted)) {
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

    let reading = false;
    let again = false;
    let unlisten = (): void => {};
    const stream = eventStream(c, {
      open,
      holder: counted,
      onPing: () => void stillAccepted().catch(() => undefined),
      onStop: () => unlisten(),
    });
    const tell = (brief: Brief): void => {
      const events = brief.items.map((item) => `id: ${item.id}\nevent: change\ndata: ${jsonDocument({ ...item, line: textOf(itemLine(item, who, true).text) })}\n\n`);
      if (events.length) stream.send(events.join(''));
      after = brief.through ?? after;
    };
    // The stream lives as long as its token: looked at again before each look and at each
    // ping, so a token revoked (a commit, which wakes the stream) or expired ends it, telling
    // nothing more.
    const stillAccepted = async (): Promise<boolean> => {
      if (stream.stopped) return false;
      const gone = await tokenGone(c);
      if (gone === null) return true;
      stream.send(`event: refused\ndata: ${jsonDocument({ ok: false, text: gone, data: null })}\n\n`);
      stream.end();
      return false;
    };
    // One look at a time; news during a look makes one more look after it.
    const wake = async (): Promise<void> => {
      if (stream.stopped) return;
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
        } while (again && !stream.stopped);
      } catch (error) {
        stream.send(`event: refused\ndata: ${jsonDocument({ ok: false, text: textOf(error instanceof Error ? error.message : String(error)), data: null })}\n\n`);
      } finally {
        reading = false;
      }
    };

    stream.send(`: changes for ${who.id}\nretry: 2000\n\n`);
    tell(first);
    unlisten = keeper.onNews(() => void wake());
    if (first.more) void wake();
    return stream.response;
  };
}
