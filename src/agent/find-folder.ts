/**
 * Which folder an agent asks through: `--dir`, else `$BINDER_DIR`, else the nearest `.binder`
 * from the working directory up. It only looks; it never makes a folder nor writes in one.
 */
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FOLDER_NAME } from '../keeper/protocol.js';

export interface FolderSearch {
  /** `--dir`, as given on the command line. */
  dir?: string | undefined;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Where the folder was found, or why none was. */
export type FolderFound =
  | { found: true; folder: string }
  | { found: false; why: string };

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The folder to ask through. A named folder must exist: asking into nothing waits for nobody. */
export function findFolder({ dir, env = process.env, cwd = process.cwd() }: FolderSearch = {}): FolderFound {
  const named = dir ?? (env.BINDER_DIR ? env.BINDER_DIR : undefined);
  if (named !== undefined) {
    const folder = resolve(cwd, named);
    if (isDirectory(folder)) return { found: true, folder };
    const from = dir !== undefined ? '--dir' : 'BINDER_DIR';
    return { found: false, why: `There is no folder at ${folder} (from ${from}).` };
  }
  for (let at = resolve(cwd); ; at = dirname(at)) {
    const folder = join(at, FOLDER_NAME);
    if (isDirectory(folder)) return { found: true, folder };
    if (dirname(at) === at) break;
  }
  return { found: false, why: `There is no ${FOLDER_NAME} folder here or above.` };
}

/** What to do when no folder was found: said the same way by `binder` and `binder-mcp`. */
export function howToGetAFolder(why: string): string {
  return `${why} Run this from your work folder, give --dir FOLDER (or set BINDER_DIR), ` +
    `or ask a person to start \`binder serve\` or \`binder tui\` there.`;
}
