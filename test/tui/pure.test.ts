/** The screen's pure parts: windows, forms to acts, options, words, theme, record lines. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { follow, step, tableSlices } from '../../src/person/window.js';
import { actOf, addForm, deleteParentPick, editForm, ownersOf } from '../../src/person/form.js';
import { readOptions } from '../../src/app/tui-options.js';
import { langFromEnv, wordsFor } from '../../src/person/words.js';
import { makeTheme } from '../../src/tui/theme.js';
import { columnWindow, layoutFor, READABLE_COLUMN } from '../../src/tui/layout.js';
import { recordLines } from '../../src/person/record-lines.js';
import { dueStatus, wrap } from '../../src/person/format.js';
import type { List, RecordView } from '../../src/store/index.js';

const list: List = {
  id: 'tasks', title: 'Tasks', view: 'board', archived: false, access: {}, created: '', updated: '',
  states: [{ id: 'todo', name: 'To do', gate: false }, { id: 'done', name: 'Done', gate: false }],
  fields: [{ id: 'priority', name: 'Priority', type: 'choice', choices: ['High', 'Low'] }, { id: 'branch', name: 'Branch', type: 'text' }],
};

test('a window follows its cursor and never runs past the end', () => {
  assert.equal(follow(0, 5, 100, 10), 0);
  assert.equal(follow(20, 5, 100, 10), 11);
  assert.equal(follow(99, 95, 100, 10), 90);
  assert.deepEqual(step({ at: 3, scroll: 0 }, -10, 50, 10), { at: 0, scroll: 0 });
  assert.deepEqual(step({ at: 3, scroll: 0 }, 1, 0, 10), { at: 0, scroll: 0 });
});

test('a table window asks each state only for the rows it shows', () => {
  const counts = [{ state: 'a', count: 5 }, { state: 'b', count: 100_000 }, { state: 'c', count: 3 }];
  assert.deepEqual(tableSlices(counts, 0, 10), [{ state: 'a', offset: 0, limit: 5 }, { state: 'b', offset: 0, limit: 5 }]);
  assert.deepEqual(tableSlices(counts, 50_000, 10), [{ state: 'b', offset: 49_995, limit: 10 }]);
  assert.deepEqual(tableSlices(counts, 100_000, 10), [{ state: 'b', offset: 99_995, limit: 5 }, { state: 'c', offset: 0, limit: 3 }]);
});

test('a form turns into the one act it means, with only what changed for an edit', () => {
  const words = wordsFor('en');
  const add = addForm(list, 'done', words, Date.now());
  assert.ok(add.kind === 'form');
  const filled = { ...add, values: { ...add.values, title: 'Ship it', owners: 'me, agent:claude', 'field:priority': 'High' } };
  assert.deepEqual(actOf(filled), { op: 'add', args: { list: 'tasks', title: 'Ship it', state: 'done', owners: ['me', 'agent:claude'], fields: { priority: 'High' } } });

  const record = { id: 7, list: 'tasks', title: 'Old', state: 'todo', approved: null, fields: { branch: 'x' }, owners: ['person:ann'], due: null, archived: false, notes: [], attached: [], created: '', updated: '' };
  const edit = editForm(record, list, words, Date.now());
  assert.equal(actOf(edit), null, 'nothing changed, nothing done');
  assert.ok(edit.kind === 'form');
  assert.deepEqual(actOf({ ...edit, values: { ...edit.values, 'field:branch': '', due: '2030-01-01' } }), { op: 'edit', args: { id: 7, due: '2030-01-01', fields: { branch: '' } } });
  assert.deepEqual(actOf({ ...edit, values: { ...edit.values, owners: '' } }), { op: 'edit', args: { id: 7, owners: [] } });
  assert.deepEqual(ownersOf(' a,b  c '), ['a', 'b', 'c']);
});

test('the edit form\'s parent: typed, a record goes under it; emptied, under none; a parent\'s deletion picks what becomes of its children', () => {
  const words = wordsFor('en');
  const record = { id: 7, list: 'tasks', title: 'Old', state: 'todo', approved: null, fields: {}, owners: [], due: null, archived: false, notes: [], attached: [], created: '', updated: '' };
  const orphan = editForm(record, list, words, Date.now());
  assert.ok(orphan.kind === 'form');
  assert.deepEqual(actOf({ ...orphan, values: { ...orphan.values, parent: '#3' } }), { op: 'edit', args: { id: 7, parent: '#3' } });
  const child = editForm(record, list, words, Date.now(), 3);
  assert.ok(child.kind === 'form');
  assert.equal(child.values.parent, '3', 'the form holds the parent');
  assert.equal(actOf(child), null, 'kept as it was: nothing done');
  assert.deepEqual(actOf({ ...child, values: { ...child.values, parent: ' ' } }), { op: 'edit', args: { id: 7, parent: 'none' } });

  const asked = deleteParentPick(7, 'Old', [8, 9], 0, 0, words);
  assert.ok(asked.kind === 'pick');
  assert.match(asked.title, /Records lie under it \(#8, #9\)/);
  assert.equal(asked.choices[asked.at]?.value, '', 'the cursor starts on deleting nothing');
  assert.equal(actOf(asked, ''), null);
  assert.deepEqual(actOf(asked, 'orphan'), { op: 'delete', args: { id: 7, children: 'orphan' } });
  assert.deepEqual(actOf(asked, 'delete'), { op: 'delete', args: { id: 7, children: 'delete' } });
});

test('options: the store, sides, language and person; anything else is a sentence', () => {
  assert.deepEqual(readOptions(['tui', '--store', 'S', '--side', 'D=Agent', '--side=E=Bot', '--lang', 'fr', '--as', 'ann']), { sides: ['D=Agent', 'E=Bot'], mouse: true, help: false, store: 'S', lang: 'fr', as: 'ann', http: {} });
  assert.equal((readOptions(['tui', '--no-mouse']) as { mouse: boolean }).mouse, false);
  assert.deepEqual(readOptions(['tui', '--http', '--as', 'ann']), { sides: [], mouse: true, help: false, as: 'ann', http: { http: true } });
  assert.deepEqual(readOptions(['tui', '--http', '0.0.0.0:4180', '--behind-proxy', '--allow-host', 'b.example', '--rate=50']),
    { sides: [], mouse: true, help: false, http: { http: '0.0.0.0:4180', behindProxy: true, allowHost: ['b.example'], rate: '50' } });
  assert.ok('problem' in readOptions(['tui', '--lang', 'de']));
  assert.ok('problem' in readOptions(['tui', '--wat']));
  assert.ok('problem' in readOptions(['serve', '--store']));
});

test('French from the locale; NO_COLOR takes every colour and style away', () => {
  assert.equal(langFromEnv({ LANG: 'fr_FR.UTF-8' }), 'fr');
  assert.equal(langFromEnv({ LC_ALL: 'fr_CA.UTF-8', LANG: 'en_US.UTF-8' }), 'fr');
  assert.equal(langFromEnv({ LANG: 'en_GB.UTF-8' }), 'en');
  assert.equal(langFromEnv({}), 'en');
  const plain = makeTheme({ NO_COLOR: '1' });
  assert.deepEqual([plain.color, plain.accent, plain.warn, plain.good, plain.inverse, plain.bold, plain.dim], [false, undefined, undefined, undefined, false, false, false]);
  assert.equal(makeTheme({}).color, true);
});

test('every French word differs from the English where it is a sentence', () => {
  const en = wordsFor('en');
  const fr = wordsFor('fr');
  for (const key of Object.keys(en.commands) as (keyof typeof en.commands)[]) {
    assert.notEqual(fr.commands[key], en.commands[key], `command ${key}`);
  }
  assert.notEqual(fr.welcome.intro, en.welcome.intro);
  assert.notEqual(fr.op('approve').describe, en.op('approve').describe);
});

test('the layout fits 80×24, keeps a row free, shows board columns at a readable width around the cursor, and zooms', () => {
  const l = layoutFor({ columns: 80, rows: 24 }, false);
  assert.ok(l.body + 5 <= 24 - 0 && l.body + 5 === 24);
  // Columns a title can be read in, not every column squeezed: two side by side at 80, one zoomed.
  assert.ok(l.cardPage >= 1 && l.boardColumns === 2 && l.mainWidth / l.boardColumns >= READABLE_COLUMN);
  const zoomed = layoutFor({ columns: 80, rows: 24 }, false, 1, 'board');
  assert.deepEqual([zoomed.boardColumns, zoomed.mainWidth, zoomed.listsWidth], [1, 80, 0]);
  const record = layoutFor({ columns: 80, rows: 24 }, false, 1, 'record');
  assert.ok(record.body === l.body + 3 && record.bodyTop === 0, 'the record zoomed takes the header and status rows too');
  assert.deepEqual(columnWindow(8, 3, 0), { from: 0, to: 3 });
  assert.deepEqual(columnWindow(8, 3, 7), { from: 5, to: 8 });
  assert.deepEqual(columnWindow(2, 3, 1), { from: 0, to: 2 });
});

test('a record\'s lines: notes wrapped to the width, each line knowing its note; overdue said in words', () => {
  const view: RecordView = {
    list,
    record: {
      id: 3, list: 'tasks', title: 'T', state: 'todo', approved: null, fields: { priority: 'High' }, owners: [], due: '2001-01-01', archived: false,
      notes: [{ id: 9, at: '2030-01-01T00:00:00Z', by: { id: 'person:ann', kind: 'person', name: 'ann' }, text: 'word '.repeat(40), edited: true }],
      attached: [{ id: 4, kind: 'link', ref: 'https://x', title: '', at: '', by: { id: 'agent:a', kind: 'agent', name: 'A' } }],
      created: '2030-01-01T00:00:00Z', updated: '2030-01-01T00:00:00Z',
    },
    history: [{ id: 1, at: '2030-01-01T00:00:00Z', by: { id: 'agent:a', kind: 'agent', name: 'A' }, op: 'add', list: 'tasks', record: 3, change: { title: 'T' } }],
    counts: { notes: 1, history: 1 },
  };
  const lines = recordLines(view, wordsFor('en'), Date.parse('2030-01-01'), 40, 'r', (id) => id.replace(/^\w+:/, ''));
  assert.ok(lines.every((l) => [...l.text].length <= 40));
  const noteLines = lines.filter((l) => l.part?.kind === 'note');
  assert.ok(noteLines.length > 3, 'a long note takes several rows, all of them its');
  assert.ok(lines.some((l) => l.text.includes('overdue') && l.tone === 'warn'));
  assert.ok(lines.some((l) => l.part?.kind === 'attached' && l.text.includes('https://x')));
  assert.deepEqual(wrap('aaa bbb ccc', 8), ['aaa bbb', 'ccc']);
  assert.equal(dueStatus('2999-01-01', Date.now()), 'later');
  assert.equal(dueStatus(null, Date.now()), 'none');
});
