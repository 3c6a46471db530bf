/** What comes to the person unasked, and the terminal's notification of it: pure parts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { heardOf, mentions } from '../../src/person/heard.js';
import { wordsFor } from '../../src/person/words.js';
import { notifyKindFor, notifySequence, terminalNotifier } from '../../src/tui/terminal-notify.js';
import type { BriefItem, Who } from '../../src/store/index.js';

const ann: Who = { id: 'person:ann', kind: 'person', name: 'Ann' };
const bot: Who = { id: 'agent:bot', kind: 'agent', name: 'Bot' };

test('a note names a person as @name, not inside an address nor a longer name', () => {
  assert.ok(mentions('@ann, look at this', 'Ann'));
  assert.ok(mentions('ask @Ann.', 'Ann'));
  assert.ok(!mentions('mail ann@ann.org', 'Ann'));
  assert.ok(!mentions('@annie knows', 'Ann'));
  assert.ok(!mentions('Ann alone', 'Ann'));
});

test('what is heard: waits and mentions by others, each history row once, in order', () => {
  const base = { at: '', list: 'batches', title: 'Dark mode' };
  const items: BriefItem[] = [
    { ...base, id: 3, kind: 'note', by: bot, record: 1, text: 'done, @ann' },
    { ...base, id: 2, kind: 'added', by: bot, record: 1, waits: true },
    { ...base, id: 4, kind: 'note', by: bot, record: 1, text: 'no name here' },
    { ...base, id: 5, kind: 'note', by: ann, record: 1, text: 'note to self @ann' },
  ];
  assert.deepEqual(heardOf(items, ann, wordsFor('en')).map((h) => [h.row, h.text]), [
    [2, '#1 waits for your approval: Dark mode'],
    [3, 'Bot named you in a note on #1: Dark mode'],
  ]);
});

test('the terminal\'s notification: known terminals only, made plain, wrapped for tmux', () => {
  assert.equal(notifyKindFor({ TERM_PROGRAM: 'iTerm.app' }), 'osc9');
  assert.equal(notifyKindFor({ TERM: 'foot' }), 'osc777');
  assert.equal(notifyKindFor({ TERM: 'xterm-256color' }), null);
  assert.equal(notifyKindFor({ TERM_PROGRAM: 'tmux', LC_TERMINAL: 'iTerm.app', TERM: 'tmux-256color' }), 'osc9');
  assert.equal(notifySequence('osc9', 'Binder', 'x\u001b]0;t\u0007y;z', false), '\u001b]9;Binder: xy,z\u0007');
  assert.equal(notifySequence('osc777', 'Binder', 'b', true), '\u001bPtmux;\u001b\u001b]777;notify;Binder;b\u0007\u001b\\');
  const written: string[] = [];
  terminalNotifier({ TERM: 'foot' }, false, (s) => written.push(s))?.('a', 'b');
  assert.equal(terminalNotifier({ TERM: 'xterm' }, true, (s) => written.push(s)), null);
  assert.deepEqual(written, []);
});
