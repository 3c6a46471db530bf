/**
 * Colour in a real terminal (tmux): a state's colour by its place and the keys of the hints set
 * apart where the terminal has colour — 256 colours or 16, the same eight — and no colour at all
 * with NO_COLOR or FORCE_COLOR=0, where the names and marks still say everything. Skipped, saying
 * why, only where tmux is absent.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT, PERSON, batches } from './harness.js';
import { NO_TMUX as why, hasTmux, startScreen } from './tmux-screen.js';
import type { Store } from '../../src/store/store.js';

/** A table (or a board) with a record in each state of Batches: Proposed, Approved (the gate), Doing, Done. */
async function fourStates(store: Store, view: 'table' | 'board' = 'table'): Promise<void> {
  await batches(store);
  await store.editList('batches', { view }, PERSON);
  const states = ['Proposed', 'Approved', 'Doing', 'Done'];
  for (const [i, state] of states.entries()) {
    const { id } = await store.add('batches', { title: `In ${state.toLowerCase()}` }, AGENT);
    if (i > 0) await store.approve(id, true, PERSON);
    if (i > 0) await store.move(id, state, PERSON);
  }
}

/** The screen as the terminal holds it, with its styles (tmux's own SGR), once the table shows. */
async function styled(t: TestContext, extraEnv: string, view: 'table' | 'board' = 'table'): Promise<{ text: string; rows: string[] }> {
  const term = await startScreen(t, { prepare: (store) => fourStates(store, view), extraEnv, size: [120, 30] });
  const text = await term.until((s) => s.includes('In done') && s.includes('? help'), 'the table');
  const rows = term.tmux('capture-pane', '-p', '-e', '-t', 'main').split('\n');
  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the end');
  return { text, rows };
}

/** The foreground colours (SGR 30–37, 90–97, 38;…) set before `word` on its row. */
function colourBefore(rows: readonly string[], word: string): string | null {
  const row = rows.find((r) => r.replace(/\u001b\[[0-9;]*m/g, '').includes(word));
  if (!row) return null;
  let colour: string | null = null;
  for (const piece of row.split(/(\u001b\[[0-9;]*m)/)) {
    const sgr = /^\u001b\[([0-9;]*)m$/.exec(piece);
    if (sgr) {
      const codes = (sgr[1] ?? '').split(';');
      for (let i = 0; i < codes.length; i++) {
        const c = codes[i]!;
        if (c === '' || c === '0' || c === '39') colour = null;
        else if (/^(3[0-7]|9[0-7])$/.test(c)) colour = c;
        else if (c === '38') { colour = codes.slice(i, i + 3).join(';'); i += 2; }
      }
    } else if (piece.includes(word)) return colour;
  }
  return null;
}

const colours = (rows: readonly string[]): string[] => rows.flatMap((r) => [...r.matchAll(/\u001b\[([0-9;]*)m/g)])
  .flatMap((m) => (m[1] ?? '').split(';')).filter((c) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(c));

for (const [name, env] of [['256 colours', ''], ['16 colours (TERM=xterm)', 'TERM=xterm']] as const) {
  test(`with ${name}: each state coloured by its place, the gate apart, the keys of the hints set apart`, { skip: hasTmux ? false : why }, async (t) => {
    const { rows } = await styled(t, env);
    assert.equal(colourBefore(rows, 'Proposed  '), null, 'the first state in the terminal\'s own colour');
    assert.equal(colourBefore(rows, 'Approved'), '35', 'the gate magenta');
    assert.equal(colourBefore(rows, 'Doing'), '33', 'a state worked in yellow');
    assert.equal(colourBefore(rows, 'Done  '), '32', 'the last state green');
    const footer = rows.findLast((r) => r.includes('help'))!;
    assert.equal(colourBefore([footer], 'Enter'), '36', `the key of a hint in cyan: ${JSON.stringify(footer)}`);
    assert.ok(!colours(rows).includes('38'), 'only the eight colours every terminal has');
  });
}

for (const env of ['NO_COLOR=1', 'FORCE_COLOR=0']) {
  test(`${env}: no colour at all, and the states and keys still read by their names`, { skip: hasTmux ? false : why }, async (t) => {
    const { text, rows } = await styled(t, env);
    assert.deepEqual(colours(rows), []);
    for (const state of ['Proposed', 'Approved', 'Doing', 'Done']) assert.ok(text.includes(state), state);
    assert.match(text, /\? help {2}q quit/);
  });
}

test('on a board, each column\'s name in its state\'s colour, as the table\'s states; none with NO_COLOR', { skip: hasTmux ? false : why }, async (t) => {
  const { rows } = await styled(t, '', 'board');
  assert.equal(colourBefore(rows, 'Proposed (1)'), null, 'the first state in the terminal\'s own colour');
  assert.equal(colourBefore(rows, 'Approved (1)'), '35', 'the gate magenta');
  assert.equal(colourBefore(rows, 'Doing (1)'), '33', 'a state worked in yellow');
  assert.equal(colourBefore(rows, 'Done (1)'), '32', 'the last state green');
  const plain = await styled(t, 'NO_COLOR=1', 'board');
  assert.deepEqual(colours(plain.rows), []);
  for (const state of ['Proposed (1)', 'Approved (1)', 'Doing (1)', 'Done (1)']) assert.ok(plain.text.includes(state), state);
});
