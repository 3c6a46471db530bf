/** The screen under ink-testing-library on a real store and keeper in a temporary folder, with keys and waits on the frame. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { render } from 'ink-testing-library';
import { createKeeper } from '../../src/keeper/keeper.js';
import type { Keeper, SideConfig } from '../../src/keeper/keeper-types.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/store.js';
import type { Who } from '../../src/store/types.js';
import { App } from '../../src/tui/components/App.js';
import { Binder, type BinderContext } from '../../src/tui/context.js';
import { makeTheme } from '../../src/tui/theme.js';
import { wordsFor, type Lang } from '../../src/tui/words.js';

export const PERSON: Who = { id: 'person:ann', kind: 'person', name: 'ann' };
export const AGENT: Who = { id: 'agent:agent', kind: 'agent', name: 'Agent' };

export const KEYS = {
  enter: '\r', escape: '\u001b', tab: '\t', up: '\u001b[A', down: '\u001b[B', right: '\u001b[C', left: '\u001b[D',
} as const;

const SGR = /\u001b\[[0-9;]*m/g;
export const plain = (frame: string | undefined): string => (frame ?? '').replace(SGR, '');

export interface Screen {
  store: Store;
  keeper: Keeper;
  root: string;
  side: SideConfig;
  frames: string[];
  frame(): string;
  press(...keys: string[]): Promise<void>;
  /** The screen's input itself: what is written goes in as one chunk, at once. */
  stdin: { write(data: string): void };
  /** Until the last frame's effects have run: its input handlers listen. */
  settle(): Promise<void>;
  /** Waits until the frame satisfies `check`; fails with the last frame after `ms`. */
  until(check: (frame: string) => boolean, what: string, ms?: number): Promise<string>;
  unmount(): void;
}

export function tempRoot(t: TestContext, prefix = 'binder-tui-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** A store and keeper, and the screen on them. `prepare` runs on the store before the first frame. */
export function openScreen(t: TestContext, options: { lang?: Lang; prepare?: (store: Store, keeper: Keeper) => void; root?: string } = {}): Screen {
  const root = options.root ?? tempRoot(t);
  const store = openStore(join(root, 'store'));
  const side: SideConfig = { dir: join(root, 'agent', '.binder'), who: AGENT };
  const keeper = createKeeper({ store, sides: [side], log: () => {} });
  options.prepare?.(store, keeper);
  const context: BinderContext = {
    keeper,
    person: PERSON,
    words: wordsFor(options.lang ?? 'en'),
    theme: makeTheme({}),
    now: Date.now,
    firstSide: () => side,
    pollMs: 50,
    dueMs: 100,
    onDiagnostic: () => () => {},
  };
  const ink = render(<Binder.Provider value={context}><App /></Binder.Provider>);
  let closed = false;
  const unmount = () => {
    if (closed) return;
    closed = true;
    ink.unmount();
    keeper.close();
    store.close();
  };
  t.after(unmount);
  const frame = () => plain(ink.lastFrame());
  const until = async (check: (frame: string) => boolean, what: string, ms = 5000): Promise<string> => {
    const end = Date.now() + ms;
    for (;;) {
      const now = frame();
      if (check(now)) return now;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the screen showed:\n${now}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const settle = async () => { for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r)); };
  const press = async (...keys: string[]) => {
    for (const key of keys) {
      // Let the last frame's effects run first: input handlers are subscribed in them.
      await settle();
      const before = ink.frames.length;
      ink.stdin.write(key);
      // Each key is heard by the handler of the frame it was pressed on: wait for that frame's successor, or a quiet moment.
      const end = Date.now() + 300;
      while (ink.frames.length === before && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { store, keeper, root, side, frames: ink.frames, frame, press, stdin: ink.stdin, settle, until, unmount };
}

/** A Batches list (with its gate) opened to the agent for writing, made as the person. */
export function batches(store: Store): void {
  store.createList({ template: 'batches', lang: 'en' }, PERSON);
  store.grant('batches', AGENT.id, 'write', PERSON);
}
