/**
 * `binder admin --org ORG` and `binder admin people` on a signed-in service's store: the
 * operator acts on one organisation's binder (its people, roles, lists, tokens), never another's,
 * an organisation that has no binder is refused rather than made, and a hostile name is refused.
 * On a SQLite service store (a folder each) and a PostgreSQL one (a schema each), as processes.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openBinders } from '../../src/keeper/binders.js';
import type { Who } from '../../src/store/index.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { binder } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const ann: Who = { id: 'person:idp.test/ann', kind: 'person', name: 'Ann Lee', email: 'ann@acme.test' };
const bob: Who = { id: 'person:idp.test/bob', kind: 'person', name: 'Bob Ray', email: 'bob@acme.test' };
const bea: Who = { id: 'person:idp.test/bea', kind: 'person', name: 'Bea Ho', email: 'bea@other.test' };

for (const engine of ['sqlite', 'postgres'] as const) {
  const missing = engine === 'postgres' ? postgresMissing() : null;
  test(`binder admin --org acts on that organisation's binder alone: people, roles, lists, tokens [${engine}]`, { timeout: 120_000, ...(missing ? { skip: missing } : {}) }, async (t) => {
    if (engine === 'sqlite') return adminOrgs(t, { kind: 'sqlite', dir: join(tempDir(t), 'service') });
    const c = await cluster();
    const url = c.database();
    try {
      await adminOrgs(t, { kind: 'postgres', url });
      // Acme's list is in acme's schema alone; the service's schema holds none.
      const db = new URL(url).pathname.slice(1);
      assert.equal(c.psql(db, 'SELECT title FROM org_acme_test.lists').trim(), 'Acme tasks');
      assert.equal(c.psql(db, 'SELECT count(*) FROM org_other_test.lists').trim(), '0');
      assert.equal(c.psql(db, 'SELECT count(*) FROM public.lists').trim(), '0');
    } finally {
      dropDatabase(c, url);
    }
  });
}

/** The processes of `binder admin --store <service store> --org …`, on a service store `spec`. */
async function adminOrgs(t: TestContext, spec: { kind: 'sqlite'; dir: string } | { kind: 'postgres'; url: string }): Promise<void> {
  const store = spec.kind === 'sqlite' ? spec.dir : spec.url;
  const binders = await openBinders(spec, { start: false, log: () => {} });
  try {
    const acme = await binders.of('acme.test');
    await acme.store.signIn(ann);
    await acme.store.signIn(bob);
    await (await binders.of('other.test')).store.signIn(bea);
  } finally {
    await binders.close();
  }
  const admin = (...args: string[]) => binder(['admin', '--store', store, ...args]);
  const orgs = admin('orgs');
  assert.equal(orgs.code, 0, orgs.err);
  assert.match(orgs.out, /^acme\.test {2}\(acme-test, since .+\)\nother\.test {2}\(other-test, since .+\)\n$/);

  const people = admin('--org', 'acme.test', 'people');
  assert.equal(people.code, 0, people.err);
  assert.match(people.out, /^Ann Lee <ann@acme\.test> {2}admin .*\nBob Ray <bob@acme\.test> {2}member /);
  assert.ok(!people.out.includes('bea@other.test'));

  const last = admin('--org', 'acme.test', 'set-role', 'ann@acme.test', 'member');
  assert.equal(last.code, 1);
  assert.match(last.err, /^Not done: Ann Lee is this binder's last admin, so cannot be made a member/);
  assert.equal(admin('--org', 'ACME.test', 'set-role', 'Bob Ray', 'admin').code, 0);
  const removed = admin('--org', 'acme.test', 'remove-person', 'ann@acme.test');
  assert.equal(removed.code, 0, removed.err);
  assert.match(removed.out, /^Removed Ann Lee <ann@acme\.test>: refused from now on/);

  assert.equal(admin('--org', 'acme.test', 'create-list', 'Acme tasks', '--template', 'tasks').code, 0);
  const token = admin('--org', 'acme.test', 'token', 'add', 'Bot');
  assert.equal(token.code, 0, token.err);
  assert.match(admin('--org', 'other.test', 'lists').out, /^No list yet/);
  assert.match(admin('lists').out, /^No list yet/, 'the service store holds no organisation\'s list');
  // Without --org, a change to the service store itself would be nobody's (a token never accepted): refused, saying how.
  for (const args of [['token', 'add', 'Bot'], ['create-list', 'Stray', '--template', 'tasks']]) {
    const stray = admin(...args);
    assert.equal(stray.code, 1, args.join(' '));
    assert.match(stray.err, /^Not done: this store is a signed-in service's, whose binders are its organisations': name one with --org/);
  }
  assert.match(admin('lists').out, /^No list yet/, 'nothing was made there');
  assert.match(admin('--org', 'acme.test', 'lists').out, /acme-tasks: Acme tasks/);

  const again = await openBinders(spec, { start: false, log: () => {} });
  try {
    assert.equal(await again.tokenOrg(token.out.split('\n')[0]!), 'acme.test');
    const acme = await again.of('acme.test');
    await assert.rejects(acme.store.signIn(ann), /You were removed from this binder/);
    assert.equal((await acme.store.signIn(bob)).role, 'admin');
  } finally {
    await again.close();
  }

  const unknown = admin('--org', 'nope.test', 'lists');
  assert.equal(unknown.code, 1);
  assert.match(unknown.err, /^No organisation "nope\.test" has a binder in this store/);
  assert.equal(admin('orgs').out.split('\n').filter(Boolean).length, 2, 'a mistyped organisation makes no binder');
  const hostile = admin('--org', 'bad\u0001name', 'lists');
  assert.equal(hostile.code, 64);
  assert.match(hostile.err, /^An organisation's name is 1 to 200 characters on one line/);
}

for (const engine of ['sqlite', 'postgres'] as const) {
  const missing = engine === 'postgres' ? postgresMissing() : null;
  test(`one folder is one agent of one organisation: registered in a second organisation's binder, it is refused [${engine}]`, { timeout: 120_000, ...(missing ? { skip: missing } : {}) }, async (t) => {
    const root = tempDir(t);
    let url: string | undefined;
    const c = engine === 'postgres' ? await cluster() : null;
    if (c) url = c.database();
    const spec = c ? { kind: 'postgres' as const, url: url! } : { kind: 'sqlite' as const, dir: join(root, 'service') };
    const store = spec.kind === 'sqlite' ? spec.dir : spec.url;
    try {
      const binders = await openBinders(spec, { start: false, log: () => {} });
      try {
        await (await binders.of('acme.test')).store.signIn(ann);
        await (await binders.of('other.test')).store.signIn(bea);
      } finally {
        await binders.close();
      }
      const folder = join(root, 'agent', '.binder');
      const admin = (...args: string[]) => binder(['admin', '--store', store, ...args]);
      const first = admin('--org', 'acme.test', 'side', 'add', folder, 'Claude');
      assert.equal(first.code, 0, first.err);
      // The same folder, written another way, in the other organisation's binder: refused.
      const again = admin('--org', 'other.test', 'side', 'add', join(root, 'agent', '..', 'agent', '.binder'), 'Claude');
      assert.equal(again.code, 1, again.out);
      assert.match(again.err, /^Not done: the folder .*agent\/\.binder is registered in the binder of acme\.test already; a folder is one agent of one organisation \(binder admin --org acme\.test side remove NAME takes it out there first\)\.\n$/);
      assert.doesNotMatch(admin('--org', 'other.test', 'sides').out, /Claude/);
      assert.match(admin('--org', 'acme.test', 'sides').out, /Claude/);
      // Another folder is the other organisation's to register.
      const own = admin('--org', 'other.test', 'side', 'add', join(root, 'other', '.binder'), 'Codex');
      assert.equal(own.code, 0, own.err);
    } finally {
      if (c && url) dropDatabase(c, url);
    }
  });
}
