/**
 * `binder tui` once in a fresh HOME, in a real terminal (tmux): the first run explains folders
 * and offers to register one, and makes none — no `~/.binder` read by a default agent — so
 * `binder` under HOME still finds no folder (exit 2). Skipped, saying why, only where tmux is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BINDER, NO_TMUX, hasTmux, startScreen } from './tmux-screen.js';

test('binder tui on a fresh store in a fresh HOME, then q: no ~/.binder made; binder under HOME exits 2', { skip: hasTmux ? false : NO_TMUX, timeout: 60_000 }, async (t) => {
  // HOME is the folder the screen starts in; the store is the default one under it.
  const term = await startScreen(t, {
    extraEnv: '-u XDG_DATA_HOME -u BINDER_STORE -u PGHOST -u PGDATABASE -u DATABASE_URL HOME="$PWD"',
    run: ['tui', '--as', 'ann'],
  });
  const home = join(term.root, 'work');
  const shown = await term.until((s) => s.includes('Welcome to Binder') && s.replace(/\s+/g, ' ').includes('None is registered yet: S registers one'), 'the first run');
  assert.match(shown.replace(/\s+/g, ' '), /An agent asks through a folder of its own, \.binder in the directory it works in/);
  assert.doesNotMatch(shown, /“Agent”/, 'no agent named for a folder nobody registered');
  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the screen to quit');
  assert.equal(term.exitCode(), '0');
  assert.ok(existsSync(join(home, '.local', 'share', 'binder')), 'the store was made where the screen said');
  assert.equal(existsSync(join(home, '.binder')), false, 'no folder made unasked');

  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, CI: '' };
  delete env.BINDER_DIR;
  const agent = spawnSync(process.execPath, [BINDER, 'lists'], { cwd: home, env, encoding: 'utf8' });
  assert.equal(agent.status, 2, agent.stderr);
});
