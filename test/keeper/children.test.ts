/**
 * Records under records through a real keeper and a real folder: what an agent reads for `add`
 * and `edit` with a parent, `get` on the parent and on the child, and the refusals said.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { askKeeper, type AskOutcome } from '../../src/agent/ask.js';
import { createKeeper, personWho } from '../../src/keeper/keeper.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../helpers/temp.js';

const ann = personWho('Ann');
const text = (o: AskOutcome): string => (o.outcome === 'answered' ? `${o.ok ? '' : 'refused: '}${o.text}` : `${o.outcome}: ${o.text}`);

test('records under records through the keeper: add and edit with a parent, and what get says both ways', async (t) => {
  const root = tempDir(t, 'binder-children-');
  const store = openStore(join(root, 'store'));
  await store.createList({ template: 'tasks' }, ann);
  await store.createList({ template: 'blank', title: 'Site' }, ann);
  const dir = join(root, 'claude', '.binder');
  mkdirSync(dir, { recursive: true });
  await store.addSide(dir, 'Claude', ann);
  await store.grant('tasks', 'Claude', 'write', ann);
  await store.grant('site', 'Claude', 'write', ann);
  const keeper = createKeeper({ store, log: () => {} });
  await keeper.start();
  t.after(async () => {
    await keeper.close();
    await store.close();
  });
  const ask = async (op: string, args: Record<string, unknown> = {}) => text(await askKeeper(dir, op, args, { waitMs: 10_000 }));

  await ask('add', { list: 'tasks', title: 'Epic' });
  assert.match(await ask('add', { list: 'tasks', title: 'Build', parent: '1' }), /^Added #2 to tasks/);
  await ask('add', { list: 'site', title: 'Page', parent: '#1' });
  await ask('add', { list: 'tasks', title: 'Ship' });
  assert.equal(await ask('edit', { id: '4', parent: '1' }), 'Changed #4: parent.');
  await store.move(3, 'Done', ann);

  assert.match(await ask('get', { id: '1' }), /^#1 Epic\nlist tasks; state To do\nunder it: #2 \(To do\), #3 \(Done\), #4 \(To do\): 1 of 3 done\n/);
  assert.match(await ask('get', { id: '2' }), /^#2 Build\nlist tasks; state To do\nunder #1 \(To do\) Epic\n/);
  assert.match(await ask('edit', { id: '1', parent: '4' }), /^refused: #1 cannot go under #4: #4 under #1, so it would lie under itself\./);
  assert.match(await ask('move', { id: '1', state: 'Done' }), /^refused: #1 cannot be done while records under it are not: #2, #4\./);
  assert.equal(await ask('edit', { id: '4', parent: 'none' }), 'Changed #4: parent.');
  assert.doesNotMatch(await ask('get', { id: '4' }), /under/);

  // Where the list says children first, ready --blocked names the parent and the children it waits on.
  await ask('edit', { id: '4', parent: '1' });
  await ask('needs', { id: '4', others: '2' });
  assert.equal(await ask('ready', { list: 'tasks', blocked: true }), [
    'tasks: 1 record waits on others:',
    '  #4 Ship waits on #2 Build (To do)',
    'A record is ready once every record it needs is in its list\'s last state.',
  ].join('\n'));
  await store.editList('tasks', { childrenFirst: true }, ann);
  assert.equal(await ask('ready', { list: 'tasks', blocked: true }), [
    'tasks: 2 records wait on others:',
    '  #1 Epic waits on its children #2, #4',
    '  #4 Ship waits on #2 Build (To do)',
    'A record is ready once every record it needs is in its list\'s last state, and, where its list says children first, every record under it.',
  ].join('\n'));
  assert.doesNotMatch(await ask('ready', { list: 'tasks' }), /#1 Epic/);
});
