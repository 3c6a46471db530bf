/**
 * One table says whose each operation is (src/store/whose.ts): the catalog shows an agent exactly
 * the operations it does not name, and marks an admin's exactly those it marks; the store refuses
 * each of them to an agent that asks it straight, in the table's words, English and French, and
 * changes nothing. On both engines.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ann, bot, eachStore, withBatches } from './helpers.js';
import { OPERATIONS } from '../../src/keeper/operations.js';
import { PERSONS_OPERATIONS, adminWords, type Store } from '../../src/store/index.js';

test('the catalog reads whose each of its operations is from the table, and nothing else', () => {
  const named = new Set(Object.keys(PERSONS_OPERATIONS));
  for (const op of OPERATIONS) {
    assert.equal(op.agents, !named.has(op.name), op.name);
    assert.equal(op.admin === true, PERSONS_OPERATIONS[op.name]?.admin === true, op.name);
    if (!op.agents) assert.equal(op.doing, PERSONS_OPERATIONS[op.name]!.doing.en, op.name);
  }
});

/** Each person's operation the store takes an asker for, asked by `who`. */
const asks = (store: Store, id: number): Record<string, (who: typeof bot) => Promise<unknown>> => ({
  'approve': (who) => store.approve(id, true, who),
  'delete': (who) => store.delete(id, who),
  'edit-note': (who) => store.editNote(id, 1, 'rewritten', who),
  'create-list': (who) => store.createList({ template: 'tasks' }, who),
  'edit-list': (who) => store.editList('batches', { title: 'Renamed' }, who),
  'grant': (who) => store.grant('batches', 'agent:spy', 'write', who),
  'archive-list': (who) => store.archiveList('batches', true, who),
  'delete-list': (who) => store.deleteList('batches', who),
  'side-add': (who) => store.addSide('/tmp/elsewhere/.binder', 'Spy', who),
  'side-remove': (who) => store.removeSide('Bot', who),
  'token-list': (who) => store.tokens(who),
  'token-add': (who) => store.addToken('Bot', {}, who),
  'token-revoke': (who) => store.revokeTokens('Bot', who),
  'people': (who) => store.people(who),
  'set-role': (who) => store.setRole('Ann', 'member', who),
  'remove-person': (who) => store.removePerson('Ann', who),
  'login-link': (who) => store.addLoginLink('Ann', who),
  'sessions': (who) => store.sessions(who),
  'sessions-revoke': (who) => store.revokeSessions('all', who),
  'export': (who) => store.exportBinder(undefined, who, () => {}),
  'import': (who) => store.importBinder({ format: 'csv', lists: [], records: [] } as never, who),
  'hook-list': (who) => store.hooks(who),
  'hook-add': (who) => store.addHook({ url: 'https://example.com/hook' }, who),
  'hook-remove': (who) => store.removeHook('hook_x', who),
  'hook-test': (who) => store.testHook('hook_x', who),
});

/** Asked with no asker at all, so the keeper refuses them to an agent before the store is asked. */
const NO_ASKER = new Set(['templates', 'sides']);

eachStore('the store refuses an agent each operation the table says is a person\'s, in its words, and changes nothing', async (t) => {
  const f = await withBatches();
  t.after(() => f.done());
  const record = await f.store.add('batches', { title: 'Kept', note: 'first' }, ann);
  const tried = asks(f.store, record.id);
  assert.deepEqual(Object.keys(tried).sort(), Object.keys(PERSONS_OPERATIONS).filter((n) => !NO_ASKER.has(n)).sort(), 'each is tried here');
  const before = JSON.stringify([await f.store.lists(ann), await f.store.get(record.id, ann), await f.store.tokens(ann), await f.store.hooks(ann)]);
  for (const [name, ask] of Object.entries(tried)) {
    const whose = PERSONS_OPERATIONS[name]!;
    const refused = await ask(bot).then(() => undefined, (e: unknown) => e);
    assert.ok(refused instanceof Error && refused.name === 'Refused', `${name} was done by an agent`);
    const words = adminWords(name).join(' ');
    assert.equal(refused.message, `Only a person can ${whose.doing.en}: a person does it on their screen or with \`binder admin ${words}\`.`);
    assert.equal((refused as Error & { fr?: string }).fr,
      `Seule une personne peut ${whose.doing.fr} : elle le fait sur son écran (binder tui) ou avec \`binder admin ${words}\`.`);
  }
  const after = JSON.stringify([await f.store.lists(ann), await f.store.get(record.id, ann), await f.store.tokens(ann), await f.store.hooks(ann)]);
  assert.equal(after, before);
});
