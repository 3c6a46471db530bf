/**
 * What an agent reads of the store's rules, through the one dispatch every face uses: an
 * approval withdrawn by its change (in its answer, in `get`, in a person's brief), a held record
 * refused naming the holder, a claim's length without a unit, a claim shortened, `ready` and
 * `show` for an agent that may only read, restoring what is not archived, and the summary an
 * agent far behind is told.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore, type Who } from '../../src/store/index.js';
import { createPerform } from '../../src/keeper/perform.js';
import { personWho } from '../../src/keeper/keeper.js';
import { tempDir } from '../helpers/temp.js';

const ann = personWho('Ann');
const bot: Who = { id: 'agent:bot', kind: 'agent', name: 'Bot' };
const spy: Who = { id: 'agent:spy', kind: 'agent', name: 'Spy' };

async function setup(t: TestContext) {
  const clock = { ms: Date.UTC(2026, 0, 15, 12, 0) };
  const store = openStore(join(tempDir(t, 'binder-rules-said-'), 'store'), { now: () => clock.ms });
  t.after(() => store.close());
  await store.createList({ template: 'batches' }, ann);
  await store.grant('batches', 'agent:bot', 'write', ann);
  const bugs: string[] = [];
  t.after(() => assert.deepEqual(bugs, []));
  const perform = createPerform({ store, log: (line) => bugs.push(line) });
  const say = async (op: string, args: Record<string, unknown>, who: Who): Promise<string> => {
    const a = await perform(op, args, who);
    return `${a.ok ? '' : 'refused: '}${a.text}`;
  };
  return { store, clock, say };
}

test('an agent retitling an approved record is told the approval is withdrawn; get and a person\'s brief say why', async (t) => {
  const { say } = await setup(t);
  assert.equal(await say('add', { list: 'batches', title: 'Harmless: fix typo' }, bot), 'Added #1 to batches in Proposed. A person approves it before it passes "Approved".');
  await say('approve', { id: 1 }, ann);
  await say('move', { id: 1, state: 'Doing' }, bot);
  await say('brief', {}, ann);
  assert.equal(await say('edit', { id: 1, title: 'Drop the production database' }, bot),
    'Changed #1: title. Ann had approved it as it was: the approval is withdrawn and it is back in Proposed. '
    + 'A person must approve it again; binder wait 1 returns when one does.');
  assert.equal(await say('move', { id: 1, state: 'Doing' }, bot),
    'refused: #1 is not approved: only a person can let it past "Approved". Ask a person to approve it; binder wait 1 returns when one does.');
  assert.match(await say('get', { id: 1 }, ann), /\n {2}2026-01-15 12:00 approval withdrawn: title changed by Bot, back in Proposed$/m);
  assert.equal(await say('brief', {}, ann), '1 change since you last looked:\n'
    + '#1 Drop the production database: approval withdrawn: title changed by Bot, back in Proposed; a person must approve it again');
});

test('another agent\'s change to a held record is refused naming the holder; a note is not', async (t) => {
  const { store, say } = await setup(t);
  await store.grant('batches', 'agent:spy', 'write', ann);
  await say('add', { list: 'batches', title: 'Work' }, ann);
  await say('take', { id: 1 }, bot);
  await say('brief', {}, bot);
  await say('brief', {}, spy);
  const refused = 'refused: #1 is taken by Bot until 2026-01-15 12:30 UTC (in 30 min): only Bot or a person may change it meanwhile. '
    + 'A note reaches them (binder note 1 TEXT); binder wait 1 returns when it changes, as when it is given back.';
  assert.equal(await say('edit', { id: 1, title: 'Mine' }, spy), refused);
  assert.equal(await say('archive', { id: 1 }, spy), refused);
  assert.equal(await say('note', { id: 1, text: 'may I?' }, spy), 'Noted on #1 (n1).');
  assert.equal(await say('brief', {}, bot), '1 change since you last looked:\n#1 Work: note by Spy: may I?');
  await say('release', { id: 1 }, bot);
  assert.equal(await say('brief', {}, spy), '1 change since you last looked:\n#1 Work: given back by Bot; it is free');
});

test('take: a length without a unit is refused with examples; a claim shortened says so', async (t) => {
  const { say } = await setup(t);
  await say('add', { list: 'batches', title: 'Work' }, ann);
  await say('approve', { id: 1 }, ann);
  for (const given of ['30', ' 30 ', 30, '1.5']) {
    assert.equal(await say('take', { id: 1, for: given }, bot), `refused: "${String(given).trim()}" has no unit: give --for as 30m, 2h, 1d or 45s.`);
  }
  assert.equal(await say('take', { id: 1, for: '1d' }, bot),
    'You hold #1 Work (batches, Proposed) for 24h, until 2026-01-16 12:00 UTC. When done: binder release 1; to keep it longer: binder take 1.');
  assert.equal(await say('take', { id: 1, for: '5s' }, bot),
    'You hold #1 Work (batches, Proposed) for 5s from now, until 2026-01-15 12:00 UTC: sooner than before (it was until 2026-01-16 12:00 UTC). '
    + 'To keep it longer: binder take 1 --for 1d; when done: binder release 1.');
  assert.equal(await say('take', { id: 1, for: '2h' }, bot),
    'You hold #1 Work (batches, Proposed) for 2h from now, until 2026-01-15 14:00 UTC (it was until 2026-01-15 12:00 UTC). '
    + 'When done: binder release 1; to keep it longer: binder take 1.');
});

test('an agent that may only read is told so by ready, and show never advises it to add', async (t) => {
  const { store, say } = await setup(t);
  await store.grant('batches', 'agent:spy', 'read', ann);
  assert.equal(await say('ready', {}, spy), 'You may only read batches: nothing there is yours to start (a person can give you write access).');
  assert.equal(await say('ready', { list: 'batches' }, spy), 'refused: You may only read "Batches": ask a person to give you write access to it.');
  assert.doesNotMatch(await say('show', { list: 'batches' }, spy), /binder add/);
  assert.match(await say('show', { list: 'batches' }, bot), /Empty\. Add one: binder add batches TITLE/);
  const nothing = { id: 'agent:nothing', kind: 'agent', name: 'Nothing' } as const;
  assert.match(await say('ready', {}, nothing), /^You may change no list/);
  await store.createList({ template: 'tasks' }, ann);
  await store.grant('tasks', 'agent:bot', 'read', ann);
  assert.equal(await say('ready', {}, bot), 'Nothing is ready for you now: what is left waits for a person\'s approval or on other records, is taken, or is done. '
    + 'To wait until something changes: binder wait.\nYou may only read tasks: nothing there is yours to start (a person can give you write access).');
});

test('restore of a record that is not archived, and archive of an archived one, say so', async (t) => {
  const { say } = await setup(t);
  await say('add', { list: 'batches', title: 'Work' }, bot);
  assert.equal(await say('restore', { id: 1 }, bot), 'refused: #1 is not archived: there is nothing to restore.');
  assert.equal(await say('archive', { id: 1 }, bot), 'Archived #1; binder restore 1 brings it back.');
  assert.equal(await say('archive', { id: 1 }, bot), 'refused: #1 is archived already: binder restore 1 brings it back.');
  assert.equal(await say('restore', { id: 1 }, bot), 'Restored #1.');
});

test('an agent far behind is told a summary and the latest few, once', async (t) => {
  const { store, say } = await setup(t);
  for (let i = 1; i <= 60; i++) await store.add('batches', { title: `r${i}` }, ann);
  for (let i = 1; i <= 3; i++) await store.approve(i, true, ann);
  const text = await say('brief', {}, bot);
  assert.equal(text.split('\n').slice(0, 3).join('\n'),
    '63 changes since you last looked, too many to tell one by one; in short (your place is now the latest change):\n'
    + 'batches: 63 (60 added, 3 approved)\nThe latest 10:');
  assert.equal(text.split('\n').at(-2), '#3 r3: approved by Ann');
  assert.equal(text.split('\n').length, 3 + 10 + 1);
  assert.equal(await say('brief', {}, bot), 'Nothing changed since you last looked. To wait until something does: binder wait.');
});
