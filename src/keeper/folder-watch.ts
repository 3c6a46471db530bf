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

/** Watches each usable folder once (again when the folder was replaced); `wake` asks for a pass. */
export function watchAll(list: Folder[], watch: typeof fsWatch, wake: () => void): void {
  for (const folder of list) {
    if (folder.problems.has('read') || !folder.folderKey) {
      unwatch(folder);
      continue;
    }
    if (folder.watcher && folder.watchedKey === folder.folderKey) continue;
    unwatch(folder);
    if (Date.now() < folder.watchAfter) continue;
    try {
      const watcher = watch(folder.side.dir, { persistent: false }, (_event, name) => {
        const file = name === null || name === undefined ? null : String(name);
        if (file === null || file === ASKS_FILE || file === OLD_ASKS_FILE) wake();
      });
      watcher.on('error', () => {
        if (folder.watcher === watcher) unwatch(folder);
        folder.watchAfter = Date.now() + WATCH_RETRY_MS;
      });
      folder.watcher = watcher;
      folder.watchedKey = folder.folderKey;
    } catch {
      folder.watchAfter = Date.now() + WATCH_RETRY_MS;
    }
  }
}
