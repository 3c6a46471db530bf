/**
 * An agent's folder bound to one directory — the one a person registered, or the one a keeper
 * found at its start — by its device, inode and birth time (`fileKey`), checked at every open: the directory
 * is opened once per pass and its descriptor fstat'ed, and its files are opened through that
 * descriptor (`/proc/self/fd/N/name` on Linux), never by the folder's path alone. A path that now
 * leads elsewhere (moved, replaced, a link anywhere on it) is not read. Nothing here may open a
 * file of a folder through a path its owner could redirect once the directory was checked.
 */
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Refused } from '../store/index.js';
import { FolderProblem, fileKey } from './folder-files.js';

const DIRECTORY = constants.O_DIRECTORY ?? 0;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;


const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException)?.code ?? 'unknown error';

/** One folder as the keeper should find it: its path, the directory it is bound to, and what a person does when it is not there. */
export interface Binding {
  dir: string;
  /** Its directory's identity (`fileKey`), or null when it is not bound yet (then it is made if absent, and bound to what is found). */
  key: string | null;
  /** Whose folder it is, for the sentences. */
  name: string;
  /** Registered by a person (re-registered to bind again), or given for this run (the keeper's start binds it). */
  registered: boolean;
}

/** A folder opened for one pass: its files are opened through `at(name)`; `still()` after each open where that is by path. */
export interface OpenFolder {
  /** The folder's path, for sentences. */
  readonly dir: string;
  /** Its directory's identity (`fileKey`): the binding, and its key in the ledger. */
  readonly key: string;
  /** The directory opened as a path: `/proc/self/fd/N` while open, or the folder's path where there is no /proc. */
  readonly path: string;
  at(name: string): string;
  /** Where files are opened by the folder's path (no /proc): throws unless it still leads to the bound directory. */
  still(): void;
  close(): void;
}

/** Whether /proc/self/fd/N leads to the directory descriptor N holds (Linux): learnt at the first open. */
let proc: boolean | null = null;
/** For tests: play a system without /proc (false), or learn again (null). */
export function useProc(value: boolean | null): void {
  proc = value;
}

const remedy = (b: Binding): string => (b.registered
  ? `once the right folder is there, a person registers it again: binder admin side add ${b.dir} "${b.name}"`
  : 'start the keeper again with the folder\'s real path');

/** The sentence for a folder whose path leads to another directory than its own. */
export const elsewhere = (b: Binding): string =>
  `${b.dir} is not the folder ${b.registered ? 'registered' : 'kept'} for ${b.name} any more: its path leads to another directory (moved, replaced, or a link on the way), which the keeper does not read; ${remedy(b)}`;

function openDirectory(b: Binding): number {
  try {
    return openSync(b.dir, constants.O_RDONLY | DIRECTORY | NOFOLLOW);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ELOOP') throw new FolderProblem(`${b.dir} is a symbolic link: the keeper never follows one; give the folder's real path`);
    // With O_DIRECTORY, Linux says a link is no directory before it says it is a link.
    if (code === 'ENOTDIR') {
      let link = false;
      try {
        link = lstatSync(b.dir).isSymbolicLink();
      } catch { /* said as not a directory */ }
      throw new FolderProblem(link ? `${b.dir} is a symbolic link: the keeper never follows one; give the folder's real path` : `${b.dir} is not a directory`);
    }
    if (code === 'ENOENT' && b.key !== null) throw new FolderProblem(`${b.dir} is gone (moved or removed): the keeper reads no other folder in its place; ${remedy(b)}`);
    if (code === 'ENOENT') {
      try {
        return makeFolder(b.dir);
      } catch (again) {
        throw new FolderProblem(`${b.dir} does not exist and cannot be made (${codeOf(again)})`);
      }
    }
    throw new FolderProblem(`${b.dir} cannot be opened (${code})`);
  }
}

/**
 * A folder the keeper makes is its own user's, so its agent runs as that user: `0700` whatever
 * the umask, so nobody else reads its asks and answers, and a `.gitignore` holding `*`, so
 * `git add -A` in the agent's repository never commits them. A folder a person made is left as
 * it is (the `2770` of one OS user per agent).
 */
function makeFolder(dir: string): number {
  mkdirSync(dirname(dir), { recursive: true });
  mkdirSync(dir, { mode: 0o700 });
  const fd = openSync(dir, constants.O_RDONLY | DIRECTORY | NOFOLLOW);
  try {
    fchmodSync(fd, 0o700);
    writeFileSync(join(dir, '.gitignore'), '*\n', { flag: 'wx', mode: 0o640 });
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/**
 * Opens the folder's directory, checked against its binding (or made and bound when it has none
 * yet). Throws a FolderProblem saying why it may not be read.
 */
export function openFolder(b: Binding): OpenFolder {
  const fd = openDirectory(b);
  let key: string;
  try {
    key = fileKey(fstatSync(fd));
    if (b.key !== null && key !== b.key) throw new FolderProblem(elsewhere(b));
    if (proc === null) {
      try {
        proc = fileKey(statSync(`/proc/self/fd/${fd}`)) === key;
      } catch {
        proc = false;
      }
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const base = proc ? `/proc/self/fd/${fd}` : b.dir;
  let open = true;
  const checked: Binding = { ...b, key };
  return {
    dir: b.dir,
    key,
    path: base,
    at: (name) => join(base, name),
    still: proc ? () => {} : () => {
      let now: string;
      try {
        now = fileKey(statSync(b.dir));
      } catch {
        throw new FolderProblem(elsewhere(checked));
      }
      if (now !== key) throw new FolderProblem(elsewhere(checked));
    },
    close: () => {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/**
 * The identity of the directory at `dir`, made if absent, for a person registering it: refused
 * when it is a link or not a directory.
 */
export function bindPath(dir: string): string {
  try {
    const open = openFolder({ dir, key: null, name: '', registered: true });
    open.close();
    return open.key;
  } catch (error) {
    if (!(error instanceof FolderProblem)) throw error;
    throw new Refused(
      `The folder cannot be registered: ${error.message}.`,
      `Le dossier ne peut pas être inscrit : ${error.message}.`,
    );
  }
}
