/**
 * Agents working together through a real keeper and real folders: a wait held until a person
 * approves (through the keeper, and from another process), busy past the cap, a claim lapsing
 * and retaken on the keeper's clock, a claim a person takes away seen in the agent's next brief.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { askKeeper, type AskOutcome } from '../../src/agent/ask.js';
import { createKeeper, personWho } from '../../src/keeper/keeper.js';
import { openStore, type Store } from '../../src/store/index.js';
import { binderAsync } from '../helpers/processes.js';
import { tempDir, until, inOrder } from '../helpers/temp.js';
import { dbOf } from '../helpers/sqlite-db.js';

const ann = personWho('Ann');

interface Setup { root: string; storeDir: string; store: Store; dirs: string[]; clock: { ms: number | null }; keeper: ReturnType<typeof createKeeper> }

/** A store with Batches, `agents` registered folders that may write it, and a started keeper. */
async function setup(t: TestContext, agents: string[], options: { cap?: number } = {}): Promise<Setup> {
  const root = tempDir(t, 'binder-together-');
  const storeDir = join(root, 'store');
  const clock: { ms: number | null } = { ms: null };
  const now = () => clock.ms ?? Date.now();
  const store = openStore(storeDir, { now });
  await store.createList({ template: 'batches' }, ann);
  const dirs = await inOrder(agents, async (name) => {
    const dir = join(root, name.toLowerCase(), '.binder');
    mkdirSync(dir, { recursive: true });
    await store.addSide(dir, name, ann);
    await store.grant('batches', name, 'write', ann);
    return dir;
  });
  // The store's clock (claims) may be moved by a test; the folders' (asks, heartbeats) is the real one.
  const keeper = createKeeper({ store, log: () => {}, ...(options.cap !== undefined ? { waits: options.cap } : {}) });
  await keeper.start();
  t.after(async () => {
    await keeper.close();
    await store.close();
  });
  return { root, storeDir, store, dirs, clock, keeper };
}

const ask = (dir: string, op: string, args: Record<string, unknown> = {}): Promise<AskOutcome> => askKeeper(dir, op, args, { waitMs: 10_000 });
const text = (o: AskOutcome): string => (o.outcome === 'answered' ? `${o.ok ? '' : 'refused: '}${o.text}` : `${o.outcome}: ${o.text}`);
const held = (store: Store): number => dbOf(store).prepare('SELECT count(*) FROM waits').pluck().get() as number;

