import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../src/store/index.js';
import { createPerform } from '../../src/keeper/perform.js';
import { agentWho, personWho } from '../../src/keeper/keeper.js';
import { OPERATIONS } from '../../src/keeper/operations.js';
import { tempDir } from '../helpers/temp.js';

const ann = personWho('ann');
const bot = agentWho('Bot');

async function setup(t: import('node:test').TestContext) {
  const store = openStore(tempDir(t));
  t.after(() => store.close());
  const logged: string[] = [];
  const perform = createPerform({ store, log: (l) => logged.push(l) });
  const ok = async (op: string, args: unknown, who = ann) => {
    const a = await perform(op, args, who, 'json');
    assert.equal(a.ok, true, `${op} should be done: ${a.text}`);
    return a;
  };
  await ok('create-list', { template: 'batches', title: 'Batches' });
  await ok('grant', { list: 'batches', agent: 'Bot', access: 'write' });
  return { store, perform, ok, logged };
}

test('an unknown operation is refused with a sentence, and nothing is done', async (t) => {
  const { perform } = await setup(t);
  const a = await perform('frobnicate', {}, bot);
  assert.equal(a.ok, false);
  assert.match(a.text, /no operation "frobnicate".*--help/);
  const b = await perform('__proto__', {}, bot);
  assert.equal(b.ok, false);
});

test('every person-only operation is refused to an agent whatever it sends, and the binder is unchanged', async (t) => {
  const { perform, ok, store } = await setup(t);
  const added = (await ok('add', { list: 'batches', title: 'Dark mode' }, bot)).data as { id: number };
  const before = JSON.stringify(await store.get(added.id, ann));
  const listsBefore = JSON.stringify(await store.lists(ann, { archived: true }));
  const forged = { by: ann, who: ann, person: 'ann', as: 'ann' };
  for (const spec of OPERATIONS.filter((o) => !o.agents)) {
    const a = await perform(spec.name, { id: added.id, list: 'batches', agent: 'Bot', access: 'write', template: 'blank', note: 1, text: 'x', dir: '/tmp/x', name: 'X', ...forged }, bot);
    assert.equal(a.ok, false, `${spec.name} must be refused to an agent`);
    assert.match(a.text, /Only a person/);
  }
  assert.equal(JSON.stringify(await store.get(added.id, ann)), before);
  assert.equal(JSON.stringify(await store.lists(ann, { archived: true })), listsBefore);
});

test('forged identity fields in the arguments are ignored: the change is the asker\'s', async (t) => {
  const { ok, store } = await setup(t);
  const a = await ok('add', { list: 'batches', title: 'Forged', by: ann, who: ann, person: 'ann' }, bot);
  const view = await store.get((a.data as { id: number }).id, ann);
  assert.equal(view.history[0]?.by.id, bot.id);
  assert.equal(view.record.approved, null);
});

test('wrong argument types get a sentence naming the argument', async (t) => {
  const { perform } = await setup(t);
  const a = await perform('move', { id: 1 }, bot);
  assert.equal(a.ok, false);
  assert.match(a.text, /move needs state/);
  const b = await perform('attach', { id: 1, kind: 'virus', ref: 'x' }, bot);
  assert.match(b.text, /kind must be one of: message, file, asset, branch, link, record/);
  const c = await perform('add', { list: { nested: true }, title: 'x' }, bot);
  assert.equal(c.ok, false);
  const d = await perform('add', 'not an object', bot);
  assert.equal(d.ok, false);
});

test('json is given only when wanted; the text reads the same either way', async (t) => {
  const { perform } = await setup(t);
  const plain = await perform('lists', {}, bot);
  const withData = await perform('lists', {}, bot, 'json');
  assert.equal(plain.text, withData.text);
  assert.equal(plain.data, undefined);
  assert.ok(Array.isArray(withData.data));
});

test('a long list is cut at 50 per state with a line that tells how to see the rest', async (t) => {
  const { ok, perform } = await setup(t);
  for (let i = 1; i <= 60; i++) await ok('add', { list: 'batches', title: `Item ${i}` }, bot);
  const a = await perform('show', { list: 'batches' }, bot);
  const lines = a.text.split('\n');
  assert.equal(lines.filter((l) => /^ {2}#\d+ Item/.test(l)).length, 50);
  assert.match(a.text, /10 more: binder show batches --state Proposed --offset 50/);
  const rest = await perform('show', { list: 'batches', state: 'Proposed', offset: 50 }, bot);
  assert.equal(rest.text.split('\n').filter((l) => /^ {2}#\d+ Item/.test(l)).length, 10);
});

test('the seed\'s argument shapes are understood: owners, due "", archive with restore', async (t) => {
  const { ok, store } = await setup(t);
  const r = (await ok('add', { list: 'batches', title: 'Seed', owners: ['me'], due: '2026-12-01' }, bot)).data as { id: number };
  await ok('edit', { id: String(r.id), due: '', owners: [] }, bot);
  await ok('edit', { id: `#${r.id}`, due: '', owners: [] }, bot);
  assert.equal((await store.get(r.id, ann)).record.due, null);
  await ok('archive', { id: r.id }, bot);
  await ok('archive', { id: r.id, restore: true }, bot);
  assert.equal((await store.get(r.id, ann)).record.archived, false);
});

test('a bug inside an operation becomes a refusal and a log line, never a throw', async (t) => {
  const { store, logged } = await setup(t);
  const broken = { ...store, transaction: () => { throw new TypeError('boom'); } } as typeof store;
  const perform = createPerform({ store: broken, log: (l) => logged.push(l) });
  const a = await perform('lists', {}, bot);
  assert.equal(a.ok, false);
  assert.equal(a.text, 'The keeper failed on lists (its log says why): nothing was changed.');
  assert.ok(logged.some((l) => l.includes('boom')));
});

test('a store another process holds locked past the wait answers "too busy", not a failure of the keeper', async (t) => {
  const dir = tempDir(t);
  const store = openStore(dir);
  t.after(() => store.close());
  const perform = createPerform({ store, log: () => {} });
  assert.equal((await perform('create-list', { template: 'batches', title: 'Batches' }, ann)).ok, true);
  const { default: Database } = await import('better-sqlite3');
  const { join } = await import('node:path');
  const other = new Database(join(dir, 'binder.db'));
  t.after(() => other.close());
  other.exec('BEGIN IMMEDIATE');
  try {
    const a = await perform('add', { list: 'batches', title: 'while locked' }, ann);
    assert.equal(a.ok, false);
    assert.equal(a.refusal, 'busy');
    assert.match(a.text, /too busy to do it now: nothing was done/);
  } finally {
    other.exec('ROLLBACK');
  }
});
