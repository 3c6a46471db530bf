/**
 * The screen shows agent-written text and never obeys it: records made of every control and
 * escape sequence of the kit (titles, a note, text and person fields, owners, an attachment, a
 * title's change in the history, a due notice) shown on every screen a person reaches them by —
 * the board, the record, the edit form, the delete and move dialogs, search, the brief, the
 * table. Every frame written is checked: only the screen's own styles, none of those bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../src/store/index.js';
import { AGENT, KEYS, PERSON, batches, openScreen } from '../tui/harness.js';
import { ATTACKS_PER_TEXT, agentRecords, leaks } from './terminal-kit.js';

/** The Batches list with a text and a person field, and the agent's hostile records in it. */
async function hostileRecords(store: Store): Promise<number> {
  await batches(store);
  await store.editList('batches', { fields: [{ name: 'Branch', type: 'text' }, { name: 'Reviewer', type: 'person' }] }, PERSON);
  return await agentRecords(store, AGENT, 'batches');
}

test('every screen shows hostile records made safe: board, record, edit form, dialogs, search, brief, table, due notice', async (t) => {
  let texts = 0;
  const s = await openScreen(t, { prepare: async (store) => { texts = await hostileRecords(store); } });
  await s.until((f) => f.includes('#1 Evil 2') && f.includes('Due: #'), 'the board and the due notice');
  await s.press(KEYS.enter, KEYS.enter);
  await s.until((f) => f.includes('Notes (2)') && f.includes('Evil note'), 'the record and its notes');
  await s.press('\u001b[6~', '\u001b[6~', '\u001b[6~');
  await s.until((f) => f.includes('History'), 'its attachment and history, further down');
  await s.press('e');
  await s.until((f) => f.includes('#1') && f.includes('Reviewer'), 'the edit form, with its fields');
  await s.press(KEYS.down, KEYS.down);
  await s.until((f) => f.includes('Reviewer'), 'the edit form, owners focused');
  await s.press(KEYS.escape, 'D');
  await s.until((f) => f.includes('for good?'), 'the delete confirmation naming it');
  await s.press(KEYS.escape, 'm');
  await s.until((f) => f.includes('Doing') && f.includes('Proposed'), 'the move dialog');
  await s.press(KEYS.escape, KEYS.escape, '/');
  await s.until((f) => f.includes('Search:'), 'the search');
  await s.press('evil');
  await s.until((f) => f.includes('#1 Evil'), 'the search results');
  await s.press(KEYS.escape, 'b');
  await s.until((f) => f.includes('What changed since you last looked'), 'the brief of what the agent did');
  await s.press(KEYS.escape);
  await s.store.editList('batches', { view: 'table' }, PERSON);
  await s.until((f) => f.includes('Title') && f.includes('More Evil'), 'the table');

  const written = s.frames.join('');
  assert.ok(written.includes('{q0') && written.includes('Evil note') && written.includes('branch'), 'the text itself is shown');
  assert.deepEqual(leaks(written), []);
  t.diagnostic(`${s.frames.length} frames, ${texts} hostile texts of up to ${ATTACKS_PER_TEXT} attacks each: 0 bytes of them written`);
});
