/**
 * Webhooks end to end: `binder admin hook add` prints a secret once; a keeper POSTs each event
 * to a real HTTP receiver, which checks the signature as docs/hooks.md says; deliveries of one
 * record come in order, one answered 500 comes again (the same id) before the next, one left
 * hanging by a keeper killed mid-try comes again from the next keeper; nothing of a list the
 * hook was not made for arrives; a redirect is not followed; `hook list` says the last status
 * and a receiver's answer plainly; on PostgreSQL two keepers send each delivery once.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { createKeeper, agentWho, personWho } from '../../src/keeper/keeper.js';
import type { Keeper } from '../../src/keeper/keeper-types.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { scrubSecrets } from '../../src/keeper/log-line.js';
import { binder, binderAsync, serveKeeper } from '../helpers/processes.js';
import { hookReceiver, type Delivery, type Receiver } from '../helpers/hook-receiver.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { tempDir, until } from '../helpers/temp.js';

const ann = personWho('Ann');
const bot = agentWho('Bot');

/** A binder with Batches (gated) and Tasks, both the agent's to write, and a hook made by `binder admin` for Batches. */
async function binderWithHook(t: TestContext, receiver: Receiver, extra: string[] = ['--list', 'Batches']): Promise<{ store: string; hook: string }> {
  const store = join(tempDir(t), 'store');
  const admin = (...args: string[]) => binder(['admin', '--store', store, '--as', 'Ann', ...args]);
  for (const args of [['create-list', 'Batches', '--template', 'batches'], ['create-list', 'Tasks', '--template', 'tasks'],
    ['grant', 'batches', 'Bot', 'write'], ['grant', 'tasks', 'Bot', 'write']]) assert.equal(admin(...args).code, 0);
  const made = await binderAsync(['admin', '--store', store, '--as', 'Ann', 'hook', 'add', receiver.url, ...extra]);
  assert.equal(made.code, 0, made.err);
  const [secret, said] = made.out.split('\n');
  assert.match(secret!, /^whsec_[A-Za-z0-9_-]{43}$/);
  assert.match(said!, /shown this once/);
  receiver.secret = secret!;
  const listed = binder(['admin', '--store', store, '--as', 'Ann', 'hook', 'list']);
  assert.ok(!listed.out.includes(secret!), 'hook list never shows the secret');
  return { store, hook: /hook_[A-Za-z0-9_-]{8}/.exec(listed.out)![0] };
}

function keeperOn(t: TestContext, store: string, logged: string[] = []): Keeper {
  const keeper = createKeeper({ store, sides: [], log: (line) => { logged.push(line); } });
  t.after(() => keeper.close());
  return keeper;
}

/** The deliveries that were answered 2xx, once each, in the order they came. */
const delivered = (got: readonly Delivery[]): Delivery[] => got.filter((d) => d.answered !== null && d.answered < 300);

