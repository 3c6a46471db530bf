/**
 * Work that comes to the person, in a real terminal (tmux) with a real agent (the `binder` command,
 * another process, asking through its folder): the record it proposes is said in the status line
 * and written once as the terminal's notification (OSC 777 for WezTerm, passed through tmux), with
 * none of the title's control characters; none with --no-notify, none for the person's own change.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { batches } from './harness.js';
import { BINDER as binder, NO_TMUX as why, hasTmux, startScreen, type Terminal } from './tmux-screen.js';

const ESC = '\u001b';
const NOTIFY_START = `${ESC}Ptmux;${ESC}${ESC}]777;notify;`;

/** The agent's `binder add`, another process, answered by the screen's keeper. */
async function agentAdds(term: Terminal, title: string): Promise<void> {
  const child = spawn(process.execPath, [binder, 'add', 'Batches', title], { cwd: join(term.root, 'work'), stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, `the agent's add was answered: ${err}`);
}

const notifications = (term: Terminal): string[] => term.bytes().split(NOTIFY_START).slice(1).map((rest) => rest.slice(0, rest.indexOf(`${ESC}\\`)));

async function waitFor(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function screenWith(t: TestContext, args: string[] = []): Promise<Terminal> {
  const term = await startScreen(t, { prepare: batches, extraEnv: 'TERM_PROGRAM=WezTerm TMUX=/tmp/outer,1,0', args });
  await term.until((s) => s.includes('Batches'), 'the board');
  return term;
}

test('in a real terminal, an agent\'s proposal is said in the status line and notified once, its title\'s ESC and BEL taken out', { skip: hasTmux ? false : why }, async (t) => {
  const term = await screenWith(t);
  await agentAdds(term, `Dark ${ESC}]0;owned\u0007mode`);
  await term.until((s) => /#1 waits for your approval: Dark.*mode/.test(s), 'the status line saying #1 waits');
  await waitFor(() => notifications(term).length > 0, 'the terminal notification');
  const [told, ...more] = notifications(term);
  assert.match(told!, /^Binder;#1 waits for your approval: Dark.*mode\u0007$/, 'the title, then the body, ended by BEL');
  assert.doesNotMatch(told!.slice(0, -1), /[\u0000-\u001f\u007f]/, 'no control character of the title reaches the terminal');
  assert.deepEqual(more, []);

  // Redrawn, moved about, the screen says nothing again; the person's own add tells nothing.
  term.keys('Down', 'Up', 'Right', 'Left');
  const done = spawn(process.execPath, [binder, 'admin', 'add', 'Batches', 'By Ann', '--store', join(term.root, 'store'), '--as', 'ann']);
  await new Promise((resolve) => done.on('close', resolve));
  await agentAdds(term, 'Second proposal');
  await waitFor(() => notifications(term).length === 2, 'the second proposal\'s notification');
  assert.match(notifications(term)[1]!, /#3 waits for your approval: Second proposal/);
  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the end');
  assert.equal(notifications(term).length, 2, 'one notification per proposal, none for the person\'s own');
});

test('in a real terminal, --no-notify keeps the status line and writes no notification', { skip: hasTmux ? false : why }, async (t) => {
  const term = await screenWith(t, ['--no-notify']);
  await agentAdds(term, 'Quiet proposal');
  await term.until((s) => s.includes('#1 waits for your approval: Quiet proposal'), 'the status line saying #1 waits');
  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the end');
  assert.deepEqual(notifications(term), []);
  assert.ok(!term.bytes().includes(']777;'), 'no notification at all');
});
