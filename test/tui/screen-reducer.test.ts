/** The screen's reducer, without Ink: cursors, panes, screens, dialogs, filters and notices. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reduce, type Facts } from '../../src/tui/screen-reducer.js';
import { contextOf, INITIAL, top, type ScreenState } from '../../src/person/screen-state.js';
import { addForm, pick } from '../../src/person/form.js';
import { wordsFor } from '../../src/person/words.js';
import type { List } from '../../src/store/index.js';

const facts = (over: Partial<Facts> = {}): Facts => ({
  empty: false, lists: ['a', 'b', 'c'], list: 'a', view: 'board',
  columns: [{ state: 'todo', count: 10 }, { state: 'done', count: 2 }], rows: 0, page: 4, listsPage: 10, ...over,
});

const run = (state: ScreenState, ...actions: Parameters<typeof reduce>[1][]) => actions.reduce(reduce, state);

test('in the lists pane, moving picks the list shown and starts it fresh', () => {
  const s = run(INITIAL, { type: 'move', command: 'down', facts: facts() });
  assert.equal(s.browse.list, 'b');
  const back = run(s, { type: 'move', command: 'up', facts: facts({ list: 'b' }) }, { type: 'move', command: 'up', facts: facts({ list: 'a' }) });
  assert.equal(back.browse.list, 'a', 'stops at the first');
  const end = run(INITIAL, { type: 'move', command: 'bottom', facts: facts() });
  assert.equal(end.browse.list, 'c');
});

test('on a board, up and down move in the column, left and right between columns, the window following', () => {
  let s = run(INITIAL, { type: 'pane', pane: 'records' });
  assert.equal(contextOf(s, false), 'records');
  for (let i = 0; i < 6; i++) s = reduce(s, { type: 'move', command: 'down', facts: facts() });
  assert.deepEqual(s.browse.cards.todo, { at: 6, scroll: 3 });
  s = reduce(s, { type: 'move', command: 'pageDown', facts: facts() });
  assert.deepEqual(s.browse.cards.todo, { at: 9, scroll: 6 }, 'clamped at the last record');
  s = reduce(s, { type: 'move', command: 'right', facts: facts() });
  s = reduce(s, { type: 'move', command: 'right', facts: facts() });
  assert.equal(s.browse.column, 1, 'stops at the last column');
  s = reduce(s, { type: 'move', command: 'down', facts: facts() });
  s = reduce(s, { type: 'move', command: 'down', facts: facts() });
  assert.equal(s.browse.cards.done?.at, 1, 'the short column clamps');
  assert.deepEqual(s.browse.cards.todo, { at: 9, scroll: 6 }, 'the other column keeps its place');
});

test('a table moves over all its rows, by page and to the ends', () => {
  let s = run(INITIAL, { type: 'pane', pane: 'records' });
  const table = facts({ view: 'table', rows: 100_000, page: 20 });
  s = reduce(s, { type: 'move', command: 'bottom', facts: table });
  assert.deepEqual(s.browse.table, { at: 99_999, scroll: 99_980 });
  s = reduce(s, { type: 'move', command: 'pageUp', facts: table });
  assert.deepEqual(s.browse.table, { at: 99_979, scroll: 99_979 });
  s = reduce(s, { type: 'move', command: 'top', facts: table });
  assert.deepEqual(s.browse.table, { at: 0, scroll: 0 });
});

test('screens stack: the top one hears the keys, back takes it away', () => {
  let s = run(INITIAL, { type: 'push', screen: { kind: 'record', id: 4, cursor: { at: 0, scroll: 0 } } });
  assert.equal(contextOf(s, false), 'record');
  s = reduce(s, { type: 'push', screen: { kind: 'help', context: 'record', scroll: 0 } });
  assert.equal(contextOf(s, false), 'help');
  s = reduce(s, { type: 'move', command: 'pageDown', facts: facts({ rows: 50, page: 10 }) });
  assert.equal((top(s) as { scroll: number }).scroll, 10);
  s = reduce(s, { type: 'pop' });
  assert.equal(top(s)?.kind, 'record');
  s = reduce(s, { type: 'pop' });
  assert.equal(top(s), null);
  assert.equal(reduce(s, { type: 'pop' }), s, 'nothing to take away');
});

test('an empty binder welcomes, and its cursor moves over the templates', () => {
  assert.equal(contextOf(INITIAL, true), 'welcome');
  const s = reduce(INITIAL, { type: 'move', command: 'down', facts: facts({ empty: true, lists: [], list: null, rows: 6, page: 6 }) });
  assert.equal(s.browse.welcome.at, 1);
});

test('dialogs: a form\'s fields and choices, a pick, a typed confirmation', () => {
  const list: List = {
    id: 'b', title: 'B', view: 'board', archived: false, access: {}, created: '', updated: '', fields: [],
    states: [{ id: 'one', name: 'One', gate: false }, { id: 'two', name: 'Two', gate: true }],
  };
  let s = reduce(INITIAL, { type: 'dialog', dialog: addForm(list, 'one', wordsFor('en'), Date.now()) });
  assert.equal(contextOf(s, false), 'field', 'a form on its title field: a text field has the keys');
  s = run(s, { type: 'form-value', name: 'title', value: 'Hello' }, { type: 'form-focus', delta: 1 }, { type: 'form-choice', delta: 1 });
  assert.equal(contextOf(s, false), 'form', 'on a choice: arrows turn it');
  assert.ok(s.dialog?.kind === 'form');
  assert.equal(s.dialog.values.title, 'Hello');
  assert.equal(s.dialog.values.state, 'two');
  s = reduce(s, { type: 'form-choice', delta: 1 });
  assert.equal(s.dialog?.kind === 'form' && s.dialog.values.state, 'one', 'choices wrap around');
  s = reduce(s, { type: 'form-focus', delta: -2 });
  assert.equal(s.dialog?.kind === 'form' && s.dialog.focus, 4, 'fields wrap around');

  s = reduce(s, { type: 'dialog', dialog: pick('?', [{ value: 'x', label: 'X' }, { value: 'y', label: 'Y' }], { do: 'filter-state' }) });
  s = run(s, { type: 'pick-step', delta: 5 });
  assert.equal(s.dialog?.kind === 'pick' && s.dialog.at, 1, 'a pick stops at its last choice');
  s = reduce(s, { type: 'dialog', dialog: { kind: 'confirm', text: 'Sure?', typed: { expect: 'B', value: '', caret: 0 }, intent: { do: 'delete-list', list: 'b' } } });
  assert.equal(contextOf(s, false), 'typed');
  s = reduce(s, { type: 'edit', edit: { do: 'insert', text: 'B' }, cut: () => ({ text: 'cut', tone: 'info' }) });
  assert.equal(s.dialog?.kind === 'confirm' && s.dialog.typed?.value, 'B');
});

test('filters start the list over; in search they are the search\'s own', () => {
  let s = run(INITIAL, { type: 'pane', pane: 'records' }, { type: 'move', command: 'down', facts: facts() });
  s = reduce(s, { type: 'filters', patch: { mine: true } });
  assert.equal(s.browse.filters.mine, true);
  assert.deepEqual(s.browse.cards, {});
  s = reduce(s, { type: 'push', screen: { kind: 'search', text: '', caret: 0, focus: 'input', cursor: { at: 0, scroll: 0 }, filters: { state: null, mine: false, archived: false, text: '' } } });
  s = reduce(s, { type: 'filters', patch: { archived: true } });
  const search = top(s);
  assert.ok(search?.kind === 'search' && search.filters.archived);
  assert.equal(s.browse.filters.archived, false);
});

test('a record falls due once on the notice line, however often the keeper says so', () => {
  let s = reduce(INITIAL, { type: 'notices', add: [{ id: 1, title: 'A', due: '2030-01-01' }] });
  s = reduce(s, { type: 'notices', add: [{ id: 1, title: 'A', due: '2030-01-01' }, { id: 2, title: 'B', due: '2030-01-02' }] });
  assert.deepEqual(s.notices.map((n) => n.id), [1, 2]);
  assert.deepEqual(reduce(s, { type: 'dismiss-notices' }).notices, []);
});

test('a record moved: the cursor goes to its state and place, on a board and in a table', () => {
  const states = [{ state: 'todo', count: 3 }, { state: 'doing', count: 40 }, { state: 'done', count: 1 }];
  const board = reduce(INITIAL, { type: 'follow', view: 'board', states, state: 'doing', at: 30, page: 4 });
  assert.equal(board.browse.column, 1);
  assert.deepEqual(board.browse.cards.doing, { at: 30, scroll: 27 }, 'the window shows it');
  const table = reduce(INITIAL, { type: 'follow', view: 'table', states, state: 'done', at: 0, page: 10 });
  assert.deepEqual(table.browse.table, { at: 43, scroll: 34 }, 'after every row of the states before it');
  assert.equal(reduce(INITIAL, { type: 'follow', view: 'board', states, state: 'gone', at: 0, page: 4 }), INITIAL, 'a state not shown: the cursor stays');
});