test('a keeper delivers each event signed, in order per record, again after a 500, and nothing of another list', { timeout: 60_000 }, async (t) => {
  const receiver = await hookReceiver(t, (_d, n) => (n === 1 ? { status: 500, body: 'down for a moment' } : { status: 200 }));
  const { store } = await binderWithHook(t, receiver);
  const keeper = keeperOn(t, store);
  await keeper.start();
  const s = keeper.store;
  const a = (await s.add('batches', { title: 'Dark mode' }, bot)).id;
  const b = (await s.add('batches', { title: 'Light mode' }, bot)).id;
  await s.note(a, 'the login page first', bot);
  await s.approve(a, true, ann);
  await s.move(a, 'Doing', bot);
  const other = (await s.add('tasks', { title: 'Not for this hook' }, bot)).id;
  await s.note(other, 'nor this', bot);
  await until(() => delivered(receiver.got).length >= 5, 20_000, 'five deliveries');
  assert.ok(receiver.got.every((d) => d.signed), 'every delivery is signed with the secret');
  const ofRecord = (id: number) => receiver.got.filter((d) => (d.body.record as { id: number }).id === id);
  const first = receiver.got[0]!;
  assert.equal(first.answered, 500);
  // The 500's delivery comes again, the same id, before any later one of its record.
  assert.deepEqual(ofRecord(first.body.record === undefined ? -1 : (first.body.record as { id: number }).id).slice(0, 2).map((d) => [d.id, d.answered]),
    [[first.id, 500], [first.id, 200]]);
  assert.deepEqual(delivered(ofRecord(a)).map((d) => d.event), ['proposed', 'noted', 'approved', 'moved']);
  assert.deepEqual(delivered(ofRecord(b)).map((d) => d.event), ['proposed']);
  assert.deepEqual(delivered(ofRecord(a)).map((d) => d.body.id), delivered(ofRecord(a)).map((d) => d.id), 'the body carries its delivery\'s id');
  assert.equal((delivered(ofRecord(a))[1]!.body.note as { text: string }).text, 'the login page first');
  assert.deepEqual(delivered(ofRecord(a))[3]!.body.move, { from: 'Proposed', to: 'Doing' });
  assert.ok(!receiver.got.some((d) => JSON.stringify(d.body).includes('Not for this hook') || (d.body.list as { id: string }).id === 'tasks'),
    'nothing of a list the hook was not made for');
});

test('hook test goes through the keeper; hook list says the last status and the answer, plainly', { timeout: 60_000 }, async (t) => {
  const receiver = await hookReceiver(t, (d) => (d.event === 'test' ? { status: 503, body: 'busy \u001b[2J\u001b]0;owned\u0007 now' } : { status: 200 }));
  const { store, hook } = await binderWithHook(t, receiver, []);
  const logged: string[] = [];
  const keeper = keeperOn(t, store, logged);
  await keeper.start();
  // No agent's face reaches a hook: there is no such verb for an agent.
  for (const op of ['hook-add', 'hook-list', 'hook', 'hooks', 'addHook']) {
    const answer = await keeper.ask(bot, op, { url: receiver.url });
    assert.equal(answer.ok, false, op);
  }
  assert.equal((await keeper.store.hooks(ann)).length, 1, 'no hook was made by an agent');
  assert.ok(!scrubSecrets(`made ${receiver.secret} for the hook`).includes(receiver.secret), 'a secret in a log line is scrubbed');
  const tried = binder(['admin', '--store', store, '--as', 'Ann', 'hook', 'test', hook]);
  assert.equal(tried.code, 0, tried.err);
  await until(() => receiver.got.some((d) => d.event === 'test'), 20_000, 'the test delivery');
  const list = await until(() => {
    const r = binder(['admin', '--store', store, '--as', 'Ann', 'hook', 'list']);
    return /HTTP 503/.test(r.out) ? r.out : '';
  }, 20_000, 'hook list to say the 503');
  assert.match(list, /last: test at .* UTC, HTTP 503 \(HTTP 503: busy \[2J \]0;owned now\); 1 waiting/);
  assert.doesNotMatch(list, /[\u0000-\u0009\u000b-\u001f\u007f]/, 'no control character of the answer reaches the terminal');
  assert.ok(receiver.got.every((d) => d.signed));
  assert.ok(!logged.join('\n').includes(receiver.secret), 'the keeper never logs the secret');
  const gone = binder(['admin', '--store', store, '--as', 'Ann', 'hook', 'remove', hook]);
  assert.equal(gone.code, 0, gone.err);
  assert.match(binder(['admin', '--store', store, '--as', 'Ann', 'hook', 'list']).out, /No webhook/);
  const refused = binder(['admin', '--store', store, '--as', 'Ann', 'hook', 'add', 'http://hooks.example.com/x']);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /Not done: A hook is told at an https:\/\/ URL, or at http:\/\/ on this machine/);
});

