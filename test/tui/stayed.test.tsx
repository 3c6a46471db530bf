/**
 * A move that moves nothing says so: the state the record already stands in, picked with `m`, or
 * a step from where the record was shown that someone else took first, is "already in …: nothing
 * moved", on the screen and in the keeper's answer, never "Moved".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { approvalMark } from '../../src/store/index.js';
import { AGENT, KEYS, PERSON, openScreen } from './harness.js';

test('m to the state the record is in says nothing moved; a step someone else took first says so too', async (t) => {
  const s = await openScreen(t, {
    prepare: async (store) => {
      await store.createList({ template: 'tasks', lang: 'en' }, PERSON);
      await store.grant('tasks', AGENT.id, 'write', PERSON);
      await store.add('tasks', { title: 'One' }, PERSON);
      await store.add('tasks', { title: 'Two' }, PERSON);
    },
  });
  await s.until((f) => f.includes('To do (2)'), 'the board');
  await s.press(KEYS.enter);
  await s.until((f) => f.includes('>#1 One'), 'the cursor on #1');
  await s.press('m');
  await s.until((x) => x.includes('Move to which state?'), 'the states to pick');
  await s.press(KEYS.enter);
  const f = await s.until((x) => x.includes('#1 is already in To do: nothing moved'), 'said nothing moved');
  assert.ok(!f.includes('Moved #1'), 'never "Moved"');
  const history = (await s.store.get(1, PERSON)).history;
  assert.ok(!history.some((h) => h.op === 'move'), 'no move in the history');

  // `>` on #2 as shown in To do, after an agent took it to Doing first: the answer says it stayed.
  const two = (await s.store.get(2, PERSON)).record;
  const seen = approvalMark(two.title, two.fields, two.state);
  assert.ok((await s.keeper.act('move', { id: 2, state: 'Doing' }, AGENT)).ok);
  const answer = await s.keeper.act('move', { id: 2, state: 'doing', seen }, PERSON);
  assert.ok(answer.ok);
  assert.equal(answer.text, '#2 is already in Doing: nothing moved.');
  assert.equal((answer.data as { stayed?: boolean }).stayed, true);
});
