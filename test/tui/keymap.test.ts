/** The one keymap: every key means one command where it is heard, help is generated from it, and the status line keeps help and quit at any width. */
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { commandFor, KEYMAP, OP_COMMANDS, PLAIN_COMMANDS, EDIT_COMMANDS, type Context, type KeyStroke } from '../../src/person/keymap.js';
import { helpLines, keyHints } from '../../src/person/help-lines.js';
import { decodeKey } from '../../src/person/keys.js';
import { displayWidth } from '../../src/person/display-width.js';
import { operation } from '../../src/keeper/operations.js';
import { wordsFor } from '../../src/person/words.js';

const CONTEXTS: Context[] = ['lists', 'records', 'record', 'search', 'results', 'help', 'welcome', 'grant', 'sides', 'list-editor', 'brief', 'form', 'field', 'pick', 'confirm', 'typed'];
const on = (context: Context, sequence: string, lang?: 'en' | 'fr') => commandFor(context, decodeKey(sequence), lang);

test('the keys of the issue do what it says', () => {
  const expect: [string, string][] = [
    ['a', 'approve'], ['<', 'moveBack'], ['>', 'moveOn'], ['m', 'movePick'], ['n', 'add'], ['e', 'edit'], ['N', 'note'],
    ['x', 'archive'], ['D', 'delete'], ['p', 'grant'], ['/', 'search'], ['?', 'help'], ['q', 'quit'], ['j', 'down'], ['h', 'left'],
    ['f', 'filterText'], ['G', 'bottom'], ['u', 'undo'], ['\r', 'open'], ['\u001b', 'back'], ['\t', 'switchPane'],
    ['\u0004', 'halfDown'], ['\u0015', 'halfUp'], ['\u0003', 'quit'], ['\u001a', 'suspend'],
  ];
  for (const [key, command] of expect) assert.equal(on('records', key), command, JSON.stringify(key));
  assert.equal(on('lists', 'L'), 'newList');
  assert.equal(on('lists', 'D'), 'deleteList');
  // gg: the second g, after a first that did nothing alone.
  assert.equal(on('records', 'g'), undefined);
  assert.equal(commandFor('records', decodeKey('g'), 'en', true), 'top');
  assert.equal(on('list-editor', 'g'), 'gateToggle', 'in the list editor g is the gate');
  for (const context of ['list-editor', 'grant', 'sides'] as const) {
    assert.equal(on(context, '\u001b[H'), 'top', `Home in ${context}`);
    assert.equal(on(context, '\u001b[F'), 'bottom', `End in ${context}`);
  }
});

test('Ctrl-C closes a form, a pick or a question; at the top it quits; Ctrl-Z suspends everywhere', () => {
  for (const context of ['form', 'field', 'pick', 'confirm', 'typed'] as const) assert.equal(on(context, '\u0003'), 'cancel', context);
  for (const context of ['lists', 'records', 'record', 'search', 'help'] as const) assert.equal(on(context, '\u0003'), 'quit', context);
  for (const context of CONTEXTS) assert.equal(on(context, '\u001a'), 'suspend', context);
});

test('a confirmation takes y, and o (oui) in French only', () => {
  assert.equal(on('confirm', 'y'), 'yes');
  assert.equal(on('confirm', 'o', 'en'), undefined);
  assert.equal(on('confirm', 'o', 'fr'), 'yes');
  assert.equal(on('confirm', 'O', 'fr'), 'yes');
  assert.equal(on('confirm', 'y', 'fr'), 'yes');
});

test('line editing keys in a text field: Home/End, Ctrl-A/E/U/K/W, Alt-Backspace, Alt-←/→, Delete', () => {
  const expect: [string, string][] = [
    ['\u001b[H', 'editHome'], ['\u001b[F', 'editEnd'], ['\u001b[1~', 'editHome'], ['\u001bOF', 'editEnd'], ['\u0001', 'editHome'], ['\u0005', 'editEnd'],
    ['\u0015', 'editKillStart'], ['\u000b', 'editKillEnd'], ['\u0017', 'editWordBack'], ['\u001b\u007f', 'editWordBack'],
    ['\u001b[1;3D', 'editWordLeft'], ['\u001b[1;3C', 'editWordRight'], ['\u001bb', 'editWordLeft'], ['\u001bf', 'editWordRight'],
    ['\u001b[1;5D', 'editWordLeft'], ['\u001b[3~', 'editDelete'], ['\u007f', 'editBackspace'], ['\b', 'editBackspace'],
    ['\u001b[D', 'editLeft'], ['\u001b[C', 'editRight'],
  ];
  for (const context of ['field', 'typed', 'search'] as const) {
    for (const [key, command] of expect) assert.equal(on(context, key), command, `${JSON.stringify(key)} in ${context}`);
  }
  assert.equal(on('form', '\u001b[C'), 'choiceNext', 'on a choice, → turns it');
  assert.equal(on('field', '\u001b[Z'), 'prevField', 'Shift-Tab goes back a field');
});