test('a wait is held until a person approves the record, then says so once; the approval was not the agent\'s own', async (t) => {
  const s = await setup(t, ['Claude']);
  const dir = s.dirs[0]!;
  const added = await ask(dir, 'add', { list: 'batches', title: 'Dark mode' });
  assert.match(text(added), /Added #1/);
  assert.equal(text(await ask(dir, 'brief')), 'Nothing changed since you last looked. To wait until something does: binder wait.', 'its own add is no news');

  const waiting = ask(dir, 'wait', { on: '1', timeout: '30s' });
  await until(() => held(s.store) === 1, 5_000, 'the keeper to hold the wait');
  const t0 = performance.now();
  assert.equal((await s.keeper.act('approve', { id: 1 }, ann)).ok, true);
  const answer = await waiting;
  t.diagnostic(`woken ${(performance.now() - t0).toFixed(1)} ms after the approval (through keeper.act)`);
  assert.equal(text(answer), '1 change since you last looked:\n#1 Dark mode: approved by Ann');
  assert.equal(held(s.store), 0);
  assert.equal(text(await ask(dir, 'brief')), 'Nothing changed since you last looked. To wait until something does: binder wait.', 'shown once');
  const lines = readFileSync(join(dir, 'answers.jsonl'), 'utf8').split('\n').filter((l) => l.includes('approved by Ann'));
  assert.equal(lines.length, 1, 'answered once');
});

test('a wait is woken by binder admin in another process; one on another record is not; a timeout says nothing changed', async (t) => {
  const s = await setup(t, ['Claude']);
  const dir = s.dirs[0]!;
  await s.store.add('batches', { title: 'One' }, ann);
  await s.store.add('batches', { title: 'Two' }, ann);
  await ask(dir, 'brief');
  // Long enough for binder admin's process to start and approve under a loaded machine: ended
  // before it, the wait would rightly say that other changes wait (the approval, not yet taken).
  const onTwo = ask(dir, 'wait', { on: '#2', timeout: '8s' });
  const onOne = ask(dir, 'wait', { on: '1', timeout: '30s' });
  await until(() => held(s.store) === 2, 5_000, 'two waits held');
  const admin = await binderAsync(['admin', '--store', s.storeDir, '--as', 'Bea', 'approve', '1']);
  assert.equal(admin.code, 0, admin.err);
  assert.equal(text(await onOne), '1 change since you last looked:\n#1 One: approved by Bea');
  await until(() => held(s.store) === 1, 5_000, 'the wait on #2 alone held: #1 does not wake it');
  const two = text(await onTwo);
  assert.equal(two, 'Nothing changed on #2 in 8s. To keep waiting: binder wait 2.');
  assert.equal(held(s.store), 0);
});

test('past the cap a wait is answered busy at once; a refused wait is not held', async (t) => {
  const s = await setup(t, ['A1', 'A2', 'A3'], { cap: 2 });
  await s.store.add('batches', { title: 'Work' }, ann);
  for (const dir of s.dirs) await ask(dir, 'brief');
  const first = ask(s.dirs[0]!, 'wait', { timeout: '30s' });
  const second = ask(s.dirs[1]!, 'wait', { timeout: '30s' });
  await until(() => held(s.store) === 2, 5_000, 'two waits held');
  const busy = await ask(s.dirs[2]!, 'wait', { timeout: '30s' });
  assert.match(text(busy), /^refused: Busy: .*try again in a few seconds/);
  assert.match(text(await ask(s.dirs[2]!, 'wait', { on: 'Nowhere' })), /^refused: There is no list "Nowhere"/);
  assert.match(text(await ask(s.dirs[2]!, 'wait', { timeout: '1h' })), /^refused: A wait lasts at most 10m/);
  await s.keeper.act('approve', { id: 1 }, ann);
  assert.match(text(await first), /approved by Ann/);
  assert.match(text(await second), /approved by Ann/);
});

test('a claim lapses on the keeper\'s clock and is retaken; its holder\'s brief says so; a person taking a claim away is seen', async (t) => {
  const s = await setup(t, ['Claude', 'Codex']);
  const [claude, codex] = s.dirs as [string, string];
  await s.store.add('batches', { title: 'Only one' }, ann);
  await s.store.approve(1, true, ann);
  for (const dir of s.dirs) await ask(dir, 'brief');
  s.clock.ms = Date.now();
  assert.match(text(await ask(claude, 'take', { next: 'batches', for: '1m' })), /^You hold #1 Only one \(batches, Proposed\) for 1m, until /);
  assert.match(text(await ask(codex, 'take', { next: 'batches' })), /^refused: Nothing in Batches is ready for you now/);
  assert.match(text(await ask(codex, 'take', { id: '1' })), /^refused: #1 is taken by Claude until .* \(in 1 min\)/);
  assert.match(text(await ask(codex, 'release', { id: '1' })), /^refused: #1 is taken by Claude, not you/);

  s.clock.ms += 2 * 60_000;
  assert.match(text(await ask(codex, 'take', { next: 'batches' })), /^You hold #1/);
  assert.equal(text(await ask(claude, 'brief')), '1 change since you last looked:\n#1 Only one: your claim lapsed; binder take 1 if you still work on it');

  assert.equal((await s.keeper.act('release', { id: 1 }, ann)).ok, true);
  assert.equal(text(await ask(codex, 'brief')),
    "2 changes since you last looked:\n#1 Only one: Claude's claim lapsed; it is free\n#1 Only one: Ann took your claim away");
  assert.match(text(await ask(claude, 'ready', { list: 'batches' })), /^batches: 1 ready \(oldest first\):\n {2}#1 Only one/);
});

test('the keeper frees a lapsed claim on its own, and that wakes its holder\'s wait', { timeout: 30_000 }, async (t) => {
  const s = await setup(t, ['Claude']);
  const dir = s.dirs[0]!;
  await s.store.add('batches', { title: 'Short' }, ann);
  await s.store.approve(1, true, ann);
  await ask(dir, 'brief');
  assert.match(text(await ask(dir, 'take', { id: '1', for: '1s' })), /^You hold #1 Short .* for 1s, until/);
  // No ask touches the claim after this: only the keeper's own pass over lapsed claims can free it.
  const answer = await askKeeper(dir, 'wait', { on: '1', timeout: '20s' }, { waitMs: 10_000 });
  assert.equal(text(answer), '1 change since you last looked:\n#1 Short: your claim lapsed; binder take 1 if you still work on it');
  assert.deepEqual((await s.store.get(1, ann)).record.owners, []);
});
