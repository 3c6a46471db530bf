/**
 * Webhooks in the store: an admin's alone to make, list, remove and try; a URL that would carry
 * records in the clear is refused; the secret is returned once and never listed nor written in
 * the history; the events are read from the history, of the hook's list alone; the deliveries
 * are tried one at a time per record, in order, again after a failure, and given up on after a
 * day. On both engines.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ann, bot, eachStore, fresh, refusal, withBatches } from './helpers.js';
import type { Who } from '../../src/store/index.js';

const bodyOf = (d: { body: string }): Record<string, unknown> => JSON.parse(d.body) as Record<string, unknown>;

eachStore('an admin makes a hook whose secret is shown once; an agent can do nothing with hooks', async (t) => {
  const f = await withBatches();
  t.after(() => f.done());
  const made = await f.store.addHook({ url: 'https://example.com/hook', events: 'proposed,approved', list: 'Batches' }, ann);
  assert.match(made.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  assert.match(made.id, /^hook_[A-Za-z0-9_-]{8}$/);
  assert.deepEqual([made.url, made.events, made.list, made.by], ['https://example.com/hook', ['proposed', 'approved'], 'batches', 'Ann']);
  const listed = await f.store.hooks(ann);
  assert.equal(listed.length, 1);
  assert.ok(!JSON.stringify(listed).includes(made.secret), 'hook list never shows the secret');
  assert.ok(!JSON.stringify((await f.store.brief(ann, { peek: true }))).includes(made.secret));
  for (const tried of [
    () => f.store.hooks(bot), () => f.store.addHook({ url: 'https://evil.example/x' }, bot),
    () => f.store.removeHook(made.id, bot), () => f.store.testHook(made.id, bot),
  ]) assert.match(await refusal(tried), /Only a person can/);
  assert.equal((await f.store.hooks(ann)).length, 1, 'nothing changed');
  const removed = await f.store.removeHook(made.id, ann);
  assert.equal(removed.id, made.id);
  assert.deepEqual(await f.store.hooks(ann), []);
});

eachStore('a hook URL is https, or http on this machine; anything else is refused with a sentence', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  for (const url of ['https://hooks.example.com/binder', 'http://127.0.0.1:8080/h', 'http://localhost/h', 'http://[::1]:9/h']) {
    assert.equal((await f.store.addHook({ url }, ann)).url, new URL(url).href);
  }
  assert.match(await refusal(() => f.store.addHook({ url: 'http://hooks.example.com/binder' }, ann)), /https:\/\/ URL, or at http:\/\/ on this machine/);
  assert.match(await refusal(() => f.store.addHook({ url: 'http://10.0.0.5/h' }, ann)), /in the clear/);
  assert.match(await refusal(() => f.store.addHook({ url: 'file:///etc/passwd' }, ann)), /https:\/\//);
  assert.match(await refusal(() => f.store.addHook({ url: 'https://user:pw@hooks.example.com/' }, ann)), /no user or password/);
  assert.match(await refusal(() => f.store.addHook({ url: 'https://a.example/\u001b[31m' }, ann)), /no space/);
  assert.match(await refusal(() => f.store.addHook({ url: 'not a url' }, ann)), /no space/);
  assert.match(await refusal(() => f.store.addHook({ url: 'https://a.example/', events: 'proposed,deleted' }, ann)), /not of "deleted"/);
  assert.match(await refusal(() => f.store.addHook({ url: 'https://a.example/', list: 'Nope' }, ann)), /Nope/);
  assert.equal((await f.store.hooks(ann)).length, 4, 'nothing was made by a refusal');
});

eachStore('a member of a signed-in binder cannot make a hook: an admin\'s alone', async (t) => {
  const f = await fresh(undefined, { signedIn: true });
  t.after(() => f.done());
  const admin: Who = { id: 'person:idp.test/ann', kind: 'person', name: 'Ann', email: 'ann@acme.test' };
  const member: Who = { id: 'person:idp.test/bob', kind: 'person', name: 'Bob', email: 'bob@acme.test' };
  await f.store.signIn(admin);
  await f.store.signIn(member);
  assert.match(await refusal(() => f.store.addHook({ url: 'https://a.example/' }, member)), /admin/i);
  assert.match(await refusal(() => f.store.hooks(member)), /admin/i);
  assert.equal((await f.store.addHook({ url: 'https://a.example/' }, admin)).by, 'Ann');
});

eachStore('events are read from the history: each asked-for event of the hook\'s list, in order, nothing of another list', async (t) => {
  const f = await withBatches();
  t.after(() => f.done());
  await f.store.createList({ template: 'tasks' }, ann);
  await f.store.grant('tasks', 'agent:bot', 'write', ann);
  const before = await f.store.add('batches', { title: 'Made before the hook' }, bot);
  const all = await f.store.addHook({ url: 'https://a.example/all', list: 'batches' }, ann);
  const few = await f.store.addHook({ url: 'https://a.example/few', events: ['approved'] }, ann);
  const id = (await f.store.add('batches', { title: 'Dark mode' }, bot)).id;
  await f.store.approve(id, true, ann);
  await f.store.move(id, 'Doing', bot);
  await f.store.note(id, 'the login page first', bot);
  await f.store.take(id, bot);
  await f.store.add('batches', { title: 'A person\'s own' }, ann);
  const other = (await f.store.add('tasks', { title: 'Secret plan of another list' }, bot)).id;
  await f.store.move(other, 'Doing', bot);
  await f.store.note(before.id, 'on the old one', bot);
  assert.deepEqual(await f.store.queueHookEvents(), { queued: 7, more: false });
  assert.deepEqual(await f.store.queueHookEvents(), { queued: 0, more: false }, 'each event is queued once');
  const due = await f.store.deliveriesDue(50, 10_000);
  const of = (hook: string) => due.filter((d) => d.hook === hook);
  // One at a time per record: the first of each record's queue.
  assert.deepEqual(of(all.id).map((d) => [d.event, bodyOf(d).record]), [
    ['proposed', { id, title: 'Dark mode', state: 'Doing', due: null }],
    ['noted', { id: before.id, title: 'Made before the hook', state: 'Proposed', due: null }],
  ]);
  assert.deepEqual(of(few.id).map((d) => d.event), ['approved']);
  assert.ok(!JSON.stringify(due).includes('Secret plan'), 'nothing of a list the hook was not made for (nor of one no hook asked for)');
  const first = of(all.id)[0]!;
  assert.equal(bodyOf(first).id, first.id, 'the body carries the delivery\'s id');
  assert.deepEqual(bodyOf(first).by, { kind: 'agent', name: 'Bot' });
  for (const d of due) await f.store.deliveryTried(d.id, { delivered: true, status: 200, error: null });
  f.clock.ms += 1;
  const rest: string[] = [];
  for (;;) {
    const next = await f.store.deliveriesDue(50, 10_000);
    if (!next.length) break;
    for (const d of next) {
      if (d.hook === all.id && bodyOf(d).record && (bodyOf(d).record as { id: number }).id === id) rest.push(d.event);
      await f.store.deliveryTried(d.id, { delivered: true, status: 204, error: null });
    }
  }
  assert.deepEqual(rest, ['approved', 'moved', 'noted', 'claimed'], 'in the order they happened');
  const noted = (await f.store.hooks(ann)).find((h) => h.id === all.id)!;
  assert.equal(noted.waiting, 0);
  assert.equal(noted.last?.status, 204);
});

eachStore('the keeper\'s one look after changes says a hook is behind the history, and when a delivery is next due', async (t) => {
  const f = await withBatches();
  t.after(() => f.done());
  const id = (await f.store.add('batches', { title: 'Before any hook' }, bot)).id;
  assert.deepEqual(await f.store.hookWork(), { behind: false, next: null }, 'no hook: nothing to do');
  await f.store.addHook({ url: 'https://a.example/h', events: 'noted' }, ann);
  assert.deepEqual(await f.store.hookWork(), { behind: true, next: null }, 'the hook\'s own history row is after what it was told');
  assert.deepEqual(await f.store.queueHookEvents(), { queued: 0, more: false }, 'which is no event for it');
  assert.deepEqual(await f.store.hookWork(), { behind: false, next: null });
  await f.store.note(id, 'first', bot);
  assert.deepEqual(await f.store.hookWork(), { behind: true, next: null });
  await f.store.queueHookEvents();
  assert.deepEqual(await f.store.hookWork(), { behind: false, next: f.clock.ms }, 'its delivery is due now');
  assert.equal(await f.store.nextDeliveryAt(), f.clock.ms, 'as nextDeliveryAt says');
});

eachStore('a failed try is tried again later, the record\'s next delivery waits behind it, and after a day it is given up on', async (t) => {
  const f = await withBatches();
  t.after(() => f.done());
  const hook = await f.store.addHook({ url: 'https://a.example/h', events: 'noted' }, ann);
  const id = (await f.store.add('batches', { title: 'One' }, bot)).id;
  await f.store.note(id, 'first', bot);
  await f.store.note(id, 'second', bot);
  await f.store.queueHookEvents();
  const [first] = await f.store.deliveriesDue(10, 10_000);
  assert.equal((bodyOf(first!).note as { text: string }).text, 'first');
  assert.deepEqual(await f.store.deliveriesDue(10, 10_000), [], 'being sent: another keeper leaves it, and the second waits behind it');
  await f.store.deliveryTried(first!.id, { delivered: false, status: 500, error: 'HTTP 500: \u001b[31mboom\u0007 and more' });
  let listed = (await f.store.hooks(ann))[0]!;
  assert.deepEqual([listed.last?.status, listed.last?.error, listed.waiting], [500, 'HTTP 500: [31mboom and more', 2]);
  assert.deepEqual(await f.store.deliveriesDue(10, 10_000), [], 'not before its backoff');
  f.clock.ms += 1_000;
  const again = await f.store.deliveriesDue(10, 10_000);
  assert.deepEqual(again.map((d) => d.id), [first!.id], 'the same delivery, with the same id, first still');
  // It fails for a day: given up on, and the record's next delivery goes.
  let tries = 0;
  await f.store.deliveryTried(first!.id, { delivered: false, status: null, error: 'connection refused' });
  for (;;) {
    const listedNow = (await f.store.hooks(ann))[0]!;
    if (listedNow.givenUp) break;
    f.clock.ms = Math.max(f.clock.ms, (await f.store.nextDeliveryAt())!);
    const d = await f.store.deliveriesDue(10, 10_000);
    assert.deepEqual(d.map((x) => x.id), [first!.id], 'the second waits behind the first all day');
    await f.store.deliveryTried(first!.id, { delivered: false, status: null, error: 'connection refused' });
    tries++;
    assert.ok(tries < 100);
  }
  assert.ok(f.clock.ms - Date.UTC(2026, 0, 15, 12, 0) > 22 * 3_600_000, 'tried for about a day');
  listed = (await f.store.hooks(ann))[0]!;
  assert.equal(listed.givenUp, 1);
  const next = await f.store.deliveriesDue(10, 10_000);
  assert.deepEqual(next.map((d) => (bodyOf(d).note as { text: string }).text), ['second']);
  assert.equal(next[0]!.hook, hook.id);
});

eachStore('a test delivery is kept for the hook, and a removed hook\'s deliveries go with it', async (t) => {
  const f = await fresh();
  t.after(() => f.done());
  const hook = await f.store.addHook({ url: 'https://a.example/h' }, ann);
  const made = await f.store.testHook(hook.id, ann);
  const [d] = await f.store.deliveriesDue(10, 10_000);
  assert.deepEqual([d!.id, d!.event, bodyOf(d!).hook], [made.delivery, 'test', hook.id]);
  assert.match(await refusal(() => f.store.testHook('hook_nothere', ann)), /No hook "hook_nothere"/);
  await f.store.removeHook(hook.id, ann);
  assert.equal(await f.store.nextDeliveryAt(), null);
});

eachStore('a deleted record is told no more: its deliveries waiting are dropped, and a sent one keeps none of its words', async (t) => {
  const f = await withBatches();
  t.after(() => f.done());
  await f.store.addHook({ url: 'https://a.example/h', events: 'noted' }, ann);
  const kept = (await f.store.add('batches', { title: 'Kept' }, bot)).id;
  const gone = (await f.store.add('batches', { title: 'Gone' }, bot)).id;
  await f.store.note(kept, 'a word to keep', bot);
  await f.store.note(gone, 'private words', bot);
  await f.store.note(gone, 'more private words', bot);
  await f.store.queueHookEvents();
  const due = await f.store.deliveriesDue(10, 10_000);
  assert.equal(due.length, 2);
  for (const d of due) await f.store.deliveryTried(d.id, { delivered: true, status: 200, error: null });
  await f.store.delete(gone, ann);
  assert.equal(await f.store.nextDeliveryAt(), null, 'the second note of the deleted record is told no more');
  assert.equal((await f.store.hooks(ann))[0]!.waiting, 0);
  if (f.engine === 'sqlite') {
    await f.store.checkpoint();
    const bytes = readFileSync(join(f.dir, 'store', 'binder.db')).toString('latin1');
    assert.ok(!bytes.includes('private words'), 'no delivery keeps the deleted record\'s words');
  }
});

eachStore('a hook made for a list goes with the list: a new list of the same name is not its', async (t) => {
  const f = await withBatches();
  t.after(() => f.done());
  await f.store.addHook({ url: 'https://a.example/batches', list: 'Batches' }, ann);
  const every = await f.store.addHook({ url: 'https://a.example/all' }, ann);
  await f.store.deleteList('batches', ann);
  assert.deepEqual((await f.store.hooks(ann)).map((h) => h.id), [every.id]);
  await f.store.createList({ template: 'batches' }, ann);
  await f.store.grant('batches', 'agent:bot', 'write', ann);
  await f.store.add('batches', { title: 'In the new Batches' }, bot);
  await f.store.queueHookEvents();
  assert.deepEqual((await f.store.deliveriesDue(10, 10_000)).map((d) => d.hook), [every.id]);
});

eachStore('the delivery log: each hook\'s latest deliveries, newest first, as many as asked and no more, with how each went and never a body', async (t) => {
  const f = await withBatches();
  t.after(() => f.done());
  const hook = await f.store.addHook({ url: 'https://a.example/h', events: 'noted' }, ann);
  const id = (await f.store.add('batches', { title: 'One' }, bot)).id;
  for (const text of ['first', 'second', 'third']) await f.store.note(id, `the ${text} private words`, bot);
  const test = await f.store.testHook(hook.id, ann);
  await f.store.queueHookEvents();
  const first = (await f.store.deliveriesDue(10, 10_000)).find((d) => d.event === 'noted');
  await f.store.deliveryTried(first!.id, { delivered: false, status: 500, error: 'HTTP 500: down' });
  assert.equal((await f.store.hooks(ann))[0]!.recent, undefined, 'none unless asked');

  let log = (await f.store.hooks(ann, { recent: 2 }))[0]!.recent!;
  assert.equal(log.length, 2, 'as many as asked');
  log = (await f.store.hooks(ann, { recent: 10 }))[0]!.recent!;
  assert.deepEqual(log.map((d) => [d.event, d.record]), [['noted', id], ['noted', id], ['noted', id], ['test', null]], 'newest first; a test of no record');
  assert.equal(log[3]!.id, test.delivery);
  const tried = log.find((d) => d.id === first!.id)!;
  assert.deepEqual([tried.outcome, tried.status, tried.error, tried.tries], ['waiting', 500, 'HTTP 500: down', 1]);
  assert.ok(!JSON.stringify(log).includes('private words'), 'never a body');

  f.clock.ms += 1_000;
  await f.store.deliveriesDue(10, 10_000);
  await f.store.deliveryTried(first!.id, { delivered: true, status: 200, error: null });
  const sent = (await f.store.hooks(ann, { recent: 10 }))[0]!.recent!.find((d) => d.id === first!.id)!;
  assert.deepEqual([sent.outcome, sent.status, sent.error, sent.tries], ['sent', 200, null, 2]);
  assert.equal(sent.at, new Date(f.clock.ms).toISOString(), 'when it was last tried');
  assert.equal((await f.store.hooks(ann, { recent: 1_000 }))[0]!.recent!.length, 4, 'a large ask is capped, not refused');
  assert.match(await refusal(() => f.store.hooks(bot, { recent: 10 })), /Only a person can/, 'an agent reads no log');
});