test('typing never runs a command: letters in a form, the search box or a typed confirmation are text', () => {
  for (const context of ['search', 'field', 'typed'] as const) {
    for (const ch of 'abcdefghijklmnopqrstuvwxyzADEGLMNSTX/?<>') assert.equal(on(context, ch), undefined, `${ch} in ${context}`);
  }
});

const strokeId = (k: KeyStroke): string =>
  'char' in k ? `char:${k.char}${k.twice ? '×2' : ''}` : 'ctrl' in k ? `ctrl:${k.ctrl}` : 'meta' in k ? `meta:${k.meta}` : `key:${k.name}:${k.mod ?? ''}`;

test('in each place, a key means one command only', () => {
  for (const lang of ['en', 'fr'] as const) {
    for (const context of CONTEXTS) {
      const seen = new Map<string, string>();
      for (const b of KEYMAP) {
        if (!b.where.includes(context) || (b.lang && b.lang !== lang)) continue;
        for (const k of b.keys) {
          const id = strokeId(k);
          const before = seen.get(id);
          assert.ok(!before || before === b.command, `${id} in ${context} is both ${before} and ${b.command}`);
          seen.set(id, b.command);
        }
      }
    }
  }
});

test('every command is bound, and every command that changes the binder is a catalog operation', () => {
  const bound = new Set(KEYMAP.map((b) => b.command));
  for (const c of [...PLAIN_COMMANDS, ...EDIT_COMMANDS, ...Object.keys(OP_COMMANDS)]) assert.ok(bound.has(c as never), `${c} has a key`);
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

test('help is generated from the keymap, in both languages, with the catalog\'s words; r is said to a person', () => {
  const en = helpLines('records', wordsFor('en')).map((l) => l.text).join('\n');
  assert.match(en, /^Records of a list/);
  assert.ok(en.includes(operation('approve')!.describe));
  assert.match(en, /\n {2}r +take the claim away from its holder — End the claim an agent holds/);
  assert.ok(!en.includes(operation('release')!.describe), 'not "Give back a record you took", which is said to an agent');
  const fr = helpLines('records', wordsFor('fr')).map((l) => l.text).join('\n');
  assert.match(fr, /^Fiches d'une liste/);
  assert.ok(fr.includes('approuver'));
  assert.match(helpLines('confirm', wordsFor('fr')).map((l) => l.text).join('\n'), /y Y o O +oui/);
  assert.ok(keyHints('records', wordsFor('en')).includes('a approve'));
  assert.ok(!keyHints('records', wordsFor('en')).includes('down'), 'moving about is left out of the status line');
});

test('the status line keeps ? help and q quit at any width, dropping the least useful hints first', () => {
  for (const lang of ['en', 'fr'] as const) {
    const words = wordsFor(lang);
    for (const context of ['lists', 'records', 'record', 'results', 'brief', 'grant', 'sides', 'list-editor', 'help', 'welcome'] as const) {
      for (const width of [40, 50, 60, 80, 120, 200]) {
        const line = keyHints(context, words, width);
        assert.ok(displayWidth(line) <= width, `${context} at ${width} in ${lang}: ${line}`);
        assert.match(line, /\? \S+ {2}q \S+$/, `${context} at ${width} in ${lang}: ${line}`);
      }
    }
  }
  const narrow = keyHints('records', wordsFor('en'), 60);
  const wide = keyHints('records', wordsFor('en'), 200);
  assert.ok(narrow.includes('Enter open'), `the most useful stays: ${narrow}`);
  assert.ok(keyHints('records', wordsFor('en'), 80).includes('a approve'), 'then approving');
  assert.match(narrow, /\+\d+ more \(\?\)/, 'what was dropped is counted');
  assert.ok(wide.length > narrow.length && wide.includes('N add a note'));
});

test('the words, the keymap, keys, line editing, the history in words and the reducer load without Ink or React (a web page shares them)', () => {
  const hook = `export async function resolve(specifier, context, next) {
    if (/^(ink|react)(\\/|$)/.test(specifier)) throw new Error('loaded ' + specifier + ' from ' + context.parentURL);
    return next(specifier, context);
  }`;
  const modules = [
    ...['words', 'keymap', 'keys', 'history-words', 'help-lines', 'display-width', 'form', 'record-lines', 'brief-lines'].map((m) => `person/${m}`),
    ...['line-edit', 'screen-reducer', 'input-events'].map((m) => `tui/${m}`),
  ];
  const script = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});
for (const m of ${JSON.stringify(modules)}) await import(new URL('../../src/' + m + '.js', ${JSON.stringify(import.meta.url)}));
console.log('loaded');`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.stdout.trim(), 'loaded', r.stderr);
});
