/** Temporary folders for tests, removed when the test ends. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

export function tempDir(t: TestContext, prefix = 'binder-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
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
