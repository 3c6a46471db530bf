/**
 * News of the binder, for what the keeper holds open until something changes (held waits, the
 * HTTP face's stream of changes): every change made through this store object, at once, and —
 * while anyone listens — a change committed by another process (`binder admin`), seen by a look
 * at PRAGMA data_version every 50 ms (a few µs). It never reads the binder's tables itself.
 */
import type { Store } from '../store/store.js';

export interface News {
  /** Calls `fn` after each change (several changes may make one call). Returns the unlisten. */
  listen(fn: () => void): () => void;
  close(): void;
}

export function createNews(store: Store, pollMs = 50): News {
  const listeners = new Set<() => void>();
  let poll: NodeJS.Timeout | null = null;
  let version = -1;
  const tell = (): void => {
    for (const fn of [...listeners]) {
      try {
        fn();
      } catch {
        // One listener's failure is its own: the others are told all the same.
      }
    }
  };
  const unwatch = store.onChange(tell);
  const stopPolling = (): void => {
    if (poll) clearInterval(poll);
    poll = null;
  };
  return {
    listen(fn) {
      listeners.add(fn);
      if (!poll) {
        version = store.dataVersion();
        poll = setInterval(() => {
          const now = store.dataVersion();
          if (now === version) return;
          version = now;
          tell();
        }, pollMs);
        poll.unref();
      }
      return () => {
        listeners.delete(fn);
        if (listeners.size === 0) stopPolling();
      };
    },
    close() {
      unwatch();
      listeners.clear();
      stopPolling();
    },
  };
}
