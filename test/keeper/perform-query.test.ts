/**
 * The query language through the one dispatch every face uses: `search` and `show --query` read
 * it, in text and JSON, and a query that cannot be read is refused pointing at its column.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../src/store/index.js';
import { createPerform } from '../../src/keeper/perform.js';
import { agentWho, personWho } from '../../src/keeper/keeper.js';
import { tempDir } from '../helpers/temp.js';

const ann = personWho('ann');
const bot = agentWho('Bot');

test('search and show --query read the query language through the catalog', async (t) => {
  const store = openStore(tempDir(t));
  t.after(() => store.close());
  const perform = createPerform({ store, log: () => {} });
  const ok = async (op: string, args: unknown, who = ann, as: 'json' | 'text' = 'json') => {
    const a = await perform(op, args, who, as === 'json' ? 'json' : undefined);
    assert.equal(a.ok, true, `${op} should be done: ${a.text}`);
    return a;
  };
  await ok('create-list', { template: 'tasks', title: 'Tasks' });
  await ok('grant', { list: 'tasks', agent: 'Bot', access: 'write' });
  const a = (await ok('add', { list: 'tasks', title: 'Dark mode', state: 'Doing', owners: ['me'] }, bot)).data as { id: number };
  const b = (await ok('add', { list: 'tasks', title: 'Dark login page' }, bot)).data as { id: number };

  const found = (await ok('search', { text: 'dark state:Doing owner:me' }, bot)).data as { id: number }[];
  assert.deepEqual(found.map((h) => h.id), [a.id]);
  assert.match((await ok('search', { text: 'dark -state:Doing' }, bot, 'text')).text, /Dark login page/);

  const page = (await ok('show', { list: 'tasks', query: '-owner:me' }, bot)).data as { records: { id: number }[] };
  assert.deepEqual(page.records.map((r) => r.id), [b.id]);
  const shown = (await ok('show', { list: 'tasks', query: '"dark mode"' }, bot, 'text')).text;
  assert.match(shown, /Dark mode/);
  assert.doesNotMatch(shown, /Dark login page/);

  const bad = await perform('search', { text: 'dark colour:red' }, bot);
  assert.equal(bad.ok, false);
  assert.match(bad.text, /column 6: there is no key "colour"; the keys are state, label, owner/);
  assert.match(bad.text, /\n {2}dark colour:red\n {7}\^/);
  const mauvais = await perform('show', { list: 'tasks', query: 'due<bientôt' }, ann, undefined, 'fr');
  assert.match(mauvais.text, /La requête ne se lit pas à la colonne 5 : due prend une date/);
});
