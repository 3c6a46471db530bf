/**
 * Several keys sent in one `tmux send-keys` (they reach the screen as one chunk, as a paste or a
 * fast typist over SSH would) do, in a real terminal, what each would do typed alone. Skipped,
 * saying why, only where tmux is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { AGENT, batches } from './harness.js';
import { BINDER as binder, NO_TMUX as why, hasTmux, startScreen } from './tmux-screen.js';

test('in a real terminal, keys sent together each do what they would alone: j j Enter, / words Enter, arrows', { skip: hasTmux ? false : why }, async (t) => {
  assert.ok(existsSync(binder), `${binder} is built by npm run build`);
  const term = await startScreen(t, {
    prepare: async (store) => {
      await batches(store);
      for (const title of ['First idea', 'Dark mode', 'Third idea']) await store.add('batches', { title }, AGENT);
    },
  });
  await term.until((s) => s.includes('#3 Third idea') && s.includes('Lists'), 'the board');

  term.together('Enter', 'j', 'j', 'Enter');
  await term.until((s) => s.includes('Binder · #3 Third idea') && s.includes('History'), 'the third record opened');

  term.together('Escape');
  await term.until((s) => s.includes('Proposed (3)') && !s.includes('History'), 'the board again');
  term.together('k', 'k', 'Down', 'Enter');
  await term.until((s) => s.includes('Binder · #2 Dark mode') && s.includes('History'), 'the second record opened, by k k and the down arrow');

  term.together('Escape');
  await term.until((s) => s.includes('Proposed (3)') && !s.includes('History'), 'the board again');
  term.together('/', 'third', 'Enter', 'Enter');
  await term.until((s) => s.includes('Binder · #3 Third idea') && s.includes('History'), 'the match of the search opened');

  term.together('q');
  await term.until(() => term.exitCode() !== null, 'the screen to end');
  assert.equal(term.exitCode(), '0');
});
