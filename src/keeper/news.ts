/**
 * News of the binder, for what the keeper holds open until something changes (held waits, the
 * HTTP face's stream of changes): every change made through this store object, at once, and —
 * while anyone listens — a change committed by another process (another keeper, `binder admin`),
 * as the store hears of it (store.onOtherChange). It never reads the binder's tables itself.
 */
import type { StoreKeeping } from '../store/index.js';

export interface News {
  /** Calls `fn` after each change (several changes may make one call). Returns the unlisten. */
  listen(fn: () => void): () => void;
  close(): void;
}

export function createNews(store: StoreKeeping): News {
  const listeners = new Set<() => void>();
  let others: (() => void) | null = null;
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
  const stopHearing = (): void => {
    others?.();
    others = null;
  };
  return {
    listen(fn) {
      listeners.add(fn);
      others ??= store.onOtherChange(tell);
      return () => {
        listeners.delete(fn);
        if (listeners.size === 0) stopHearing();
      };
    },
    close() {
      unwatch();
      listeners.clear();
      stopHearing();
    },
  };
}
