/// <reference lib="dom" />
/**
 * The page kept live: the server's stream of changes (`/page/events`) says when the binder
 * changed, by anyone; the page then reads its view again. When the stream is lost the page says
 * so, and the browser reconnects by itself; once back, the view is read again (what changed
 * meanwhile was not told). It carries no data: every read goes through the API.
 */
import { pageKeyOf } from './api.js';

export type Link = 'connecting' | 'live' | 'lost';

export interface Live {
  close(): void;
}

export function followChanges(on: { changed(): void; link(state: Link): void }): Live {
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  const open = (): void => {
    if (closed) return;
    // No header can be given an EventSource: the page's half of the session goes in the address.
    const key = pageKeyOf();
    source = new EventSource(`/page/events${key ? `?key=${encodeURIComponent(key)}` : ''}`);
    source.addEventListener('ready', () => {
      on.link('live');
      on.changed();
    });
    source.addEventListener('changed', () => on.changed());
    source.onerror = () => {
      on.link('lost');
      // A stream the server closed for good (a 401, a 429) is not reopened by the browser: opened again here.
      if (source && source.readyState === EventSource.CLOSED) {
        source.close();
        retry = setTimeout(open, 2000);
      }
    };
  };
  on.link('connecting');
  open();
  return {
    close() {
      closed = true;
      if (retry) clearTimeout(retry);
      source?.close();
    },
  };
}
