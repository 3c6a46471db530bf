/**
 * One writer among workers (one-writer.ts, writer-relay.ts), in one process: two keepers of one
 * store stand for a worker and the writer, and the minder's relay passes their messages as the
 * cluster's channel would (a copy each, a turn of the loop later). A worker's changes are made by
 * the writer, its reads by itself; before the writer takes asks they come back and the worker does
 * them; a writer that ends with asks in hand leaves none done twice and none lost.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Worker } from 'node:cluster';
import { createKeeper, personWho } from '../../src/keeper/keeper.js';
import type { Keeper } from '../../src/keeper/keeper-types.js';
import { handingKeeper, takeHandedAsks, type Channel } from '../../src/keeper/one-writer.js';
import { createWriterRelay } from '../../src/keeper/writer-relay.js';
import { STOPPED_TEXT } from '../../src/keeper/direct-asks.js';
import { openStore, type Who } from '../../src/store/index.js';
import { tempDir, until } from '../helpers/temp.js';

const ann = personWho('Ann');
const claude: Who = { id: 'agent:claude', kind: 'agent', name: 'Claude' };

/** A process's end of the channel; what it sends reaches `deliver` a turn later, as a copy. */
class End extends EventEmitter implements Channel {
  connected = true;
  constructor(private readonly deliver: (message: unknown) => void) { super(); }
  send(message: unknown): boolean {
    const copy = structuredClone(message);
    setImmediate(() => { if (this.connected) this.deliver(copy); });
    return true;
  }
}

interface Setup {
  worker: Keeper;
  writerKeeper: Keeper;
  relay: ReturnType<typeof createWriterRelay>;
  writerEnd: End;
  writerWorker: Worker;
  /** Asks the writer's keeper was asked. */
  writerAsked: string[];
  writing(): void;
  notes(): Promise<number>;
}

async function setup(t: TestContext): Promise<Setup> {
  const dir = tempDir(t);
  const seed = openStore(dir);
  await seed.createList({ template: 'batches', title: 'Batches' }, ann);
  await seed.add('batches', { title: 'Noted' }, ann);
  await seed.grant('batches', 'Claude', 'write', ann);
  await seed.close();
  const workerKeeper = createKeeper({ store: dir, sides: [], log: () => {} });
  const writerKeeper = createKeeper({ store: dir, sides: [], log: () => {} });
  t.after(async () => { await workerKeeper.close(); await writerKeeper.close(); });
  const writerAsked: string[] = [];
  const counted: Keeper = { ...writerKeeper, ask: (who, op, args, options) => { writerAsked.push(op); return writerKeeper.ask(who, op, args, options); } };

  const workers = new Map<number, Worker>();
  const relay = createWriterRelay((id) => workers.get(id));
  const fakeWorker = (id: number, end: End): Worker => {
    const w = { id, isConnected: () => end.connected, send: (m: unknown) => { end.emit('message', structuredClone(m)); return true; } } as unknown as Worker;
    workers.set(id, w);
    return w;
  };
  let workerWorker: Worker | null = null;
  let writerWorker: Worker | null = null;
  const workerEnd = new End((m) => relay.message(workerWorker!, m));
  const writerEnd = new End((m) => relay.message(writerWorker!, m));
  workerWorker = fakeWorker(1, workerEnd);
  writerWorker = fakeWorker(2, writerEnd);
  relay.writerIs(writerWorker);
  const taking = takeHandedAsks(counted, writerEnd);
  return {
    worker: handingKeeper(workerKeeper, workerEnd),
    writerKeeper,
    relay,
    writerEnd,
    writerWorker,
    writerAsked,
    writing: () => taking.writing(),
    notes: async () => (await writerKeeper.store.get(1, ann)).counts.notes,
  };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('a worker\'s changes are made by the writer and answered to it; its reads are its own', async (t) => {
  const s = await setup(t);
  s.writing();
  await tick();
  await tick();
  const answers = await Promise.all([
    s.worker.ask(claude, 'note', { id: '1', text: 'first' }, { key: 'k1' }),
    s.worker.ask(claude, 'note', { id: '1', text: 'second' }),
    s.worker.ask(claude, 'get', { id: '1' }),
  ]);
  assert.ok(answers.every((a) => a.ok), JSON.stringify(answers));
  assert.deepEqual(s.writerAsked.sort(), ['note', 'note'], 'the changes went to the writer, the read did not');
  assert.equal(await s.notes(), 2);
  // Asked again with its key, through the writer: answered from the ledger, nothing done again.
  const again = await s.worker.ask(claude, 'note', { id: '1', text: 'first' }, { key: 'k1' });
  assert.equal(again.replayed, true);
  assert.equal(await s.notes(), 2);
  // The writer still checks what an agent may do: a person's operation is refused there.
  const refused = await s.worker.ask(claude, 'delete', { id: '1' });
  assert.equal(refused.ok, false);
  assert.equal(refused.refusal, 'person-only');
});

test('before the writer takes asks, they come back and the worker makes them itself', async (t) => {
  const s = await setup(t);
  const answer = await s.worker.ask(claude, 'note', { id: '1', text: 'early' }, { key: 'early' });
  assert.equal(answer.ok, true, answer.text);
  assert.deepEqual(s.writerAsked, [], 'no writer took it');
  assert.equal(await s.notes(), 1);
});

test('a writer that ends with asks in hand: those with a key are made once by the worker, the others told the keeper stopped', async (t) => {
  const s = await setup(t);
  s.writing();
  await tick();
  await tick();
  // The writer makes them, but its answers never leave it: it ends before they are sent.
  const writerSend = s.writerEnd.send.bind(s.writerEnd);
  s.writerEnd.send = (message: unknown) => ((message as { binder?: string }).binder === 'answers' ? true : writerSend(message));
  const keyed = s.worker.ask(claude, 'note', { id: '1', text: 'keyed' }, { key: 'kept' });
  const unkeyed = s.worker.ask(claude, 'note', { id: '1', text: 'unkeyed' });
  await until(() => s.writerAsked.length >= 2, 5_000, 'the writer to have both');
  assert.equal(s.writerAsked.length, 2, 'the writer had both');
  await until(async () => (await s.notes()) === 2, 5_000, 'the writer to have made both');
  s.writerEnd.connected = false;
  s.relay.ended(s.writerWorker);
  const [k, u] = await Promise.all([keyed, unkeyed]);
  assert.equal(k.ok, true, k.text);
  assert.equal(k.replayed, true, 'the worker asked its key again and was answered from the ledger');
  assert.equal(u.ok, false);
  assert.equal(u.text, STOPPED_TEXT);
  assert.equal(await s.notes(), 2, 'each made once');
  // No writer now: the next change is the worker's own.
  const after = await s.worker.ask(claude, 'note', { id: '1', text: 'after' }, { key: 'after' });
  assert.equal(after.ok, true, after.text);
  assert.equal(s.writerAsked.length, 2);
  assert.equal(await s.notes(), 3);
});
