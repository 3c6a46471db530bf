/**
 * Records that wait on others, through a real keeper and real folders: what an agent reads for
 * `needs`, `get` and `ready --blocked`, and a held wait woken when the last record its record
 * needed is done by another agent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { askKeeper, type AskOutcome } from '../../src/agent/ask.js';
import { createKeeper, personWho } from '../../src/keeper/keeper.js';
import { openStore } from '../../src/store/index.js';
import { tempDir, until, inOrder } from '../helpers/temp.js';

const ann = personWho('Ann');
const text = (o: AskOutcome): string => (o.outcome === 'answered' ? `${o.ok ? '' : 'refused: '}${o.text}` : `${o.outcome}: ${o.text}`);

test('needs through the keeper: the words an agent reads, and a wait woken when its record waits on nothing more', async (t) => {
  const root = tempDir(t, 'binder-needs-');
  const store = openStore(join(root, 'store'));
  await store.createList({ template: 'tasks' }, ann);
  await store.createList({ template: 'blank', title: 'Site' }, ann);
  const dirs = await inOrder(['Claude', 'Other'], async (name) => {
    const dir = join(root, name.toLowerCase(), '.binder');
    mkdirSync(dir, { recursive: true });
    await store.addSide(dir, name, ann);
    await store.grant('tasks', name, 'write', ann);
    await store.grant('site', name, 'write', ann);
    return dir;
  });
  const keeper = createKeeper({ store, log: () => {} });
  await keeper.start();
  t.after(async () => {
    await keeper.close();
    await store.close();
  });
  const [claude, other] = dirs as [string, string];
  const ask = (dir: string, op: string, args: Record<string, unknown> = {}) => askKeeper(dir, op, args, { waitMs: 10_000 });

  await ask(claude, 'add', { list: 'tasks', title: 'Build' });
  await ask(claude, 'add', { list: 'site', title: 'Page' });
  await ask(claude, 'add', { list: 'tasks', title: 'Ship' });
  assert.equal(text(await ask(claude, 'needs', { id: '3', others: '1 #2' })),
    '#3 needs #1 (To do), #2 (To do). Until those 2 are done, it is left out of binder ready.');
  assert.equal(text(await ask(claude, 'needs', { id: '1', others: '3' })),
    'refused: #1 cannot need #3: that would close a circle (#1 needs #3, #3 needs #1), and none of them could ever start. '
    + 'Take one of those needs away first: binder needs 3 1 --remove.');
  assert.match(text(await ask(claude, 'get', { id: '3' })), /^#3 Ship\nlist tasks; state To do\nneeds #1 \(To do\), #2 \(To do\); not ready until #1, #2 are done\n/);
  assert.match(text(await ask(claude, 'get', { id: '1' })), /\nneeded by #3 \(To do\)\n/);
  assert.match(text(await ask(claude, 'show', { list: 'tasks' })), /#3 Ship \(waits on 2 records\)/);
  assert.equal(text(await ask(claude, 'ready', { blocked: true })), [
    'tasks: 1 record waits on others:',
    '  #3 Ship waits on #1 Build (To do), #2 Page (To do)',
    'A record is ready once every record it needs is in its list\'s last state.',
  ].join('\n'));
  assert.doesNotMatch(text(await ask(claude, 'ready', { list: 'tasks' })), /#3/);

  // Claude takes #3 (by its number) and waits; the other agent finishes what it needed.
  assert.match(text(await ask(claude, 'take', { id: '3' })), /^You hold #3 .* It still waits on 2 records not done \(binder get 3\)\.$/);
  await ask(claude, 'brief');
  const waiting = ask(claude, 'wait', { on: '3', timeout: '30s' });
  await until(() => (store.db.prepare('SELECT count(*) FROM waits').pluck().get() as number) === 1, 5_000, 'the held wait');
  assert.match(text(await ask(other, 'move', { id: '1', state: 'Done' })), /now in Done/);
  assert.match(text(await ask(other, 'move', { id: '2', state: 'Done' })), /now in Done/);
  const woke = text(await waiting);
  assert.match(woke, /#3 Ship \(tasks\): waits on nothing more \(the last it needed: #2\); it may start/);
  assert.equal(text(await ask(other, 'brief')).includes('waits on nothing more'), false, 'the other agent holds nothing of it');
});

test('needs through the keeper: a record it needed in a list hidden from the agent is not named in its brief', async (t) => {
  const root = tempDir(t, 'binder-needs-');
  const store = openStore(join(root, 'store'));
  await store.createList({ template: 'tasks' }, ann);
  await store.createList({ template: 'blank', title: 'Hidden' }, ann);
  const dir = join(root, 'claude', '.binder');
  mkdirSync(dir, { recursive: true });
  await store.addSide(dir, 'Claude', ann);
  await store.grant('tasks', 'Claude', 'write', ann);
  const keeper = createKeeper({ store, log: () => {} });
  await keeper.start();
  t.after(async () => {
    await keeper.close();
    await store.close();
  });
  const ask = (op: string, args: Record<string, unknown> = {}) => askKeeper(dir, op, args, { waitMs: 10_000 });
  const secret = (await keeper.act('add', { list: 'hidden', title: 'Secret work' }, ann)).data as { id: number };
  await ask('add', { list: 'tasks', title: 'Ship' });
  await keeper.act('needs', { id: '2', others: String(secret.id) }, ann);
  await ask('take', { id: '2' });
  await ask('brief');
  await keeper.act('move', { id: secret.id, state: 'Done' }, ann);
  const told = text(await ask('brief'));
  assert.match(told, /#2 Ship: waits on nothing more \(the last record it needed is done or deleted\); it may start/);
  assert.doesNotMatch(told, new RegExp(`#${secret.id}\\b`));
  assert.match(text(await ask('get', { id: String(secret.id) })), /^refused: /, 'get hides it as well');
});
