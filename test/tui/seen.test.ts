/**
 * The rule the screen and the page share (src/person/seen.ts): a key that changes a record is not
 * done on one that came under the cursor less than half a second before; in a record opened,
 * only the part that came under it is guarded; keys that change nothing are never held back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SEEN_MS, afterSlide } from '../../src/person/seen.js';

test('a change key a moment after a record slid under the cursor asks; later, or another record, or a key that changes nothing, goes', () => {
  const slid = { id: 6, at: 1_000 };
  assert.equal(afterSlide(slid, 'approve', 6, undefined, false, 1_100), 'ask');
  assert.equal(afterSlide(slid, 'moveOn', 6, undefined, false, 1_000 + SEEN_MS), 'seen');
  assert.equal(afterSlide(slid, 'approve', 7, undefined, false, 1_100), 'go', 'another record');
  assert.equal(afterSlide(slid, 'edit', 6, undefined, false, 1_100), 'go', 'an edit opens a form on what is shown');
  assert.equal(afterSlide(null, 'delete', 6, undefined, false, 1_100), 'go');
  // In a record opened: the part that slid, not the record as a whole.
  const part = { id: 1, at: 1_000, part: 'attached:4' };
  assert.equal(afterSlide(part, 'detach', 1, 'attached:4', true, 1_100), 'ask');
  assert.equal(afterSlide(part, 'detach', 1, 'attached:5', true, 1_100), 'go');
  assert.equal(afterSlide(slid, 'approve', 6, undefined, true, 1_100), 'go', 'a record opened shows itself whole');
  assert.equal(afterSlide(part, 'approve', 1, 'attached:4', false, 1_100), 'go', 'a part\'s slide is not the list\'s');
});
