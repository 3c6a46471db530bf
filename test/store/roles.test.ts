/**
 * People and roles, on both engines: the first person to sign in is the binder's admin (two first
 * sign-ins racing through two store objects make one admin), every admin's operation of the
 * catalog is refused to a member with a sentence and changes nothing, a member does a person's
 * record operations, the last admin is kept, and a removed person is refused while their history
 * stays. The catalog's `admin` word and the store's rule are checked against each other here.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createPerform } from '../../src/keeper/perform.js';
import { AGENT_OPERATIONS, OPERATIONS } from '../../src/keeper/operations.js';
import type { Store, Who } from '../../src/store/index.js';
import { bot, eachStore, fresh, refusal, type Fixture } from './helpers.js';

const ann: Who = { id: 'person:idp.test/ann', kind: 'person', name: 'Ann Lee', email: 'ann@acme.test' };
const bob: Who = { id: 'person:idp.test/bob', kind: 'person', name: 'Bob Ray', email: 'bob@acme.test' };
const cat: Who = { id: 'person:idp.test/cat', kind: 'person', name: 'Cat Poe', email: 'cat@acme.test' };

/** A binder Ann signed in to first (its admin), Bob after (a member), with a list, a folder and a token. */
async function team(): Promise<Fixture> {
  const f = await fresh(undefined, { signedIn: true });
  assert.equal((await f.store.signIn(ann)).role, 'admin');
  assert.equal((await f.store.signIn(bob)).role, 'member');
  await f.store.createList({ template: 'batches' }, ann);
  await f.store.grant('batches', 'agent:bot', 'write', ann);
  const dir = join(f.dir, 'side');
  mkdirSync(dir, { recursive: true });
  // A folder of the server is its operator's to register (binder admin --org), never a signed-in person's.
  await f.store.addSide(dir, 'Bot', { id: 'person:operator', kind: 'person', name: 'operator' });
  await f.store.addToken('Bot', {}, ann);
  return f;
}

/** Everything an admin's operation could change, as the admin sees it. */
async function snapshot(store: Store): Promise<string> {
  return JSON.stringify({
    lists: await store.lists(ann, { archived: true }),
    batches: await store.list('batches', ann),
    sides: await store.sides(),
    tokens: await store.tokens(ann),
    people: await store.people(ann),
  });
}

/** For each admin's operation of the catalog, arguments that an admin would have done. */
const ADMIN_ASKS: Record<string, Record<string, unknown>> = {
  'create-list': { template: 'tasks' },
  'edit-list': { list: 'batches', title: 'Renamed' },
  grant: { list: 'batches', agent: 'Spy', access: 'write' },
  'archive-list': { list: 'batches' },
  'delete-list': { list: 'batches' },
  'side-add': { dir: '/tmp/binder-roles-other', name: 'Other' },
  'side-remove': { name: 'Bot' },
  'token-add': { name: 'Claude' },
  'token-revoke': { token: 'Bot' },
  'set-role': { person: 'bob@acme.test', role: 'admin' },
  'remove-person': { person: 'ann@acme.test' },
};

eachStore('the first person to sign in is the admin; name and e-mail follow the provider', async () => {
  const f = await fresh(undefined, { signedIn: true });
  try {
    const first = await f.store.signIn(ann);
    assert.deepEqual(first, { who: ann, role: 'admin', first: true });
    assert.equal((await f.store.signIn(bob)).role, 'member');
    const again = await f.store.signIn({ ...ann, name: 'Ann Lee-Roy', email: 'ann.lee@acme.test' });
    assert.deepEqual(again, { who: { ...ann, name: 'Ann Lee-Roy', email: 'ann.lee@acme.test' }, role: 'admin', first: false });
    const people = await f.store.people(ann);
    assert.deepEqual(people.map((p) => [p.name, p.email, p.role]), [['Ann Lee-Roy', 'ann.lee@acme.test', 'admin'], ['Bob Ray', 'bob@acme.test', 'member']]);
    // A name with control bytes is kept on one line, without them.
    const odd = await f.store.signIn({ ...cat, name: 'Cat\u001b[31m\nPoe' });
    assert.equal(odd.who.name, 'Cat [31m Poe');
  } finally {
    await f.done();
  }
});

