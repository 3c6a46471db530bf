/**
 * Archived lists are a person's view alone: `lists --archived` shows them to a person (`binder
 * admin lists --archived`, the page), no agent's face offers it (`binder`, MCP, REST's catalog),
 * and an agent that asks for it anyway is refused with a sentence, never shown a list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.js';
import { createPerform } from '../../src/keeper/perform.js';
import { agentWho, personWho } from '../../src/keeper/keeper.js';
import { AGENT_OPERATIONS, operation } from '../../src/keeper/operations.js';
import { toolShape } from '../../src/keeper/schemas.js';
import { binder } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const ann = personWho('ann');
const bot = agentWho('Bot');

test('a person sees the archived lists with lists --archived; an agent asking for them is refused', async (t) => {
  const store = openStore(tempDir(t));
  t.after(() => store.close());
  const perform = createPerform({ store, log: () => {} });
  for (const title of ['Batches', 'Shelved']) assert.equal((await perform('create-list', { template: 'batches', title }, ann)).ok, true);
  assert.equal((await perform('grant', { list: 'shelved', agent: 'Bot', access: 'write' }, ann)).ok, true);
  assert.equal((await perform('archive-list', { list: 'shelved' }, ann)).ok, true);

  const live = await perform('lists', {}, ann, 'json');
  assert.deepEqual((live.data as { id: string }[]).map((l) => l.id), ['batches']);
  const all = await perform('lists', { archived: true }, ann, 'json');
  assert.equal(all.ok, true, all.text);
  assert.deepEqual((all.data as { id: string; archived: boolean }[]).map((l) => [l.id, l.archived]), [['batches', false], ['shelved', true]]);
  assert.match(all.text, /shelved: Shelved, 0 records; archived/);

  const asked = await perform('lists', { archived: true }, bot, 'json');
  assert.equal(asked.ok, false);
  assert.equal(asked.text, 'Only a person can see the archived lists: a person does it on their screen or with `binder admin lists --archived`.');
  assert.equal(asked.data, undefined, 'no list in the refusal');
  assert.match((await perform('lists', { archived: true }, bot, undefined, 'fr')).text, /^Seule une personne peut voir les listes archivées/);
});

test('no agent\'s face offers --archived on lists; binder admin does', (t) => {
  const lists = AGENT_OPERATIONS.find((op) => op.name === 'lists')!;
  assert.deepEqual(Object.keys(lists.args), [], 'the agents\' lists takes nothing');
  assert.ok(!('archived' in toolShape(lists)), 'the MCP tool has no archived');
  assert.ok('archived' in operation('lists')!.args, 'the catalog has it, for a person');
  assert.ok(!AGENT_OPERATIONS.some((op) => Object.values(op.args).some((arg) => arg.person)), 'no person\'s argument on any agent\'s verb');

  const store = join(tempDir(t), 'store');
  const admin = (...args: string[]) => binder(['admin', '--store', store, '--as', 'ann', ...args]);
  assert.equal(admin('create-list', 'Shelved', '--template', 'batches').code, 0);
  assert.equal(admin('archive-list', 'shelved').code, 0);
  assert.match(admin('lists').out, /^No list yet/);
  const shown = admin('lists', '--archived');
  assert.equal(shown.code, 0, shown.err);
  assert.match(shown.out, /shelved: Shelved, 0 records; archived/);
  assert.match(admin('lists', '--help').out, /--archived/);
  const agentHelp = binder(['lists', '--help']);
  assert.equal(agentHelp.code, 0);
  assert.doesNotMatch(agentHelp.out, /--archived/);
});
