/** The one keymap: every key means one command where it is heard, and help is generated from it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Key } from 'ink';
import { commandFor, KEYMAP, OP_COMMANDS, PLAIN_COMMANDS, type Context } from '../../src/tui/keymap.js';
import { helpLines, keyHints } from '../../src/tui/help-lines.js';
import { operation } from '../../src/keeper/operations.js';
import { wordsFor } from '../../src/tui/words.js';

const none: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false,
  return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false,
  super: false, hyper: false, capsLock: false, numLock: false,
};
const CONTEXTS: Context[] = ['lists', 'records', 'record', 'search', 'results', 'help', 'welcome', 'grant', 'sides', 'list-editor', 'brief', 'form', 'pick', 'confirm', 'typed'];

test('the keys of the issue do what it says', () => {
  assert.equal(commandFor('records', 'a', none), 'approve');
  assert.equal(commandFor('records', '<', none), 'moveBack');
  assert.equal(commandFor('records', '>', none), 'moveOn');
  assert.equal(commandFor('records', 'm', none), 'movePick');
  assert.equal(commandFor('records', 'n', none), 'add');
  assert.equal(commandFor('records', 'e', none), 'edit');
  assert.equal(commandFor('records', 'N', none), 'note');
  assert.equal(commandFor('records', 'x', none), 'archive');
  assert.equal(commandFor('records', 'D', none), 'delete');
  assert.equal(commandFor('records', 'g', none), 'grant');
  assert.equal(commandFor('lists', 'L', none), 'newList');
  assert.equal(commandFor('lists', 'D', none), 'deleteList');
  assert.equal(commandFor('records', '/', none), 'search');
  assert.equal(commandFor('records', '?', none), 'help');
  assert.equal(commandFor('records', 'q', none), 'quit');
  assert.equal(commandFor('records', 'j', none), 'down');
  assert.equal(commandFor('records', 'h', none), 'left');
  assert.equal(commandFor('records', '', { ...none, return: true }), 'open');
  assert.equal(commandFor('records', '', { ...none, escape: true }), 'back');
  assert.equal(commandFor('records', '', { ...none, tab: true }), 'switchPane');
});

test('typing never runs a command: letters in a form, the search box or a typed confirmation are text', () => {
  for (const context of ['search', 'form', 'typed'] as const) {
    for (const ch of 'abcdefghijklmnopqrstuvwxyzADEGLMNSTX/?<>') assert.equal(commandFor(context, ch, none), undefined, `${ch} in ${context}`);
  }
});

test('in each place, a key means one command only', () => {
  for (const context of CONTEXTS) {
    const seen = new Map<string, string>();
    for (const b of KEYMAP) {
      if (!b.where.includes(context)) continue;
      for (const k of b.keys) {
        const id = 'char' in k ? `char:${k.char}` : `key:${k.name}`;
        const before = seen.get(id);
        assert.ok(!before || before === b.command, `${id} in ${context} is both ${before} and ${b.command}`);
        seen.set(id, b.command);
      }
    }
  }
});

test('every command is bound, and every command that changes the binder is a catalog operation', () => {
  const bound = new Set(KEYMAP.map((b) => b.command));
  for (const c of [...PLAIN_COMMANDS, ...Object.keys(OP_COMMANDS)]) assert.ok(bound.has(c as never), `${c} has a key`);
  for (const op of Object.values(OP_COMMANDS)) assert.ok(operation(op), `${op} is in the catalog`);
});

test('every person-only operation of the catalog has a key somewhere', () => {
  const reached = new Set<string>(Object.values(OP_COMMANDS));
  // Read in place, not by a key of their own: the template list (first run, L) and the folder list (S).
  for (const shown of ['templates', 'sides']) reached.add(shown);
  // restore is the second half of archive (x), and withdraw of approve (a).
  reached.add('restore');
  for (const name of ['approve', 'delete', 'edit-note', 'templates', 'create-list', 'edit-list', 'grant', 'archive-list', 'delete-list', 'sides', 'side-add', 'side-remove']) {
    assert.ok(reached.has(name), `${name} is offered`);
  }
});

test('help is generated from the keymap, in both languages, with the catalog\'s words', () => {
  const en = helpLines('records', wordsFor('en')).map((l) => l.text).join('\n');
  assert.match(en, /^Records of a list/);
  assert.ok(en.includes(operation('approve')!.describe));
  const fr = helpLines('records', wordsFor('fr')).map((l) => l.text).join('\n');
  assert.match(fr, /^Fiches d'une liste/);
  assert.ok(fr.includes('approuver'));
  assert.ok(keyHints('records', wordsFor('en')).includes('a approve'));
  assert.ok(!keyHints('records', wordsFor('en')).includes('down'), 'moving about is left out of the status line');
});
