/**
 * The screen in a real terminal (tmux): `binder tui` on a fresh store, an agent's `binder add`
 * appearing, the person approving, the agent's move then done; hostile text never reaching the
 * terminal; a resize; NO_COLOR; and `q`. Skipped, saying why, only where tmux is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempRoot } from './harness.js';
import { BINDER as binder, NO_TMUX as why, hasTmux, startScreen as start, type Terminal } from './tmux-screen.js';
import { EVIL, leaks } from './hostile.js';

/** The agent's own command, as an agent runs it. */
function agent(term: Terminal, ...args: string[]) {
  return spawnSync(process.execPath, [binder, ...args, '--dir', term.agentDir], { encoding: 'utf8', cwd: term.root, env: { ...process.env, CI: '' } });
}

test('binder tui in a real terminal: an agent adds, the person approves, the agent moves; hostile text stays inert; q quits', { skip: hasTmux ? false : why }, async (t) => {
  assert.ok(existsSync(binder), `${binder} is built by npm run build`);
  const term = await start(t);
  await term.until((s) => s.includes('Welcome to Binder') && s.includes('Batches'), 'the welcome');
  term.keys('Enter');
  await term.until((s) => s.includes('may now read and change “Batches”'), 'the first list opened to the agent');

  const added = agent(term, 'add', 'Batches', 'Dark mode');
  assert.equal(added.status, 0, added.stderr);
  // Asked and answered: the record is committed; the screen shows it at once (one second at most).
  await term.until((s) => s.includes('#1 Dark mode'), 'the agent\'s record on the screen', 1000);

  const early = agent(term, 'move', '1', 'Approved');
  assert.equal(early.status, 1, 'refused before the person approves');
  term.keys('a');
  await term.until((s) => s.includes('✓ approved'), 'the approval on screen');
  const moved = agent(term, 'move', '1', 'Approved');
  assert.equal(moved.status, 0, moved.stderr + moved.stdout);
  await term.until((s) => s.includes('Approved (1)'), 'the record past the gate');

  const titleBefore = term.tmux('display-message', '-p', '-t', 'main', '#{pane_title}');
  const evil = agent(term, 'add', 'Batches', EVIL);
  assert.equal(evil.status, 0, evil.stderr);
  await term.until((s) => s.includes('#2 Evil'), 'the hostile record, shown');
  // The cursor went with #1 past the gate; the hostile record is in Proposed, to the left.
  term.keys('h', 'Enter');
  await term.until((s) => s.includes('Binder · #2 Evil') && s.includes('History'), 'the hostile record opened');
  term.keys('Escape');
  await term.until((s) => s.includes('Lists'), 'back on the board');
  assert.equal(term.tmux('display-message', '-p', '-t', 'main', '#{pane_title}'), titleBefore, 'nothing set the window title');
  // What reached the terminal, less the screen's own cursor moves and erasures (CSI).
  const bytes = term.bytes().replace(/\u001b\[[0-9;?<=>]*[ -/]*[@-~]/g, '');
  assert.ok(bytes.includes('Evil'), 'the pipe saw the screen');
  assert.deepEqual(leaks(bytes), []);

  term.tmux('resize-window', '-t', 'main', '-x', '80', '-y', '24');
  const small = await term.until((s) => s.split('\n').length <= 25 && s.includes('Batches') && !s.includes('Welcome'), 'the screen at 80×24');
  assert.ok(small.split('\n').every((line) => [...line].length <= 80));

  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the screen to end');
  assert.equal(term.exitCode(), '0');
  const beat = JSON.parse(readFileSync(join(term.agentDir, 'keeper.json'), 'utf8')) as { stopped: boolean };
  assert.equal(beat.stopped, true, 'the keeper says it stopped');
});

test('a store that cannot be opened: one sentence, exit 2', { skip: hasTmux ? false : why }, async (t) => {
  const root = tempRoot(t, 'binder-tmux-');
  const socket = `binder-test-${process.pid}-bad`;
  const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  t.after(() => { tmux('kill-server'); });
  const notAFolder = join(root, 'file');
  spawnSync('sh', ['-c', `echo x > '${notAFolder}'`]);
  tmux('new-session', '-d', '-x', '100', '-y', '20', '-s', 'bad',
    `env -u CI '${process.execPath}' '${binder}' tui --store '${notAFolder}/store' 2>'${join(root, 'stderr')}'; echo $? > '${join(root, 'exit')}'`);
  const end = Date.now() + 10_000;
  while (!existsSync(join(root, 'exit')) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  assert.equal(readFileSync(join(root, 'exit'), 'utf8').trim(), '2');
  const said = readFileSync(join(root, 'stderr'), 'utf8');
  assert.match(said, /^[^\n]*cannot (keep|open) [^\n]*store in [^\n]*\.\n$/);
  assert.equal(said.split('\n').length, 2, 'one line');
});

test('NO_COLOR: the screen writes no colour', { skip: hasTmux ? false : why }, async (t) => {
  assert.ok(existsSync(binder), `${binder} is built by npm run build`);
  const term = await start(t, { extraEnv: 'NO_COLOR=1' });
  await term.until((s) => s.includes('Welcome to Binder'), 'the welcome');
  term.keys('Enter');
  await term.until((s) => s.includes('Proposed'), 'the board');
  const styled = term.tmux('capture-pane', '-p', '-e', '-t', 'main');
  const sgr = [...styled.matchAll(/\u001b\[([0-9;]*)m/g)].flatMap((m) => (m[1] ?? '').split(';'));
  const colours = sgr.filter((p) => /^(3[0-9]|4[0-9]|9[0-7]|10[0-7])$/.test(p));
  assert.deepEqual(colours, []);
  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the screen to end');
});
