/**
 * Two keepers (`binder serve` processes) of one PostgreSQL service store where people sign in
 * through a provider: a change asked of one reaches the same organisation's stream of changes on
 * the other, and never another organisation's stream. Each organisation's binder is a schema of
 * its own; the keepers hear each other only through their organisation's channel.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBinders } from '../../src/keeper/binders.js';
import type { Who } from '../../src/store/index.js';
import { provider } from '../helpers/oidc-provider.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { serveKeeper } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';

const ann: Who = { id: 'person:idp.test/ann', kind: 'person', name: 'Ann Lee', email: 'ann@acme.test' };
const bea: Who = { id: 'person:idp.test/bea', kind: 'person', name: 'Bea Ho', email: 'bea@beta.test' };

test('two binder serve processes on one PostgreSQL service store: a change through one reaches its organisation\'s stream on the other, never another organisation\'s', { skip: postgresMissing() ?? false, timeout: 120_000 }, async (t) => {
  const c = await cluster();
  const url = c.database();
  // Bot reads the stream of changes; Scribe, another agent of the organisation, makes the changes.
  const tokens: Record<string, string> = {};
  const scribes: Record<string, string> = {};
  const binders = await openBinders({ kind: 'postgres', url }, { start: false, log: () => {} });
  try {
    for (const [org, who] of [['acme.test', ann], ['beta.test', bea]] as const) {
      const { keeper, store } = await binders.of(org);
      await store.signIn(who);
      for (const [op, args] of [['create-list', { template: 'batches', title: 'Plans' }], ['grant', { list: 'plans', agent: 'Bot', access: 'write' }],
        ['grant', { list: 'plans', agent: 'Scribe', access: 'write' }],
        ['add', { list: 'plans', title: `${org} first` }]] as const) {
        const done = await keeper.act(op, args, who);
        assert.ok(done.ok, done.text);
      }
      tokens[org] = ((await keeper.act('token-add', { name: 'Bot' }, who)).data as { token: string }).token;
      scribes[org] = ((await keeper.act('token-add', { name: 'Scribe' }, who)).data as { token: string }).token;
    }
  } finally {
    await binders.close();
  }
  const idp = await provider(t);
  const serve = () => serveKeeper(t, ['--store', url, '--http', '127.0.0.1:0', '--quiet', '--oidc-issuer', idp.issuer, '--oidc-client-id', idp.clientId]);
  const one = await serve();
  const two = await serve();
  const addressOf = async (k: typeof one): Promise<string> => (await until(() => /Answering on (http:\/\/[^ ]+) too/.exec(k.out())?.[1], 15_000, 'the keeper to listen'))!;
  const [first, second] = [await addressOf(one), await addressOf(two)];
  t.after(async () => {
    await one.stop();
    await two.stop();
    dropDatabase(c, url);
  });

  const aborts: AbortController[] = [];
  t.after(() => { for (const a of aborts) a.abort(); });
  /** A stream of changes of `org`'s agent on the second keeper: what it has said so far. */
  const stream = async (org: string): Promise<() => string> => {
    const abort = new AbortController();
    aborts.push(abort);
    const res = await fetch(`${second}/api/changes?on=plans`, { headers: { authorization: `Bearer ${tokens[org]}` }, signal: abort.signal });
    assert.equal(res.status, 200, org);
    let said = '';
    void (async () => {
      try {
        for await (const chunk of res.body!) said += new TextDecoder().decode(chunk as Uint8Array);
      } catch {
        // Aborted at the end.
      }
    })();
    await until(() => said.includes(`${org} first`), 10_000, `${org}'s stream to begin`);
    return () => said;
  };
  const acme = await stream('acme.test');
  const beta = await stream('beta.test');

  const add = async (org: string, title: string): Promise<void> => {
    const res = await fetch(`${first}/api/add`, { method: 'POST', headers: { authorization: `Bearer ${scribes[org]}`, 'content-type': 'application/json' }, body: JSON.stringify({ list: 'plans', title }) });
    assert.equal(res.status, 200, await res.text());
  };
  await add('acme.test', 'acme second');
  await until(() => acme().includes('acme second'), 15_000, 'acme\'s change, asked of the first keeper, on acme\'s stream of the second');
  await add('beta.test', 'beta second');
  await until(() => beta().includes('beta second'), 15_000, 'beta\'s change on beta\'s stream of the second');
  // Beta's own change came after acme's: had acme's reached beta's stream, it would be there by now.
  assert.doesNotMatch(beta(), /acme/, 'beta\'s stream said nothing of acme');
  assert.doesNotMatch(acme(), /beta/, 'acme\'s stream said nothing of beta');
});
