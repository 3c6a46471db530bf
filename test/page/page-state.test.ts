/**
 * The page's reducer and keys, without a browser: the cursor moves over a board as the screen's
 * does (over empty states to the next with records), a key read from a browser event means what
 * the screen's keymap says it means there, and each panel and dialog is the screen's context.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandFor } from '../../src/person/keymap.js';
import { keyPress } from '../../src/page/keys.js';
import { holdAction, placeHeld } from '../../src/page/held.js';
import { START, contextOf, pageReducer, type PageState } from '../../src/page/page-state.js';

const key = (k: string, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean } = {}) =>
  keyPress({ key: k, ctrlKey: mods.ctrl ?? false, altKey: mods.alt ?? false, shiftKey: mods.shift ?? false, metaKey: false });

test('the cursor steps over a board: rows in a column, and over empty states sideways', () => {
  let s: PageState = pageReducer(START, { type: 'open-list', list: 'batches' });
  assert.equal(s.focus, 'records');
  const column = (state: string, ids: number[]) => ids.map((id) => ({ id, state }));
  const sizes = [column('a', [1, 2]), [], column('c', [3, 4, 5])];
  s = pageReducer(s, { type: 'step-records', step: 'down', columns: sizes });
  s = pageReducer(s, { type: 'step-records', step: 'down', columns: sizes });
  assert.equal(s.held?.id, 2, 'the selection holds the record under it');
  assert.deepEqual([s.column, s.row], [0, 1], 'stops at the last row');
  s = pageReducer(s, { type: 'step-records', step: 'right', columns: sizes });
  assert.deepEqual([s.column, s.row], [2, 1], 'over the empty state');
  s = pageReducer(s, { type: 'step-records', step: 'bottom', columns: sizes });
  assert.equal(s.row, 2);
  s = pageReducer(s, { type: 'step-records', step: 'right', columns: sizes });
  assert.equal(s.column, 2, 'stays at the last state');
  s = pageReducer(s, { type: 'step-records', step: 'left', columns: sizes });
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

test('filters: the open list\'s, cleared when another opens; the search\'s own while it is in front', () => {
  let s = pageReducer(START, { type: 'open-list', list: 'batches' });
  s = pageReducer(s, { type: 'filters', where: 'list', patch: { state: 'doing', mine: true } });
  assert.deepEqual([s.filters.state, s.filters.mine], ['doing', true]);
  assert.equal(pageReducer(s, { type: 'open-list', list: 'batches' }).filters.mine, true, 'the same list keeps them');
  assert.equal(pageReducer(s, { type: 'open-list', list: 'tasks' }).filters.state, null, 'another list starts without');
  const searching = pageReducer(s, { type: 'panel', panel: { kind: 'search', filters: { state: null, mine: false, archived: false, text: '' } } });
  const archived = pageReducer(searching, { type: 'filters', where: 'search', patch: { archived: true } });
  assert.equal(pageReducer(searching, { type: 'filters', where: 'list', patch: { mine: false } }).filters.mine, false, 'the list\'s, with the search in front');
  assert.equal(archived.panel?.kind === 'search' && archived.panel.filters.archived, true);
  assert.equal(archived.filters.archived, false, 'the list\'s are left as they were');
  assert.equal(commandFor(contextOf(archived), key('M', { shift: true })), 'filterMine');
  assert.equal(commandFor(contextOf(s), key('f')), 'filterText');
  assert.equal(commandFor(contextOf(START), key('A', { shift: true })), 'archivedLists');
  const shown = pageReducer(s, { type: 'archived-lists' });
  assert.deepEqual([shown.archivedLists, shown.list, shown.filters.mine], [true, null, false]);
});

test('the panel\'s cursor: a record\'s starts on none of its parts; the others on their first row', () => {
  const record = pageReducer(START, { type: 'panel', panel: { kind: 'record', id: 4 } });
  assert.equal(record.panelAt, -1);
  assert.equal(pageReducer(record, { type: 'step-panel', step: 'down', count: 3 }).panelAt, 0);
  assert.equal(pageReducer(record, { type: 'step-panel', step: 'bottom', count: 3 }).panelAt, 2);
  let brief = pageReducer(record, { type: 'panel', panel: { kind: 'brief', asked: 0 } });
  assert.equal(brief.panelAt, 0);
  brief = pageReducer(brief, { type: 'step-panel', step: 'down', count: 3 });
  assert.equal(pageReducer(brief, { type: 'panel', panel: { kind: 'brief', asked: 0 } }).panelAt, 1, 'the same panel keeps its cursor');
  assert.equal(pageReducer(brief, { type: 'panel', panel: { kind: 'brief', asked: 1 } }).panelAt, 0, 'what changed since starts at the top');
  assert.equal(contextOf(pageReducer(START, { type: 'dialog', dialog: { kind: 'edit-note', id: 1, note: 2, text: 'x' } })), 'form');
  assert.equal(contextOf(pageReducer(START, { type: 'dialog', dialog: { kind: 'filter-state', where: 'list', choices: [], at: '' } })), 'pick');
  assert.equal(commandFor('record', key('E', { shift: true })), 'editNote');
  assert.equal(commandFor('confirm', key('o'), 'fr'), 'yes', 'oui');
});

test('the selection holds a record: rows coming or going above it move it, its neighbour takes its place when it leaves', () => {
  const shown = (state: string, ids: number[]) => ids.map((id) => ({ id, state }));
  let s: PageState = pageReducer(START, { type: 'open-list', list: 'batches' });
  // Nothing held yet: the record at the selection's place is held, without a word.
  const first = placeHeld(s, [shown('a', [17, 14, 13])]);
  assert.deepEqual(first, { kind: 'here', column: 0, row: 0, record: { id: 17, state: 'a' }, went: null });
  s = pageReducer(s, holdAction(first!));
  s = pageReducer(s, { type: 'step-records', step: 'down', columns: [shown('a', [17, 14, 13])] });
  assert.equal(s.held?.id, 14);
  // Two records arrive above it: it is held two rows lower.
  const lower = placeHeld(s, [shown('a', [20, 19, 17, 14, 13])])!;
  assert.deepEqual([lower.kind, lower.column, lower.row, lower.record?.id], ['here', 0, 3, 14]);
  s = pageReducer(s, holdAction(lower));
  assert.equal(placeHeld(s, [shown('a', [20, 19, 17, 14, 13])]), null, 'where it is: nothing to do');
  // Moved by someone else to another state: the selection goes with it, and says where.
  const went = placeHeld(s, [shown('a', [20, 19, 17, 13]), shown('b', [14])])!;
  assert.deepEqual([went.kind, went.column, went.row, went.kind === 'here' && went.went], ['here', 1, 0, 'b']);
  s = pageReducer(s, holdAction(went));
  // It leaves the view: its neighbour at the same place is held now.
  const left = placeHeld(s, [shown('a', [20, 19, 17, 13]), shown('b', [12])])!;
  assert.deepEqual([left.kind, left.kind === 'left' && left.id, left.column, left.row, left.record?.id], ['left', 14, 1, 0, 12]);
});

test('a selection already where it is leaves the state as it is (the page is not drawn again for it); anywhere else it moves', () => {
  let s: PageState = pageReducer(START, { type: 'open-list', list: 'batches' });
  s = pageReducer(s, { type: 'hold', column: 0, row: 0, record: { id: 1, state: 'a' } });
  assert.equal(pageReducer(s, { type: 'hold', column: 0, row: 0, record: { id: 1, state: 'a' } }), s, 'held again where it is');
  assert.equal(pageReducer(s, { type: 'select', column: 0, row: 0, record: { id: 1, state: 'a' } }), s, 'a card given the focus it had');
  assert.notEqual(pageReducer(s, { type: 'select', column: 0, row: 1, record: { id: 2, state: 'a' } }), s);
  assert.equal(pageReducer(s, { type: 'hold', column: 0, row: 0, record: { id: 1, state: 'b' } }).held?.state, 'b', 'its record moved: held where it went');
  const inLists = pageReducer(s, { type: 'focus', focus: 'lists' });
  assert.equal(pageReducer(inLists, { type: 'select', column: 0, row: 0, record: { id: 1, state: 'a' } }).focus, 'records', 'a card selected from the lists takes the focus back');
});