eachStore('two first sign-ins racing through two store objects make one admin', async () => {
  const f = await fresh(undefined, { signedIn: true });
  try {
    const other = await f.reopen();
    const people: Who[] = Array.from({ length: 6 }, (_, i) => ({ id: `person:idp.test/p${i}`, kind: 'person', name: `P${i}` }));
    const roles = await Promise.all(people.map((p, i) => (i % 2 ? other : f.store).signIn(p)));
    assert.equal(roles.filter((r) => r.role === 'admin').length, 1, JSON.stringify(roles));
    assert.equal(roles.filter((r) => r.first).length, 1);
    const listed = await f.store.people(roles.find((r) => r.role === 'admin')!.who);
    assert.equal(listed.length, 6);
    assert.equal(listed.filter((p) => p.role === 'admin').length, 1);
  } finally {
    await f.done();
  }
});

eachStore('every admin operation of the catalog is refused to a member with a sentence, and nothing changes', async () => {
  const f = await team();
  try {
    const perform = createPerform({ store: f.store, log: () => {} });
    const admins = OPERATIONS.filter((o) => 'admin' in o && o.admin).map((o) => o.name).sort();
    assert.deepEqual(admins, Object.keys(ADMIN_ASKS).sort(), 'each admin operation of the catalog is tried here');
    const before = await snapshot(f.store);
    for (const name of admins) {
      const answer = await perform(name, ADMIN_ASKS[name], bob);
      assert.equal(answer.ok, false, `${name} was done by a member`);
      assert.match(answer.text, /^Only an admin of this binder can .+: ask one of its admins to do it\.$/, name);
      assert.equal(answer.refusal, 'access');
      const fr = await perform(name, ADMIN_ASKS[name], bob, undefined, 'fr');
      assert.match(fr.text, /^Seul un administrateur de ce binder peut /, name);
    }
    assert.equal(await snapshot(f.store), before);
    // The same asks are an admin's to do: the refusal was the role's, not the arguments'.
    for (const name of admins.filter((n) => n !== 'delete-list' && n !== 'remove-person' && n !== 'side-add')) {
      const answer = await perform(name, ADMIN_ASKS[name], ann);
      assert.equal(answer.ok, true, `${name} by an admin: ${answer.text}`);
    }
    // A folder of the server: not even a signed-in admin's to name (any organisation's could be it); its operator's.
    const folder = await perform('side-add', ADMIN_ASKS['side-add'], ann);
    assert.equal(folder.ok, false, 'side-add by a signed-in admin');
    assert.match(folder.text, /^Only whoever runs this server can register an agent's folder, from its machine: binder admin --org /);
    assert.equal(folder.refusal, 'access');
    const operator = await perform('side-add', ADMIN_ASKS['side-add'], { id: 'person:operator', kind: 'person', name: 'operator' });
    assert.equal(operator.ok, true, `side-add by the machine's operator: ${operator.text}`);
  } finally {
    await f.done();
  }
});

eachStore('a member does the record operations: approve, move, edit, note, attach, archive, restore, delete, needs', async () => {
  const f = await team();
  try {
    const perform = createPerform({ store: f.store, log: () => {} });
    const ok = async (op: string, args: Record<string, unknown>) => {
      const a = await perform(op, args, bob, 'json');
      assert.equal(a.ok, true, `${op} by a member: ${a.text}`);
      return a.data as { id: number };
    };
    const one = await ok('add', { list: 'batches', title: 'First' });
    const two = await ok('add', { list: 'batches', title: 'Second' });
    await ok('approve', { id: one.id });
    await ok('move', { id: one.id, state: 'Approved' });
    await ok('edit', { id: one.id, title: 'First, edited' });
    await ok('note', { id: one.id, text: 'a member writes' });
    await ok('edit-note', { id: one.id, note: 1, text: 'a member rewrites' });
    await ok('attach', { id: one.id, kind: 'link', ref: 'https://example.test' });
    await ok('detach', { id: one.id, what: 'https://example.test' });
    await ok('needs', { id: two.id, others: String(one.id) });
    await ok('take', { id: two.id });
    await ok('release', { id: two.id });
    await ok('archive', { id: two.id });
    await ok('restore', { id: two.id });
    await ok('delete', { id: two.id });
    for (const op of ['lists', 'show', 'get', 'search', 'ready', 'brief', 'templates', 'sides', 'token-list', 'people']) {
      const args = op === 'show' ? { list: 'batches' } : op === 'get' ? { id: one.id } : op === 'search' ? { text: 'first' } : {};
      await ok(op, args);
    }
    // Every person's operation that is not an admin's is a member's: none of the above was refused.
    const personal = OPERATIONS.filter((o) => !o.agents && !('admin' in o && o.admin)).map((o) => o.name).sort();
    assert.deepEqual(personal, ['approve', 'delete', 'edit-note', 'people', 'sides', 'templates', 'token-list']);
  } finally {
    await f.done();
  }
});

eachStore('the last admin is neither made a member nor removed; another admin may be', async () => {
  const f = await team();
  try {
    const last = 'Ann Lee is this binder\'s last admin, so cannot be made a member: make another person admin first (binder admin set-role PERSON admin).';
    assert.equal(await refusal(() => f.store.setRole('ann@acme.test', 'member', ann)), last);
    assert.equal(await refusal(() => f.store.removePerson('Ann Lee', ann)),
      'Ann Lee is this binder\'s last admin, so cannot be removed: make another person admin first (binder admin set-role PERSON admin).');
    assert.equal((await f.store.setRole('bob@acme.test', 'admin', ann)).role, 'admin');
    assert.equal((await f.store.setRole('ann@acme.test', 'member', bob)).role, 'member');
    assert.equal(await refusal(() => f.store.setRole('bob@acme.test', 'member', bob)),
      'Bob Ray is this binder\'s last admin, so cannot be made a member: make another person admin first (binder admin set-role PERSON admin).');
    assert.deepEqual((await f.store.people(bob)).map((p) => [p.name, p.role]), [['Bob Ray', 'admin'], ['Ann Lee', 'member']]);
    assert.equal(await refusal(() => f.store.setRole('nobody@acme.test', 'admin', bob)),
      'Nobody who signed in to this binder is "nobody@acme.test": binder admin people lists them.');
  } finally {
    await f.done();
  }
});

eachStore('two admins taking each other\'s role at once through two store objects leave one admin', async () => {
  const f = await team();
  try {
    await f.store.setRole('bob@acme.test', 'admin', ann);
    const other = await f.reopen();
    const results = await Promise.allSettled([
      f.store.setRole('bob@acme.test', 'member', ann),
      other.setRole('ann@acme.test', 'member', bob),
    ]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(results));
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    // Refused as the last admin, or (the other change seen first) as no admin any more.
    assert.match(String(refused.reason.message), /last admin|^Only an admin of this binder/);
    const people = await f.store.people({ id: 'person:operator', kind: 'person', name: 'operator' });
    assert.equal(people.filter((p) => p.role === 'admin').length, 1);
  } finally {
    await f.done();
  }
});

eachStore('a removed person is refused everything, sign-in too, and their history stays', async () => {
  const f = await team();
  try {
    const r = await f.store.add('batches', { title: 'Bob\'s record' }, bob);
    await f.store.note(r.id, 'Bob was here', bob);
    const removed = await f.store.removePerson('bob@acme.test', ann);
    assert.ok(removed.removed);
    const sentence = 'You were removed from this binder by one of its admins: ask an admin to let you back in (binder admin set-role).';
    assert.equal(await refusal(() => f.store.lists(bob)), sentence);
    assert.equal(await refusal(() => f.store.note(r.id, 'again', bob)), sentence);
    assert.equal(await refusal(() => f.store.get(r.id, bob)), sentence);
    assert.equal(await refusal(() => f.store.signIn(bob)), sentence);
    const view = await f.store.get(r.id, ann);
    assert.equal(view.record.notes[0]!.by.name, 'Bob Ray');
    assert.equal(view.record.notes[0]!.by.email, 'bob@acme.test');
    assert.ok(view.history.some((h) => h.by.id === bob.id && h.op === 'add'));
    // History says who by name and e-mail, as the provider gave them.
    const perform = createPerform({ store: f.store, log: () => {} });
    const got = await perform('get', { id: r.id }, ann);
    assert.match(got.text, /Bob Ray <bob@acme\.test> add/);
    assert.match(got.text, /Bob Ray <bob@acme\.test>: Bob was here/);
    // Let back in, as a member.
    assert.equal((await f.store.setRole('bob@acme.test', 'member', ann)).removed, null);
    assert.equal((await f.store.signIn(bob)).role, 'member');
    assert.equal((await f.store.lists(bob)).length, 1);
  } finally {
    await f.done();
  }
});

eachStore('in an organisation\'s binder a signed-in id acts only once signed in; the machine\'s operator is an admin', async () => {
  const f = await team();
  try {
    assert.equal(await refusal(() => f.store.lists(cat)), 'You are not signed in to this binder: sign in again.');
    const operator: Who = { id: 'person:root', kind: 'person', name: 'root' };
    assert.equal((await f.store.people(operator)).length, 2);
    assert.equal((await f.store.setRole('Bob Ray', 'admin', operator)).role, 'admin');
    // A local binder (not an organisation's): whoever is not in people is the local person, an admin.
    const local = await fresh();
    try {
      await local.store.createList({ template: 'tasks' }, cat);
      assert.equal((await local.store.lists(cat)).length, 1);
    } finally {
      await local.done();
    }
  } finally {
    await f.done();
  }
});

eachStore('the people operations are a person\'s: an agent is refused them, and no agent\'s face offers them', async () => {
  const f = await team();
  try {
    const perform = createPerform({ store: f.store, log: () => {} });
    for (const op of ['people', 'set-role', 'remove-person']) {
      const a = await perform(op, op === 'people' ? {} : { person: 'ann@acme.test', role: 'member' }, bot);
      assert.equal(a.ok, false);
      assert.equal(a.refusal, 'person-only');
      assert.ok(!AGENT_OPERATIONS.some((o) => o.name === op));
    }
    assert.match(await refusal(() => f.store.people(bot)), /^Only a person can see the binder's people/);
    assert.match(await refusal(() => f.store.setRole('ann@acme.test', 'member', bot)), /^Only a person can/);
    assert.equal((await f.store.people(ann)).filter((p) => p.role === 'admin').length, 1);
  } finally {
    await f.done();
  }
});

eachStore('two people whose e-mails differ only by case: each can be named, the refusal says how, and nothing is changed by a name that fits both', async () => {
  const f = await team();
  try {
    const upper: Who = { id: 'person:idp.test/ann2', kind: 'person', name: 'Ann Lee', email: 'Ann@acme.test' };
    await f.store.signIn(upper);
    const both = await refusal(() => f.store.removePerson('ANN@ACME.TEST', ann));
    assert.match(both, /2 people/);
    assert.match(both, /person:idp\.test\/ann2/, 'the refusal names them by id, which tells them apart');
    const removed = await f.store.removePerson('Ann@acme.test', ann);
    assert.equal(removed.id, upper.id, 'the e-mail as written names the one');
    const byId = await f.store.setRole('person:idp.test/ann2', 'member', ann);
    assert.equal(byId.removed, null);
    const people = await f.store.people(ann);
    assert.equal(people.find((p) => p.id === ann.id)?.removed, null, 'Ann herself stays');
  } finally {
    await f.done();
  }
});
