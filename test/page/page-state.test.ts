/**
 * The page's reducer and keys, without a browser: the cursor moves over a board as the screen's
 * does (over empty states to the next with records), a key read from a browser event means what
 * the screen's keymap says it means there, and each panel and dialog is the screen's context.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandFor } from '../../src/tui/keymap.js';
import { keyPress } from '../../src/page/keys.js';
import { START, contextOf, pageReducer, type PageState } from '../../src/page/page-state.js';

const key = (k: string, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean } = {}) =>
  keyPress({ key: k, ctrlKey: mods.ctrl ?? false, altKey: mods.alt ?? false, shiftKey: mods.shift ?? false, metaKey: false });

test('the cursor steps over a board: rows in a column, and over empty states sideways', () => {
  let s: PageState = pageReducer(START, { type: 'open-list', list: 'batches' });
  assert.equal(s.focus, 'records');
  const sizes = [2, 0, 3];
  s = pageReducer(s, { type: 'step-records', step: 'down', sizes });
  s = pageReducer(s, { type: 'step-records', step: 'down', sizes });
  assert.deepEqual([s.column, s.row], [0, 1], 'stops at the last row');
  s = pageReducer(s, { type: 'step-records', step: 'right', sizes });
  assert.deepEqual([s.column, s.row], [2, 1], 'over the empty state');
  s = pageReducer(s, { type: 'step-records', step: 'bottom', sizes });
  assert.equal(s.row, 2);
  s = pageReducer(s, { type: 'step-records', step: 'right', sizes });
  assert.equal(s.column, 2, 'stays at the last state');
  s = pageReducer(s, { type: 'step-records', step: 'left', sizes });
  assert.deepEqual([s.column, s.row], [0, 1]);
  s = pageReducer(s, { type: 'list-gone' });
  assert.equal(s.list, null);
});

test('a browser\'s key means what the screen\'s keymap says, in the page\'s context', () => {
  const at = (state: PageState) => contextOf(state);
  const records = pageReducer(START, { type: 'open-list', list: 'x' });
  assert.equal(commandFor(at(records), key('j')), 'down');
  assert.equal(commandFor(at(records), key('ArrowLeft')), 'left');
  assert.equal(commandFor(at(records), key('a')), 'approve');
  assert.equal(commandFor(at(records), key('>', { shift: true })), 'moveOn');
  assert.equal(commandFor(at(records), key('D', { shift: true })), 'delete');
  assert.equal(commandFor(at(records), key('?', { shift: true })), 'help');
  assert.equal(commandFor(at(START), key('D', { shift: true })), 'deleteList');
  const record = pageReducer(records, { type: 'panel', panel: { kind: 'record', id: 1 } });
  assert.equal(at(record), 'record');
  assert.equal(commandFor(at(record), key('Escape')), 'back');
  assert.equal(commandFor(at(records), key('n', { ctrl: true })), undefined, 'Ctrl-n is no key of the binder');
  assert.equal(at(pageReducer(record, { type: 'dialog', dialog: { kind: 'move', id: 1 } })), 'pick');
  assert.equal(at(pageReducer(START, { type: 'panel', panel: { kind: 'agents' } })), 'grant');
});
