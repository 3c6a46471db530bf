/**
 * What the store's tests share: a fresh store in its own temporary folder, a person and two
 * agents, and a clock the test moves. Never shares a database between tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type SqliteStore, type Who } from '../../src/store/index.js';

export const ann: Who = { id: 'person:ann', kind: 'person', name: 'Ann' };
export const bea: Who = { id: 'person:bea', kind: 'person', name: 'Bea' };
export const bot: Who = { id: 'agent:bot', kind: 'agent', name: 'Bot' };
export const spy: Who = { id: 'agent:spy', kind: 'agent', name: 'Spy' };

export interface Fixture {
  store: SqliteStore;
  dir: string;
  clock: { ms: number };
  /** Another store object on the same folder. */
  reopen(): SqliteStore;
  done(): void;
}

export function fresh(start = Date.UTC(2026, 0, 15, 12, 0)): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'binder-store-'));
  const clock = { ms: start };
  const opened: SqliteStore[] = [];
  const open = (): SqliteStore => {
    const s = openStore(join(dir, 'store'), { now: () => clock.ms });
    opened.push(s);
    return s;
  };
  const store = open();
  return {
    store, dir, clock,
    reopen: open,
    async done() {
      for (const s of opened) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A store with a Batches list (gate on Approved) that `bot` may write and `spy` may only read. */
export async function withBatches(): Promise<Fixture> {
  const f = fresh();
  await f.store.createList({ template: 'batches' }, ann);
  await f.store.grant('batches', 'agent:bot', 'write', ann);
  return f;
}

/** The refusal's sentence, or a failure if nothing was refused. */
export async function refusal(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof Error && e.name === 'Refused') return e.message;
    throw e;
  }
  throw new Error('expected a refusal, but it was done');
}
