/**
 * What a registered folder gives away, as the keeper sees it: owned by the keeper's own OS user
 * (the agent then runs as the person, and can act as them unless a sandbox holds it), and open
 * to others (who could read its asks and answers). Warnings for a person, never refusals; it
 * must never change the folder.
 */
import { lstatSync } from 'node:fs';

export interface Exposure {
  /** The folder belongs to the OS user this keeper runs as: its agent runs as the person. */
  keeperUser: boolean;
  /** Users other than its owner and group may enter or list it. */
  othersRead: boolean;
}

/** The folder at `dir` as it is now; a folder that is not there gives away nothing yet. */
export function exposureOf(dir: string): Exposure {
  try {
    const seen = lstatSync(dir);
    const uid = process.getuid?.();
    return { keeperUser: uid !== undefined && seen.uid === uid, othersRead: seen.isDirectory() && (seen.mode & 0o005) !== 0 };
  } catch {
    return { keeperUser: false, othersRead: false };
  }
}

/** The plain lines a person is told about one folder, each with its fix; none when it is kept apart. */
export function exposureLines(name: string, dir: string, e: Exposure): string[] {
  return [
    ...(e.keeperUser ? [`${name} runs as you: it can act as you unless it runs in binder sandbox -- COMMAND or its tool's sandbox, or as an OS user of its own.`] : []),
    ...(e.othersRead ? [`Others can read ${name}'s folder ${dir}: chmod o-rwx ${dir} mends it.`] : []),
  ];
}
