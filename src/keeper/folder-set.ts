/**
 * The folders a keeper keeps, each bound to one directory: registered ones to the directory a
 * person registered (the store's `bound`), the others to the one found when first seen; opened
 * once per pass through that binding, and each problem noted once. It must never open a folder
 * but through its binding, nor read one directory for two agents.
 */
import type { SideConfig } from './keeper-types.js';
import { FolderProblem, closeFile } from './folder-files.js';
import { openFolder, type Binding, type OpenFolder } from './folder-bind.js';
import { unwatch } from './folder-watch.js';
import type { Store } from '../store/index.js';
import { diskFull, type Folder } from './pump-types.js';

export interface FolderSetDeps {
  sides(): SideConfig[];
  /** A registered folder first bound by a keeper: records `key` unless one is recorded already; returns the one that holds. */
  bind?(dir: string, key: string): Promise<string>;
  store: Store;
  say(line: string): void;
}

export interface FolderSet {
  /** The folders to keep now, as the sides say; new ones bound when they can be. */
  sync(): Promise<Folder[]>;
  /** The folders to keep now, as the sides say, without binding new ones (for a look at their status). */
  known(): Folder[];
  /** The folder whose binding (its ledger key) is `key`. */
  byKey(key: string): Folder | undefined;
  /** The folder's directory, opened until `closeAll`, checked against its binding. Throws a FolderProblem. */
  opened(folder: Folder): OpenFolder;
  /** Closes every folder opened (and the answers files kept open with them). */
  closeAll(): void;
  /** Runs `work` for one folder; a FolderProblem is noted for that folder, and the others go on. */
  guard(folder: Folder, where: string, work: () => void | Promise<void>): Promise<void>;
  skip(folder: Folder, why: string, count?: number): void;
  values(): IterableIterator<Folder>;
}

const bindingOf = (folder: Folder): Binding =>
  ({ dir: folder.side.dir, key: folder.key || null, name: folder.side.who.name, registered: folder.side.registered === true });

function newFolder(side: SideConfig): Folder {
  return {
    side, key: side.bound ?? '', open: null, answers: null, twinOf: null,
    status: { dir: side.dir, name: side.who.name, agent: side.who.id, lastAsk: null, answered: 0, problem: null },
    problems: new Map(), skipped: new Map(), watcher: null, watchAfter: 0, drain: null,
    asksSeen: { key: '', since: 0 }, tail: null, refusedFull: new Map(), scanned: false, fresh: true,
  };
}

export function createFolderSet(deps: FolderSetDeps): FolderSet {
  const folders = new Map<string, Folder>();
  const opened = new Set<Folder>();
  /** Why a folder could not be bound at the last try. */
  const unbound = new Map<Folder, Error>();

  function note(folder: Folder, where: string, problem: string | null): void {
    if ((folder.problems.get(where) ?? null) === problem) return;
    if (problem === null) folder.problems.delete(where);
    else {
      // The same problem met by another part of the work (the folder is a link…) was said already.
      if (![...folder.problems.values()].includes(problem)) deps.say(problem);
      folder.problems.set(where, problem);
    }
    folder.status.problem = folder.problems.values().next().value ?? null;
  }
  async function guard(folder: Folder, where: string, work: () => void | Promise<void>): Promise<void> {
    try {
      await work();
      note(folder, where, null);
    } catch (error) {
      if (!(error instanceof FolderProblem)) throw error;
      note(folder, where, error.message);
    }
  }

  /** Binds a folder seen for the first time to the directory at its path now (made if absent). */
  async function bind(folder: Folder): Promise<void> {
    const open = openFolder(bindingOf(folder));
    open.close();
    const dir = folder.side.dir;
    const key = folder.side.registered && deps.bind ? await deps.bind(dir, open.key) : open.key;
    // What a keeper kept under this path before folders were bound is this directory's.
    await deps.store.transaction((tx) => tx.ledger.adopt(dir, key));
    folder.key = key;
  }

  function known(): Folder[] {
    const seen = new Set<string>();
    for (const side of deps.sides()) {
      if (seen.has(side.dir)) continue;
      seen.add(side.dir);
      const known = folders.get(side.dir);
      // Registered again: bound to another directory, read afresh.
      if (known && side.bound && known.key && side.bound !== known.key) {
        unwatch(known);
        folders.delete(side.dir);
      } else if (known) {
        known.side = side;
        known.status.name = side.who.name;
        known.status.agent = side.who.id;
        continue;
      }
      folders.set(side.dir, newFolder(side));
    }
    for (const [dir, folder] of folders) {
      if (seen.has(dir)) continue;
      unwatch(folder);
      folders.delete(dir);
      unbound.delete(folder);
    }
    return [...folders.values()];
  }

  async function sync(): Promise<Folder[]> {
    known();
    const byKey = new Map<string, Folder>();
    for (const folder of folders.values()) {
      // Not bound yet: tried at each sync; why it cannot be is said by the pass, when it opens it.
      if (!folder.key) {
        try {
          await bind(folder);
          unbound.delete(folder);
        } catch (error) {
          if (!(error instanceof FolderProblem) && !diskFull(error)) throw error;
          unbound.set(folder, error as Error);
        }
      }
      // One directory reached by two paths is read for the first of them alone.
      const first = folder.key ? byKey.get(folder.key) : undefined;
      folder.twinOf = first ?? null;
      if (folder.key && !first) byKey.set(folder.key, folder);
    }
    return [...folders.values()];
  }

  return {
    sync,
    known,
    byKey: (key) => [...folders.values()].find((folder) => folder.key === key && !folder.twinOf),
    opened(folder) {
      if (folder.open) return folder.open;
      if (folder.twinOf) {
        const other = folder.twinOf.side;
        throw new FolderProblem(`${folder.side.dir} is the same directory as ${other.dir}, read for ${other.who.name}: a folder is read for one agent only, so it is not read for ${folder.side.who.name}`);
      }
      if (!folder.key) {
        const why = unbound.get(folder);
        if (why instanceof FolderProblem) throw why;
        if (why && diskFull(why)) throw new FolderProblem(`${folder.side.dir} cannot be bound to its directory while the disk that holds the binder is full`);
        throw new FolderProblem(`${folder.side.dir} is not bound to its directory yet`);
      }
      folder.open = openFolder(bindingOf(folder));
      opened.add(folder);
      return folder.open;
    },
    closeAll() {
      for (const folder of opened) {
        folder.open?.close();
        folder.open = null;
        closeFile(folder.answers);
        folder.answers = null;
      }
      opened.clear();
    },
    guard,
    skip(folder, why, count = 1) {
      folder.skipped.set(why, (folder.skipped.get(why) ?? 0) + count);
    },
    values: () => folders.values(),
  };
}
