/**
 * A note of several lines in a real terminal (tmux): a bracketed paste of three lines into the
 * note field stays three lines, Alt-Enter adds a line, Enter sends; the record shows each line on
 * its own row and the store keeps the line breaks. Skipped, saying why, only where tmux is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { AGENT, batches } from './harness.js';
import { BINDER as binder, NO_TMUX as why, hasTmux, startScreen } from './tmux-screen.js';

test('in a real terminal, a three-line paste into a note stays three lines, Alt-Enter adds one, and the record shows them line by line', { skip: hasTmux ? false : why }, async (t) => {
  const term = await startScreen(t, {
    prepare: async (store) => { await batches(store); await store.add('batches', { title: 'Dark mode' }, AGENT); },
  });
  await term.until((s) => s.includes('#1 Dark mode'), 'the board');
  term.keys('Enter', 'Enter');
  await term.until((s) => s.includes('Binder · #1 Dark mode') && s.includes('History'), 'the record');
  term.keys('N');
  await term.until((s) => s.includes('Add a note #1') && s.includes('Alt-Enter'), 'the note form, saying how to add a line');
  term.paste('First line\nsecond line\nthird line');
  await term.until((s) => s.includes('First line↵second line↵third line'), 'the paste whole in the field, its breaks kept');
  term.keys('M-Enter');
  term.literal('and a fourth');
  await term.until((s) => s.includes('third line↵and a fourth'), 'Alt-Enter: a new line, not sent');
  term.keys('Enter');
  const screen = await term.until((s) => !s.includes('Add a note') && s.includes('Notes (1)') && s.includes('and a fourth'), 'sent with Enter, shown in the record');
  const rows = screen.split('\n');
  const first = rows.findIndex((l) => l.trim() === 'First line');
  assert.ok(first > 0, `the note's first line on a row of its own:\n${screen}`);
  assert.deepEqual(rows.slice(first, first + 4).map((l) => l.trim()), ['First line', 'second line', 'third line', 'and a fourth']);

  const got = spawnSync(process.execPath, [binder, 'admin', 'get', '1', '--json', '--store', join(term.root, 'store')], { encoding: 'utf8' });
  assert.equal(got.status, 0, got.stderr);
  const notes = (JSON.parse(got.stdout) as { record: { notes: { text: string }[] } }).record.notes;
  assert.equal(notes.at(-1)?.text, 'First line\nsecond line\nthird line\nand a fourth', 'the store keeps the line breaks');
  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the end');
});