test('a redirect is not followed: the delivery is tried again later, and the place it pointed to hears nothing', { timeout: 60_000 }, async (t) => {
  const elsewhere = await hookReceiver(t);
  const receiver = await hookReceiver(t, () => ({ status: 302, headers: { location: elsewhere.url } }));
  const { store } = await binderWithHook(t, receiver);
  const keeper = keeperOn(t, store);
  await keeper.start();
  await keeper.store.add('batches', { title: 'Somewhere' }, bot);
  const list = await until(() => {
    const r = binder(['admin', '--store', store, '--as', 'Ann', 'hook', 'list']);
    return /HTTP 302/.test(r.out) ? r.out : '';
  }, 20_000, 'hook list to say the 302');
  assert.match(list, /a redirect, which is not followed/);
  assert.equal(elsewhere.got.length, 0);
});

test('a keeper killed mid-delivery: the next keeper sends it again (the same id), then the record\'s next, in order', { timeout: 90_000 }, async (t) => {
  let kill: (() => void) | null = null;
  const receiver = await hookReceiver(t, (_d, n) => {
    if (n > 1) return { status: 200 };
    kill?.();
    return 'hang';
  });
  const { store } = await binderWithHook(t, receiver, ['--events', 'noted']);
  const first = await serveKeeper(t, ['--store', store]);
  kill = () => { first.child.kill('SIGKILL'); };
  const admin = (...args: string[]) => binder(['admin', '--store', store, '--as', 'Ann', ...args]);
  assert.equal(admin('add', 'batches', 'Dark mode').code, 0);
  assert.equal(admin('note', '1', 'first note').code, 0);
  assert.equal(admin('note', '1', 'second note').code, 0);
  await until(() => receiver.got.length >= 1, 20_000, 'the first try');
  await until(() => first.child.exitCode !== null || first.child.signalCode !== null, 10_000, 'the keeper to be killed');
  await serveKeeper(t, ['--store', store]);
  await until(() => delivered(receiver.got).length >= 2, 60_000, 'the deliveries after the restart');
  const hung = receiver.got[0]!;
  assert.equal(hung.answered, null);
  const text = (d: Delivery) => (d.body.note as { text: string }).text;
  assert.deepEqual(receiver.got.map((d) => [d.id === hung.id, text(d)]), [[true, 'first note'], [true, 'first note'], [false, 'second note']],
    'the one left hanging again, with its id, then the next');
  assert.ok(receiver.got.every((d) => d.signed));
});

test('two keepers of one PostgreSQL binder send each delivery once, in order', { skip: postgresMissing() ?? false, timeout: 120_000 }, async (t) => {
  const c = await cluster();
  const url = c.database();
  const stores = [await openPostgresStore(url), await openPostgresStore(url)];
  const keepers = stores.map((store) => createKeeper({ store, sides: [], log: () => {} }));
  t.after(async () => {
    for (const k of keepers) await k.close();
    for (const s of stores) await s.close();
    dropDatabase(c, url);
  });
  const receiver = await hookReceiver(t);
  const s = stores[0]!;
  await s.createList({ template: 'batches' }, ann);
  await s.grant('batches', 'Bot', 'write', ann);
  receiver.secret = (await s.addHook({ url: receiver.url, events: 'proposed,noted' }, ann)).secret;
  for (const k of keepers) await k.start();
  const id = (await keepers[0]!.store.add('batches', { title: 'Both keepers' }, bot)).id;
  for (let i = 0; i < 10; i++) await keepers[i % 2]!.store.note(id, `note ${i}`, bot);
  await until(() => receiver.got.length >= 11, 30_000, 'eleven deliveries');
  assert.equal(new Set(receiver.got.map((d) => d.id)).size, receiver.got.length, 'each once');
  assert.deepEqual(receiver.got.map((d) => (d.body.note as { text: string } | undefined)?.text ?? d.event),
    ['proposed', ...Array.from({ length: 10 }, (_, i) => `note ${i}`)]);
  assert.ok(receiver.got.every((d) => d.signed));
});
