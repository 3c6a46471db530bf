/**
 * `binder tui` in a real terminal for the tests: tmux (120×35 unless said) on a server of the test's own,
 * the pane's bytes kept, and a wait on what the terminal shows that fails with the screen's
 * own stderr if it ends first. Never touches the person's own tmux server.
 */
import type { TestContext } from 'node:test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, type Store } from '../../src/store/index.js';
import { tempRoot } from './harness.js';

export const BINDER = join(resolve(fileURLToPath(new URL('../../..', import.meta.url))), 'dist', 'bin', 'binder.js');
export const hasTmux = spawnSync('tmux', ['-V']).status === 0;
export const NO_TMUX = 'tmux is not installed here; the real-terminal test needs it (CI installs it)';

export interface Terminal {
  root: string;
  agentDir: string;
  screen(): string;
  until(check: (screen: string) => boolean, what: string, ms?: number): Promise<string>;
  /** Each key in a `send-keys` of its own, as typed one by one. */
  keys(...keys: string[]): void;
  /** The keys in one `send-keys`: they reach the screen together, as a paste would. */
  together(...keys: string[]): void;
  /** Text sent as typed, all at once (`send-keys -l`): not marked as a paste. */
  literal(text: string): void;
  /** Text pasted as the terminal pastes it (`paste-buffer -p`: bracketed, when the screen asked for it). */
  paste(text: string): void;
  /** A tmux format about the pane (`#{mouse_sgr_flag}`…). */
  pane(format: string): string;
  tmux(...args: string[]): string;
  bytes(): string;
  exitCode(): string | null;
}

export interface ScreenOptions {
  /** Environment before the command (after TERM=xterm-256color, so `TERM=xterm` here is the TERM it gets). */
  extraEnv?: string;
  prepare?: (store: Store) => unknown;
  /** Columns and rows of the pane (120×35 unless said). */
  size?: [number, number];
  /** More words after `binder tui` (`--no-mouse`). */
  args?: string[];
  /** Run from an interactive shell in the pane (so that Ctrl-Z stops it as a job and `fg` brings it back). */
  shell?: boolean;
  /** Another command of binder's than the screen, in the same terminal: its words after `binder` (`{store}` for the store's folder). */
  run?: string[];
}

/** Starts the screen on a store made by `prepare` (a fresh one without), with `extraEnv` before it. */
export async function startScreen(t: TestContext, { extraEnv = '', prepare, size = [120, 35], args = [], shell = false, run }: ScreenOptions = {}): Promise<Terminal> {
  const root = tempRoot(t, 'binder-tmux-');
  const work = join(root, 'work');
  const agentDir = join(work, '.binder');
  mkdirSync(work, { recursive: true });
  if (prepare) {
    const store = openStore(join(root, 'store'));
    try {
      await prepare(store);
    } finally {
      await store.close();
    }
  }
  const socket = `binder-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...args: string[]): string => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' }).stdout ?? '';
  const words = run ? run.map((w) => `'${w.replace('{store}', join(root, 'store'))}'`).join(' ')
    : `tui --store '${join(root, 'store')}' --side '${agentDir}=Agent' --as ann ${args.join(' ')}`;
  const command = `cd '${work}' && env -u CI TERM=xterm-256color ${extraEnv} '${process.execPath}' '${BINDER}' ${words} 2>'${join(root, 'stderr')}'; echo $? > '${join(root, 'exit')}'`;
  if (shell) {
    tmux('new-session', '-d', '-x', String(size[0]), '-y', String(size[1]), '-s', 'main', 'env -i PATH="$PATH" HOME="$HOME" TERM=xterm-256color PS1="ready$ " bash --norc --noprofile -i');
    tmux('pipe-pane', '-o', '-t', 'main', `cat >> '${join(root, 'bytes')}'`);
    // In a subshell: a job of its own, which Ctrl-Z stops whole (and its exit code is written once it ends, not when it stops).
    tmux('send-keys', '-t', 'main', '-l', `( ${command} )`);
    tmux('send-keys', '-t', 'main', 'Enter');
  } else {
    tmux('new-session', '-d', '-x', String(size[0]), '-y', String(size[1]), '-s', 'main', command);
    tmux('pipe-pane', '-o', '-t', 'main', `cat >> '${join(root, 'bytes')}'`);
  }
  t.after(() => { tmux('kill-server'); });
  const screen = () => tmux('capture-pane', '-p', '-t', 'main');
  // The shell makes the file before it writes the code in it: empty is not yet.
  const exitCode = () => (existsSync(join(root, 'exit')) ? readFileSync(join(root, 'exit'), 'utf8').trim() || null : null);
  const until = async (check: (s: string) => boolean, what: string, ms = 10_000): Promise<string> => {
    const end = Date.now() + ms;
    for (;;) {
      const now = screen();
      if (check(now)) return now;
      const code = exitCode();
      if (code !== null && !check(screen())) {
        const err = existsSync(join(root, 'stderr')) ? readFileSync(join(root, 'stderr'), 'utf8') : '';
        throw new Error(`the screen ended (exit ${code}) while waiting for ${what}:\n${err.slice(0, 2000)}`);
      }
      if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}; the terminal showed:\n${now}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return {
    root, agentDir, screen, until, tmux, exitCode,
    keys: (...keys) => { for (const k of keys) tmux('send-keys', '-t', 'main', k); },
    together: (...keys) => { tmux('send-keys', '-t', 'main', ...keys); },
    literal: (text) => { tmux('send-keys', '-t', 'main', '-l', text); },
    paste: (text) => {
      tmux('set-buffer', '-b', 'test', text);
      tmux('paste-buffer', '-p', '-d', '-b', 'test', '-t', 'main');
    },
    pane: (format) => tmux('display-message', '-p', '-t', 'main', format).trim(),
    bytes: () => (existsSync(join(root, 'bytes')) ? readFileSync(join(root, 'bytes'), 'utf8') : ''),
  };
}
