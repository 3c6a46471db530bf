/**
 * The screen's input and drawing in a real terminal (tmux): text typed all at once or pasted on
 * the board runs nothing; a burst in a text field lands whole; Ctrl-Z and `fg`; the footer at 60
 * and 200 columns; a CJK title in the table; the pane with the keys highlighted; the mouse, and
 * --no-mouse; the terminal's modes given back on every way out. Skipped, saying why, only where
 * tmux is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { AGENT, PERSON, batches } from './harness.js';
import { BINDER as binder, NO_TMUX as why, hasTmux, startScreen, type Terminal } from './tmux-screen.js';
import type { Store } from '../../src/store/index.js';

async function four(store: Store): Promise<void> {
  await batches(store);
  for (const title of ['First idea', 'Dark mode', 'Third idea', 'Daily standup']) await store.add('batches', { title }, AGENT);
}

/** The binder as `binder admin` reads it, while the screen runs. */
function shown(term: Terminal): string {
  const r = spawnSync(process.execPath, [binder, 'admin', 'show', 'Batches', '--json', '--store', join(term.root, 'store')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const last = (screen: string, n = 1): string => screen.trimEnd().split('\n').at(-n) ?? '';

test('in a real terminal, keys typed all at once or pasted on the board change nothing; a burst in a text field lands whole', { skip: hasTmux ? false : why }, async (t) => {
  assert.ok(existsSync(binder), `${binder} is built by npm run build`);
  const term = await startScreen(t, { prepare: four });
  await term.until((s) => s.includes('#4 Daily standup'), 'the board');
  assert.equal(term.pane('#{mouse_sgr_flag}#{mouse_standard_flag}'), '11', 'clicks asked for, in SGR form');
  term.keys('Enter');
  await term.until((s) => s.includes('▸ Proposed'), 'the records have the keys');
  const before = shown(term);

  term.literal('Dax');
  await term.until((s) => s.includes('Keys that came together change nothing: D a x set aside.'), 'send-keys -l: the keys set aside, named');
  term.paste('Dy\rxX\rq');
  await term.until((s) => s.includes('nothing was done with “Dy xX q”'), 'paste-buffer -p: set aside');
  assert.equal(term.exitCode(), null, 'the q in the paste did not quit');
  assert.equal(shown(term), before, 'nothing deleted, archived or moved');

  term.keys('n');
  await term.until((s) => s.includes('Add a record'), 'the form');
  term.literal('Fast typing\u007f\u007f\u007fed\r');
  await term.until((s) => s.includes('#5 Fast typed') && !s.includes('Add a record'), 'the burst: erased three, typed two, Enter added it');
  term.keys('n');
  await term.until((s) => s.includes('Add a record'), 'the form again');
  term.paste(`pasted ${'x'.repeat(400)}`);
  await term.until((s) => s.includes('Cut at 300 characters'), 'a long paste cut at once');
  term.keys('Escape', 'q');
  await term.until(() => term.exitCode() !== null, 'the end');
  assert.equal(term.exitCode(), '0');
  const bytes = term.bytes();
  for (const [on, off] of [['\u001b[?1000h', '\u001b[?1000l'], ['\u001b[?1006h', '\u001b[?1006l'], ['\u001b[?2004h', '\u001b[?2004l'], ['\u001b[?1049h', '\u001b[?1049l']]) {
    assert.ok(bytes.lastIndexOf(off!) > bytes.lastIndexOf(on!), `${JSON.stringify(on)} turned off at the end`);
  }
});

test('in a real terminal, Ctrl-Z says that agents wait and how long, gives the shell its terminal back, and fg brings the screen back whole', { skip: hasTmux ? false : why }, async (t) => {
  const term = await startScreen(t, { prepare: four, shell: true, size: [100, 30] });
  await term.until((s) => s.includes('#4 Daily standup'), 'the board');
  term.keys('C-z');
  const stopped = await term.until((s) => /Stopped/.test(s) && s.includes('ready$'), 'stopped, the shell back');
  assert.match(stopped.split('\n').join(''), /Binder is suspended, and with it the keeper: agents' asks wait until fg brings it back, each agent at most 20 seconds for an answer \(BINDER_WAIT_MS\), then it gives up\. For a long pause, keep binder serve --no-tui running beside the screen\./, 'said before it stopped');
  assert.equal(term.pane('#{mouse_sgr_flag}#{alternate_on}'), '00', 'modes given back while stopped');
  term.literal('stty -a | grep -o " icanon" ; echo done\r');
  await term.until((s) => s.includes(' icanon') && /done\s*\n.*ready\$/.test(s), 'the terminal cooked again for the shell');
  term.literal('fg\r');
  await term.until((s) => s.includes('#4 Daily standup') && s.includes('Lists') && !s.includes('ready$'), 'the screen drawn again, whole');
  assert.equal(term.pane('#{mouse_sgr_flag}#{alternate_on}'), '11', 'modes taken again');
  term.keys('Enter', 'j');
  await term.until((s) => s.includes('>#2 Dark mode'), 'keys work (raw mode back)');
  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the end');
  assert.equal(term.exitCode(), '0');
});

test('in a real terminal: the footer keeps help and quit at 60 and 200 columns; a CJK title keeps the table\'s columns; the focused pane is highlighted', { skip: hasTmux ? false : why }, async (t) => {
  const term = await startScreen(t, {
    size: [200, 40],
    prepare: async (store) => {
      await batches(store);
      await store.editList('batches', { view: 'table' }, PERSON);
      for (const title of ['Plain title', '漢字のタイトルです、とても長い題名がここにありますので、切られます。まだ続きます。', 'Cafe\u0301 au lait']) await store.add('batches', { title, due: '2030-01-02' }, AGENT);
    },
  });
  let screen = await term.until((s) => s.includes('#3') && s.includes('Cafe'), 'the table');
  assert.match(last(screen), /\? help {2}q quit$/, `the footer at 200: ${last(screen)}`);
  const rows = screen.split('\n').filter((l) => /#\d /.test(l));
  const dueAt = rows.map((l) => stringWidth(l.slice(0, l.indexOf('2030-01-02'))));
  assert.equal(new Set(dueAt).size, 1, `Due starts at the same column on every row:\n${rows.join('\n')}`);
  const styled = term.tmux('capture-pane', '-p', '-e', '-t', 'main');
  assert.match(styled, /\u001b\[[0-9;]*7[0-9;]*m(\u001b\[[0-9;]*m)*▸ Lists/, 'the lists pane, which has the keys, is highlighted');
  term.keys('Enter');
  await term.until((s) => s.includes('▸ #') || /▸ +#/.test(s), 'the table has the keys');
  assert.match(term.tmux('capture-pane', '-p', '-e', '-t', 'main'), /\u001b\[[0-9;]*7[0-9;]*m(\u001b\[[0-9;]*m)*▸ +#/, 'now the table\'s head is');
  term.tmux('resize-window', '-t', 'main', '-x', '60', '-y', '24');
  screen = await term.until((s) => s.split('\n').length <= 25 && /\? help {2}q quit$/.test(last(s)), 'the footer at 60 still ends with help and quit');
  assert.ok(screen.split('\n').every((l) => stringWidth(l) <= 60));
  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the end');
});

test('in a real terminal, a click selects and the wheel scrolls; with --no-mouse the terminal keeps its clicks', { skip: hasTmux ? false : why }, async (t) => {
  const term = await startScreen(t, { prepare: async (store) => { await batches(store); for (let i = 1; i <= 12; i++) await store.add('batches', { title: `Item ${i}` }, AGENT); } });
  const screen = await term.until((s) => s.includes('#5 Item 5'), 'the board');
  const rows = screen.split('\n');
  const y = rows.findIndex((l) => l.includes('#5 Item 5'));
  const x = rows[y]!.indexOf('#5');
  term.literal(`\u001b[<0;${x + 1};${y + 1}M\u001b[<0;${x + 1};${y + 1}m`);
  await term.until((s) => s.includes('>#5 Item 5') && s.includes('▸ Proposed'), 'the card clicked selected');
  term.literal(`\u001b[<65;${x + 1};${y + 1}M`);
  await term.until((s) => s.includes('>#8 Item 8'), 'the wheel: three down');
  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the end');

  const plain = await startScreen(t, { prepare: four, args: ['--no-mouse'] });
  await plain.until((s) => s.includes('#4 Daily standup'), 'the board');
  assert.equal(plain.pane('#{mouse_any_flag}#{mouse_sgr_flag}'), '00', 'no mouse asked for');
  plain.keys('q');
  await plain.until(() => plain.exitCode() !== null, 'the end');
});
