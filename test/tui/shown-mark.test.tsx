/**
 * What was shown is what is approved: the screen's `>` past the gate sends the mark of the title,
 * fields and state its last frame showed, so an agent's change between that frame and the key is
 * refused, not approved.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AGENT, KEYS, PERSON, openScreen } from './harness.js';

test('`>` past the gate approves what the frame showed: a title an agent changed between the frame and the key is refused, nothing moved', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await store.createList({ template: 'batches', lang: 'en' }, PERSON);
      await store.grant('batches', AGENT.id, 'write', PERSON);
      await store.add('batches', { title: 'Tidy the logs' }, AGENT);
    },
  });
  await s.until((f) => f.includes('Proposed (1)'), 'the board');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('>#1 Tidy the logs'), 'the cursor on #1');
  await s.settle();
  // The agent's edit and the key with no frame between them: the key acts on what the frame showed.
  await s.store.edit(1, { title: 'Delete the logs' }, AGENT);
  s.stdin.write('>');
  await s.until((f) => f.includes('#1 changed since you looked'), 'refused, and said');
  const after = (await s.store.get(1, PERSON)).record;
  assert.equal(after.state, 'proposed', 'nothing moved');
  assert.equal(after.approved, null, 'nothing approved');
});
