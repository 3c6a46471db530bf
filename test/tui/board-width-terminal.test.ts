/**
 * A board wider than the terminal, in a real terminal of 80 columns: six states are not squeezed
 * into six unreadable columns; the columns shown are wide enough to read a title, the ones off to
 * either side are signed (‹ ›), the cursor's column is always in view, and `z` makes one column
 * fill the width (and the record opened fill the screen) until `z` again. Skipped, saying why,
 * only where tmux is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT, PERSON } from './harness.js';
import { NO_TMUX as why, hasTmux, startScreen } from './tmux-screen.js';

const STATES = ['Ideas', 'Proposed', 'Approved', 'Doing', 'Review', 'Done'];
const TITLE = 'Dark mode for the login page';

/** The line that names the columns shown (the board's first row). */
const heads = (s: string): string => s.split('\n').find((l) => l.includes('(1)')) ?? '';

test('at 80 columns a board of six states scrolls sideways with readable titles, signs of the columns off to either side, and z zooms', { skip: hasTmux ? false : why, timeout: 90_000 }, async (t) => {
  const term = await startScreen(t, {
    size: [80, 24],
    prepare: async (store) => {
      await store.createList({ template: 'batches', lang: 'en' }, PERSON);
      await store.editList('batches', { states: STATES.map((name) => ({ name, ...(name === 'Approved' ? { gate: true } : {}) })) }, PERSON);
      await store.grant('batches', AGENT.id, 'write', PERSON);
      const list = await store.list('batches', PERSON);
      for (const [i, state] of list.states.entries()) {
        const r = await store.add('batches', { title: `${TITLE} ${i + 1}` }, AGENT);
        if (i > 0) await store.move(r.id, state.id, PERSON);
      }
    },
  });
  await term.until((s) => s.includes('Ideas (1)'), 'the board');
  let s = term.screen();
  // Not every column squeezed in: a few, each wide enough to read a title.
  assert.ok(!heads(s).includes('Done (1)'), `the last columns are off to the side:\n${s}`);
  assert.match(heads(s), / ›/, 'a sign of columns off to the right');
  assert.ok(s.includes('#1 Dark mode for the login'), `a title read whole enough:\n${s}`);

  // The cursor goes right: the columns follow it, and a sign says what is off to the left.
  term.keys('Tab');
  for (const state of STATES.slice(1)) {
    term.keys('l');
    s = await term.until((x) => x.includes(`▸ ${state} (1)`), `the cursor in ${state}`);
  }
  assert.match(heads(s), /‹ /, 'a sign of columns off to the left');
  assert.ok(!heads(s).includes(' ›'), 'nothing more to the right of Done');
  assert.ok(s.includes('>#6 Dark mode for the login'), `the cursor's card, readable:\n${s}`);

  // z: one column fills the width, its whole title read; z again: back.
  term.keys('z');
  s = await term.until((x) => x.includes(`>#6 ${TITLE} 6`) && !x.includes('Lists'), 'one column filling the width');
  assert.match(heads(s), /^‹ ▸ Done \(1\)/, `only Done, with the sign of the others:\n${s}`);
  term.keys('h');
  s = await term.until((x) => x.includes(`>#5 ${TITLE} 5`), 'the next column zoomed');
  assert.match(heads(s), /‹ ▸ Review \(1\).* ›/, 'columns off to both sides');
  // A record opened from the zoomed board: z makes it fill the screen, without the header and key lines; z again brings them back.
  term.keys('Enter');
  await term.until((x) => x.includes('History') && x.includes('Esc back'), 'the record, not zoomed');
  term.keys('z');
  await term.until((x) => x.includes('History') && !x.includes('Esc back') && !x.includes('Binder ·'), 'the record filling the screen');
  term.keys('z');
  await term.until((x) => x.includes('History') && x.includes('Esc back'), 'the record with its frame again');

  // Back on the board, still zoomed; z again: the board as it was.
  term.keys('Escape');
  await term.until((x) => x.includes(`>#5 ${TITLE} 5`) && !x.includes('Lists'), 'the board, still zoomed');
  term.keys('z');
  await term.until((x) => x.includes('Lists') && x.includes('▸ Review (1)') && !x.includes(`${TITLE} 5`), 'back to the board');
});
