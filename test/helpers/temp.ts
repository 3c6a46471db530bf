/** Temporary folders for tests, removed when the test ends. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';

export function tempDir(t: TestContext, prefix = 'binder-', under = tmpdir()): string {
  const dir = mkdtempSync(join(under, prefix));
  // Hooks run in the order they were added: a keeper started after this folder was made still
  // runs when it is removed, and may make an agent's folder again meanwhile. So: retried, and
  // never thrown — a hook that throws skips the hooks after it (the keeper's kill among them),
  // and the test's process never ends.
  t.after(() => {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    } catch {
      // Left in the system's temporary folder.
    }
  });
  return dir;
}

/** The nearest `.binder` folder at `dir` or above it, if any. */
function binderAbove(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, '.binder'))) return join(at, '.binder');
    if (dirname(at) === at) return undefined;
  }
}

/**
 * A temporary folder with no `.binder` at it or above, to see what an agent's command does with
 * none: the system's temporary folder is tried first, then others. A machine can hold a `.binder`
 * above its temporary folder (a work tree whose parent a keeper once ran in); then another place
 * is taken, and where none is free the test fails naming what it found, never passing unseen.
 */
export function folderlessDir(t: TestContext): string {
  const found: string[] = [];
  for (const under of [tmpdir(), '/var/tmp', '/dev/shm']) {
    const above = existsSync(under) ? binderAbove(under) : 'missing';
    if (above === undefined) return tempDir(t, 'binder-none-', under);
    found.push(`${under}: ${above}`);
  }
  throw new Error(`no temporary folder without a .binder above it (${found.join('; ')})`);
}

/** Waits until `check` returns a truthy value, polling; fails after `ms`. */
export async function until<T>(check: () => T | Promise<T>, ms = 5_000, what = 'the condition'): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** `fn` for each item in turn (never two at once), its results in order. */
export async function inOrder<T, R>(items: readonly T[], fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const [i, item] of items.entries()) out.push(await fn(item, i));
  return out;
}
