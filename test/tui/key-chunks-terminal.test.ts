/**
 * Several keys sent in one `tmux send-keys` (they reach the screen as one chunk, as a paste or a
 * fast typist over SSH would) do, in a real terminal, what each would do typed alone. Skipped,
 * saying why, only where tmux is absent.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../src/store/index.js';
import { AGENT, batches, tempRoot } from './harness.js';

const repo = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const binder = join(repo, 'dist', 'bin', 'binder.js');
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const why = 'tmux is not installed here; the real-terminal test needs it (CI installs it)';

interface Terminal {
  /** One `send-keys`: the keys go to the screen together. */
  keys(...keys: string[]): void;
  until(check: (screen: string) => boolean, what: string, ms?: number): Promise<string>;
  exitCode(): string | null;
}

/** `binder tui` in tmux at 120×35 on a store made by `prepare`. */
function start(t: TestContext, prepare: (store: ReturnType<typeof openStore>) => void): Terminal {
  const root = tempRoot(t, 'binder-tmux-');
  const work = join(root, 'work');
  mkdirSync(work, { recursive: true });
  const store = openStore(join(root, 'store'));
  try {
    prepare(store);
  } finally {
    store.close();
  }
  const socket = `binder-chunks-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...args: string[]): string => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' }).stdout ?? '';
  const command = `cd '${work}' && env -u CI TERM=xterm-256color '${process.execPath}' '${binder}' tui --store '${join(root, 'store')}' --as ann 2>'${join(root, 'stderr')}'; echo $? > '${join(root, 'exit')}'`;
  tmux('new-session', '-d', '-x', '120', '-y', '35', '-s', 'main', command);
  t.after(() => { tmux('kill-server'); });
  const screen = () => tmux('capture-pane', '-p', '-t', 'main');
  const exitCode = () => (existsSync(join(root, 'exit')) ? readFileSync(join(root, 'exit'), 'utf8').trim() : null);
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
  return { keys: (...keys) => { tmux('send-keys', '-t', 'main', ...keys); }, until, exitCode };
}

test('in a real terminal, keys sent together each do what they would alone: j j Enter, / words Enter, arrows', { skip: hasTmux ? false : why }, async (t) => {
  assert.ok(existsSync(binder), `${binder} is built by npm run build`);
  const term = start(t, (store) => {
    batches(store);
    for (const title of ['First idea', 'Dark mode', 'Third idea']) store.add('batches', { title }, AGENT);
  });
  await term.until((s) => s.includes('#3 Third idea') && s.includes('Lists'), 'the board');

  term.keys('Enter', 'j', 'j', 'Enter');
  await term.until((s) => s.includes('Binder · #3 Third idea') && s.includes('History'), 'the third record opened');

  term.keys('Escape');
  await term.until((s) => s.includes('Proposed (3)') && !s.includes('History'), 'the board again');
  term.keys('k', 'k', 'Down', 'Enter');
  await term.until((s) => s.includes('Binder · #2 Dark mode') && s.includes('History'), 'the second record opened, by k k and the down arrow');

  term.keys('Escape');
  await term.until((s) => s.includes('Proposed (3)') && !s.includes('History'), 'the board again');
  term.keys('/', 'third', 'Enter', 'Enter');
  await term.until((s) => s.includes('Binder · #3 Third idea') && s.includes('History'), 'the match of the search opened');

  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the screen to end');
  assert.equal(term.exitCode(), '0');
});
