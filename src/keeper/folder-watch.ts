/**
 * File events on the agents' folders: a pass is asked for as soon as an asks file changes.
 * Where they fail (some file systems, no inotify left) the pump's safety poll serves alone, and
 * watching is tried again later. It must never read a folder nor do an ask itself.
 */
import type { watch as fsWatch } from 'node:fs';
import { ASKS_FILE } from './protocol.js';
import { OLD_ASKS_FILE } from './folder-asks.js';
import type { Folder } from './pump-types.js';

/** After a watch failed on a folder, how long before it is tried again. */
const WATCH_RETRY_MS = 30_000;

export function unwatch(folder: Folder): void {
  folder.watcher?.close();
  folder.watcher = null;
}

/**
 * Watches each usable folder once, through its directory opened for this pass (the watch stays on
 * that directory, wherever its path leads later); `wake` asks for a pass.
 */
export function watchAll(list: Folder[], watch: typeof fsWatch, wake: () => void): void {
  for (const folder of list) {
    if (folder.problems.has('read')) {
      unwatch(folder);
      continue;
    }
    if (folder.watcher || !folder.open || Date.now() < folder.watchAfter) continue;
    try {
      const watcher = watch(folder.open.path, { persistent: false }, (_event, name) => {
        const file = name === null || name === undefined ? null : String(name);
        if (file === null || file === ASKS_FILE || file === OLD_ASKS_FILE) wake();
      });
      watcher.on('error', () => {
        if (folder.watcher === watcher) unwatch(folder);
        folder.watchAfter = Date.now() + WATCH_RETRY_MS;
      });
      folder.watcher = watcher;
    } catch {
      folder.watchAfter = Date.now() + WATCH_RETRY_MS;
    }
  }
}
