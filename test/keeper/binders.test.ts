/**
 * Organisations' binders on one service store, on SQLite and on PostgreSQL: what one
 * organisation keeps (lists, records, search, brief, tokens, folders, people) is never seen
 * through the other's store nor keeper; an agent token is found in its binder by one look in the
 * service store; an organisation's name is never a path nor an identifier taken raw. On
 * PostgreSQL, one organisation's change wakes no other's listeners (held waits, streams of
 * changes), on another keeper of the same service store neither.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createHttpApp } from '../../src/http/app.js';
import { orgsOf } from '../../src/http/listen.js';
import { openBinders, type Binders } from '../../src/keeper/binders.js';
import { createKeeper } from '../../src/keeper/keeper.js';
import type { StoreSpec, Who } from '../../src/store/index.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { until } from '../helpers/temp.js';

const ann: Who = { id: 'person:idp.test/ann', kind: 'person', name: 'Ann Lee', email: 'ann@acme.test' };
const bea: Who = { id: 'person:idp.test/bea', kind: 'person', name: 'Bea Ho', email: 'bea@other.test' };
const bot: Who = { id: 'agent:bot', kind: 'agent', name: 'Bot' };

/** Registers `fn` on a fresh service store of each engine. */
function eachService(name: string, fn: (spec: StoreSpec, dir: string) => Promise<void>): void {
  for (const engine of ['sqlite', 'postgres'] as const) {
    const missing = engine === 'postgres' ? postgresMissing() : null;
    test(`${name} [${engine}]`, missing ? { skip: missing } : {}, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'binder-orgs-'));
      let url: string | undefined;
      try {
        if (engine === 'postgres') url = (await cluster()).database();
        await fn(url ? { kind: 'postgres', url } : { kind: 'sqlite', dir: join(dir, 'service') }, dir);
      } finally {
        if (url) dropDatabase(await cluster(), url);
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
}

const act = async <T = unknown>(binders: Binders, org: string, op: string, args: Record<string, unknown>, who: Who): Promise<T> => {
  const answer = await (await binders.of(org)).keeper.act(op, args, who);
  assert.equal(answer.ok, true, `${op} in ${org}: ${answer.text}`);
  return answer.data as T;
};

eachService('two organisations on one service store never see each other\'s binder', async (spec, dir) => {
  const binders = await openBinders(spec, { log: () => {} });
  try {
    const acme = await binders.of('Acme.test');
    const other = await binders.of('other.test');
    assert.equal(acme, await binders.of('ACME.TEST'), 'one name, in any case, is one binder');
    // Each organisation's first person is its own admin.
    assert.equal((await acme.store.signIn(ann)).role, 'admin');
    assert.equal((await other.store.signIn(bea)).role, 'admin');
    assert.deepEqual((await acme.store.people(ann)).map((p) => p.email), ['ann@acme.test']);
    assert.deepEqual((await other.store.people(bea)).map((p) => p.email), ['bea@other.test']);

    // The same list's name in both: each its own.
    await act(binders, 'acme.test', 'create-list', { template: 'batches', title: 'Plans' }, ann);
    await act(binders, 'other.test', 'create-list', { template: 'batches', title: 'Plans' }, bea);
    await act(binders, 'acme.test', 'create-list', { template: 'tasks', title: 'Acme only' }, ann);
    const secret = await act<{ id: number }>(binders, 'acme.test', 'add', { list: 'plans', title: 'secret hamster' }, ann);
    await act(binders, 'other.test', 'add', { list: 'plans', title: 'walrus' }, bea);
    await act(binders, 'acme.test', 'grant', { list: 'plans', agent: 'Bot', access: 'write' }, ann);
    await act(binders, 'other.test', 'grant', { list: 'plans', agent: 'Bot', access: 'write' }, bea);

    assert.deepEqual((await other.store.lists(bea)).map((l) => l.title), ['Plans']);
    assert.deepEqual((await acme.store.lists(ann)).map((l) => l.title).sort(), ['Acme only', 'Plans']);
    assert.deepEqual(await other.store.search('hamster', bea), []);
    assert.deepEqual(await other.store.search('hamster', bot), []);
    assert.equal((await acme.store.search('hamster', ann)).length, 1);
    // Record numbers are each binder's own: #1 in the other is its own record.
    assert.equal((await other.store.get(secret.id, bea)).record.title, 'walrus');
    const otherShow = await other.store.show('plans', bea);
    assert.ok(!JSON.stringify(otherShow).includes('hamster'));
    // A brief (and so a wait, an SSE stream) tells the other's agent nothing of Acme's changes.
    const brief = await other.store.brief(bot);
    assert.ok(!JSON.stringify(brief).includes('hamster'), JSON.stringify(brief));
    assert.ok((await acme.store.brief(bot)).items.some((i) => i.title === 'secret hamster'));

    // Folders are each binder's own.
    const folder = join(dir, 'acme-agent');
    mkdirSync(folder);
    await act(binders, 'acme.test', 'side-add', { dir: folder, name: 'Claude' }, { id: 'person:root', kind: 'person', name: 'root' });
    assert.equal((await acme.store.sides()).length, 1);
    assert.deepEqual(await other.store.sides(), []);

    // A token is its binder's, found by one look in the service store.
    const made = await act<{ token: string }>(binders, 'acme.test', 'token-add', { name: 'Bot' }, ann);
    assert.equal(await binders.tokenOrg(made.token), 'acme.test');
    assert.equal((await acme.store.checkToken(made.token)).ok, true);
    assert.deepEqual(await other.store.checkToken(made.token), { ok: false, why: 'unknown' });
    assert.deepEqual(await other.store.tokens(bea), []);
    assert.equal(await binders.tokenOrg('binder_' + 'x'.repeat(43)), null);
    assert.equal(await binders.tokenOrg('not a token'), null);

    assert.deepEqual((await binders.orgs()).sort(), ['acme.test', 'other.test']);
    // The service store holds no organisation's lists.
    assert.deepEqual(await binders.service.lists({ id: 'person:root', kind: 'person', name: 'root' }), []);
    if (spec.kind === 'sqlite') assert.deepEqual(readdirSync(join(spec.dir, 'orgs')).sort(), ['acme-test', 'other-test']);
  } finally {
    await binders.close();
  }
});

eachService('a hostile organisation name is refused or slugged, never a path nor an identifier', async (spec) => {
  const binders = await openBinders(spec, { log: () => {}, start: false });
  try {
    for (const bad of ['', '   ', 'a\u0000b', 'line\nbreak', 'x'.repeat(201), 'bell\u0007']) {
      await assert.rejects(binders.of(bad), (e: Error) => e.name === 'Refused'
        && e.message === 'An organisation\'s name is 1 to 200 characters on one line, without control characters.', JSON.stringify(bad));
    }
    const names = ['../x', 'x', '/etc', "acme'; DROP SCHEMA public CASCADE; --", 'y'.repeat(200), '..', 'Ünïcode.test', '"quoted"'];
    const slugs: string[] = [];
    for (const name of names) {
      const b = await binders.of(name);
      await b.store.createList({ template: 'tasks', title: `List of ${name.slice(0, 20)}` }, { id: 'person:root', kind: 'person', name: 'root' });
      const where = await binders.specOf(name);
      const slug = where.kind === 'sqlite' ? where.dir.slice(join(spec.kind === 'sqlite' ? spec.dir : '', 'orgs').length + 1) : where.schema!;
      assert.match(slug, where.kind === 'sqlite' ? /^[a-z0-9]+(-[a-z0-9]+)*$/ : /^org_[a-z0-9_]+$/, slug);
      assert.ok(slug.length <= 50, slug);
      slugs.push(slug);
    }
    assert.equal(new Set(slugs).size, names.length, `each name its own binder: ${slugs.join(' ')}`);
    // Each binder holds its own list alone.
    for (const name of names) {
      const lists = await (await binders.of(name)).store.lists({ id: 'person:root', kind: 'person', name: 'root' });
      assert.deepEqual(lists.map((l) => l.title), [`List of ${name.slice(0, 20)}`]);
    }
    if (spec.kind === 'sqlite') {
      assert.equal(existsSync(join(spec.dir, 'x')), false);
      assert.deepEqual(readdirSync(spec.dir).sort(), ['binder.db', 'binder.db-shm', 'binder.db-wal', 'orgs'].filter((f) => existsSync(join(spec.dir, f))));
    }
  } finally {
    await binders.close();
  }
});

eachService('two services opening one new organisation at once share one binder', async (spec) => {
  const one = await openBinders(spec, { log: () => {}, start: false });
  const two = await openBinders(spec, { log: () => {}, start: false });
  try {
    const [a, b] = await Promise.all([one.of('race.test'), two.of('race.test')]);
    const [c, d] = await Promise.all([one.of('race-test'), two.of('RACE-TEST')]);
    assert.deepEqual(await one.specOf('race.test'), await two.specOf('race.test'));
    assert.notDeepEqual(await one.specOf('race.test'), await one.specOf('race-test'));
    assert.equal((await a.store.signIn(ann)).role, 'admin');
    assert.equal((await b.store.signIn(bea)).role, 'member', 'the same binder: its first person is already there');
    assert.equal((await c.store.signIn(bea)).role, 'admin', 'race-test is another organisation');
    assert.equal((await d.store.signIn(ann)).role, 'member');
  } finally {
    await one.close();
    await two.close();
  }
});

test('on PostgreSQL one organisation\'s change never wakes another\'s listeners: a held wait and a stream of changes of beta\'s hear nothing of acme\'s, on another keeper too', { skip: postgresMissing() ?? false, timeout: 60_000 }, async (t) => {
  const c = await cluster();
  const url = c.database();
  // Two keepers of one service store (two processes behind a proxy, here in one).
  const one = await openBinders({ kind: 'postgres', url }, { log: () => {} });
  const two = await openBinders({ kind: 'postgres', url }, { log: () => {} });
  const front = createKeeper({ store: two.service, sides: [], log: () => {} });
  const { app, close } = createHttpApp({ keeper: front, hosts: ['localhost'], orgs: orgsOf(two) });
  const streams: (() => Promise<void>)[] = [];
  t.after(async () => {
    for (const stop of streams) await stop();
    await close();
    await front.close();
    await one.close();
    await two.close();
    dropDatabase(c, url);
  });
  const tokens: Record<string, string> = {};
  for (const [org, who] of [['acme.test', ann], ['beta.test', bea]] as const) {
    await (await one.of(org)).store.signIn(who);
    await act(one, org, 'create-list', { template: 'batches', title: 'Plans' }, who);
    await act(one, org, 'grant', { list: 'plans', agent: 'Bot', access: 'write' }, who);
    await act(one, org, 'add', { list: 'plans', title: `${org} first` }, who);
    tokens[org] = (await act<{ token: string }>(one, org, 'token-add', { name: 'Bot' }, who)).token;
  }
  /** A stream of changes of `org`'s agent, through the second keeper: what it has said so far. */
  const stream = async (org: string): Promise<{ said: () => string }> => {
    const res = await app.request('/api/changes?on=plans', { headers: { host: 'localhost:4180', authorization: `Bearer ${tokens[org]}` } });
    assert.equal(res.status, 200, org);
    const reader = res.body!.getReader();
    let said = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        said += new TextDecoder().decode(value);
      }
    })();
    streams.push(async () => { await reader.cancel().catch(() => undefined); await reading; });
    await until(() => said.includes(`${org} first`), 10_000, `${org}'s stream to begin`);
    return { said: () => said };
  };
  const acmeStream = await stream('acme.test');
  const betaStream = await stream('beta.test');
  const acme2 = await two.of('acme.test');
  const beta2 = await two.of('beta.test');
  await acme2.keeper.ask(bot, 'brief', {});
  await beta2.keeper.ask(bot, 'brief', {});
  let betaNews = 0;
  const unlisten = beta2.keeper.onNews(() => { betaNews++; });
  let betaAnswered = false;
  const acmeWait = acme2.keeper.ask(bot, 'wait', { on: 'plans', timeout: '30s' }, { wait: 30_000 });
  const betaWait = beta2.keeper.ask(bot, 'wait', { on: 'plans', timeout: '4s' }, { wait: 30_000 }).then((a) => { betaAnswered = true; return a; });
  await until(async () => (await acme2.store.ledger.heldIn([], ['http:'])).length === 1 && (await beta2.store.ledger.heldIn([], ['http:'])).length === 1, 10_000, 'both waits held by the second keeper');
  betaNews = 0;

  // A change in acme through the first keeper: acme's listeners on the second hear it.
  await act(one, 'acme.test', 'add', { list: 'plans', title: 'acme second' }, ann);
  const heard = await acmeWait;
  assert.ok(heard.ok, heard.text);
  assert.match(heard.text, /acme second/);
  await until(() => acmeStream.said().includes('acme second'), 10_000, 'acme\'s stream to tell acme\'s change');
  // Beta's heard nothing: its wait is still held, its stream said nothing more, its keeper had no news.
  assert.equal(betaAnswered, false, 'beta\'s wait is not answered by acme\'s change');
  assert.equal(betaNews, 0, 'beta\'s keeper is not woken by acme\'s change');
  assert.doesNotMatch(betaStream.said(), /acme/);
  const timedOut = await betaWait;
  assert.doesNotMatch(JSON.stringify(timedOut), /acme/);
  assert.match(timedOut.text, /nothing|no change|timed out/i, timedOut.text);
  assert.doesNotMatch(betaStream.said(), /acme/);
  // And beta's own change reaches beta's stream (it listens): the silence above was acme's.
  await act(one, 'beta.test', 'add', { list: 'plans', title: 'beta second' }, bea);
  await until(() => betaStream.said().includes('beta second'), 10_000, 'beta\'s stream to tell beta\'s change');
  assert.doesNotMatch(betaStream.said(), /acme/);
  unlisten();
});
