/** The screen under ink-testing-library on a real store and keeper in a temporary folder, with keys and waits on the frame. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { render } from 'ink-testing-library';
import { useEffect, type ReactNode } from 'react';
import { createKeeper } from '../../src/keeper/keeper.js';
import type { Keeper, SideConfig } from '../../src/keeper/keeper-types.js';
import { openStore, type Store, type Who } from '../../src/store/index.js';
import { App } from '../../src/tui/components/App.js';
import { Binder, type BinderContext, type TerminalControl } from '../../src/tui/context.js';
import { makeTheme } from '../../src/tui/theme.js';
import { wordsFor, type Lang } from '../../src/person/words.js';

/** Says when the screen is taken down (it asked to end, or the test ended). */
function Watch({ gone, children }: { gone: () => void; children: ReactNode }) {
  useEffect(() => gone, [gone]);
  return <>{children}</>;
}

export const PERSON: Who = { id: 'person:ann', kind: 'person', name: 'ann' };
export const AGENT: Who = { id: 'agent:agent', kind: 'agent', name: 'Agent' };

export const KEYS = {
  enter: '\r', escape: '\u001b', tab: '\t', up: '\u001b[A', down: '\u001b[B', right: '\u001b[C', left: '\u001b[D',
  home: '\u001b[H', end: '\u001b[F', delete: '\u001b[3~', backspace: '\u007f', pageDown: '\u001b[6~',
  altLeft: '\u001b[1;3D', altRight: '\u001b[1;3C', altBackspace: '\u001b\u007f',
  ctrlA: '\u0001', ctrlC: '\u0003', ctrlD: '\u0004', ctrlE: '\u0005', ctrlK: '\u000b', ctrlU: '\u0015', ctrlW: '\u0017', ctrlZ: '\u001a',
} as const;

/** Text as a terminal with bracketed paste on sends a paste. */
export const paste = (text: string): string => `\u001b[200~${text}\u001b[201~`;
/** A mouse report (SGR) at column `x`, row `y` (from 0): a left click, or the wheel. */
export const mouse = (x: number, y: number, button: 'left' | 'wheelUp' | 'wheelDown' = 'left'): string =>
  `\u001b[<${button === 'left' ? 0 : button === 'wheelUp' ? 64 : 65};${x + 1};${y + 1}M`;

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
  /** The terminal made `columns` × `rows`, as a resize does. */
  resize(columns: number, rows: number): void;
  /** How many times Ctrl-Z asked the terminal to suspend. */
  suspended(): number;
  /** Says the process was continued (`fg`). */
  resume(): void;
  /** Whether the screen asked to end (q, Ctrl-C). */
  exited(): boolean;
  unmount(): void;
}

export function tempRoot(t: TestContext, prefix = 'binder-tui-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** A store and keeper, and the screen on them. `prepare` runs on the store before the first frame. */
export async function openScreen(t: TestContext, options: { lang?: Lang; prepare?: (store: Store, keeper: Keeper) => unknown; root?: string; noFolder?: boolean; now?: () => number; loginLink?: () => Promise<string> } = {}): Promise<Screen> {
  const root = options.root ?? tempRoot(t);
  const store = openStore(join(root, 'store'));
  const side: SideConfig = { dir: join(root, 'agent', '.binder'), who: AGENT };
  const keeper = createKeeper({ store, sides: [side], log: () => {} });
  await options.prepare?.(store, keeper);
  let suspensions = 0;
  const resumers = new Set<() => void>();
  const terminal: TerminalControl = {
    suspend: () => { suspensions++; },
    onResume: (listener) => { resumers.add(listener); return () => resumers.delete(listener); },
  };
  const context: BinderContext = {
    keeper,
    person: PERSON,
    words: wordsFor(options.lang ?? 'en'),
    theme: makeTheme({}),
    now: options.now ?? Date.now,
    firstSide: () => side,
    pollMs: 50,
    dueMs: 100,
    onDiagnostic: () => () => {},
    terminal,
    noFolder: options.noFolder === true,
    ...(options.loginLink ? { loginLink: options.loginLink } : {}),
  };
  let exited = false;
  const ink = render(<Binder.Provider value={context}><Watch gone={() => { exited = true; }}><App /></Watch></Binder.Provider>);
  const out = ink.stdout as unknown as { columns: number; rows: number; emit(event: string): void };
  let size = { columns: 100, rows: 30 };
  Object.defineProperty(out, 'columns', { get: () => size.columns, configurable: true });
  Object.defineProperty(out, 'rows', { get: () => size.rows, configurable: true });
  let closed = false;
  const unmount = async () => {
    if (closed) return;
    closed = true;
    ink.unmount();
    await keeper.close();
    await store.close();
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
  const resize = (columns: number, rows: number) => {
    size = { columns, rows };
    out.emit('resize');
  };
  return {
    store, keeper, root, side, frames: ink.frames, frame, press, stdin: ink.stdin, settle, until, unmount, resize,
    suspended: () => suspensions,
    resume: () => { for (const r of resumers) r(); },
    exited: () => exited,
  };
}

/** A Batches list (with its gate) opened to the agent for writing, made as the person. */
export async function batches(store: Store): Promise<void> {
  await store.createList({ template: 'batches', lang: 'en' }, PERSON);
  await store.grant('batches', AGENT.id, 'write', PERSON);
}
