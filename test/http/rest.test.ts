/**
 * REST over the HTTP app, without a socket: every agent verb as the token's agent, every status
 * the face answers with, a forged identity, a token in the query, the host and origin guard,
 * exactly once by Idempotency-Key.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { AGENT_OPERATIONS } from '../../src/keeper/operations.js';
import { until } from '../helpers/temp.js';
import { ann, served } from './kit.js';

test('every agent verb over REST, as the token\'s agent, with its text and data', async (t) => {
  const s = await served(t);
  const add = await s.call('POST', '/api/add', { body: { list: 'Batches', title: 'Dark mode', note: 'login first' } });
  assert.equal(add.status, 200, add.json.text);
  assert.equal(add.json.ok, true);
  assert.match(add.json.text, /^Added #1 to batches in Proposed\. A person approves it/);
  assert.equal((add.json.data as { id: number }).id, 1);
  await s.store.approve(1, true, ann);
  const calls: [string, string, Record<string, unknown>, RegExp][] = [
    ['GET', '/api/lists', {}, /batches/],
    ['GET', '/api/show?list=Batches&state=Proposed', {}, /#1 Dark mode/],
    ['GET', '/api/get?id=%231', {}, /^#1 Dark mode/],
    ['GET', '/api/search?text=dark', {}, /#1 Dark mode/],
    ['POST', '/api/edit', { id: 1, due: '2026-12-24' }, /^Changed #1: due/],
    ['POST', '/api/move', { id: '#1', state: 'Doing' }, /^#1 is now in Doing/],
    ['POST', '/api/note', { id: 1, text: 'tests pass' }, /^Noted on #1/],
    ['POST', '/api/attach', { id: 1, kind: 'branch', ref: 'site:dark', title: 'the work' }, /^Attached branch site:dark to #1/],
    ['POST', '/api/detach', { id: 1, what: 'site:dark' }, /^Took branch site:dark off #1/],
    ['POST', '/api/archive', { id: 1 }, /^Archived #1/],
    ['POST', '/api/restore', { id: 1 }, /^Restored #1/],
    ['POST', '/api/take', { id: 1, for: '1h' }, /^You hold #1/],
    ['POST', '/api/release', { id: 1 }, /^Gave back #1/],
    ['GET', '/api/ready?list=batches', {}, /#1 Dark mode/],
    ['GET', '/api/brief', {}, /approved by Ann|Nothing changed/],
    ['POST', '/api/wait', { timeout: '0s' }, /Nothing changed/],
    ['POST', '/api/add', { list: 'Batches', title: 'Dark mode docs' }, /^Added #2/],
    ['POST', '/api/needs', { id: 2, others: '1' }, /^#2 needs #1 \(Doing\)/],
  ];
  const asked = new Set(['add', ...calls.map(([, path]) => path.replace(/^\/api\//, '').replace(/\?.*/, ''))]);
  assert.deepEqual([...asked].sort(), AGENT_OPERATIONS.map((op) => op.name).sort(), 'every agent verb is asked');
  for (const [method, path, body, expected] of calls) {
    const r = await s.call(method, path, method === 'POST' ? { body } : {});
    assert.equal(r.status, 200, `${path}: ${r.json.text}`);
    assert.equal(r.json.ok, true);
    assert.match(r.json.text, expected, path);
    assert.notEqual(r.json.data, undefined);
  }
  const history = (await s.store.get(1, ann)).history;
  assert.ok(history.every((h) => h.by.id === 'agent:claude' || h.by.id === 'person:Ann'), 'every change is the token\'s agent\'s or Ann\'s');
  assert.ok(s.logs.some((line) => /Claude add done over REST \(binder_[\w-]{8}\): Added #1/.test(line)), s.logs.join('\n'));
  assert.ok(!s.logs.some((line) => line.includes(s.tokens.Claude!)), 'the token is never logged');
});

test('every status: 400, 401, 403, 404, 405, 409, 413, 429 — each with a sentence and nothing done', async (t) => {
  const s = await served(t, { agents: ['Claude', 'Codex', 'Rusher'], app: { rate: { perSecond: 1, burst: 20 } } });
  const before = s.store.db.prepare('SELECT count(*) FROM log').pluck().get();
  const cases: [string, Promise<Awaited<ReturnType<typeof s.call>>>, number, RegExp][] = [
    ['bad JSON', s.call('POST', '/api/add', { body: '{"list": ' }), 400, /one JSON object/],
    ['not an object', s.call('POST', '/api/add', { body: '[1, 2]' }), 400, /one JSON object/],
    ['missing argument', s.call('POST', '/api/add', { body: { list: 'Batches' } }), 400, /needs title/],
    ['bad record number', s.call('GET', '/api/get?id=twelve'), 400, /not a record number/],
    ['bad Idempotency-Key', s.call('POST', '/api/add', { body: { list: 'Batches', title: 'x' }, headers: { 'idempotency-key': 'é'.repeat(3) } }), 400, /Idempotency-Key is 1 to 128/],
    ['no token', s.call('GET', '/api/lists', { token: null }), 401, /^No token: send the header Authorization: Bearer/],
    ['unknown token', s.call('GET', '/api/lists', { token: `binder_${'A'.repeat(43)}` }), 401, /not one this binder knows/],
    ['not a token at all', s.call('GET', '/api/lists', { token: 'hunter2' }), 401, /not one this binder knows/],
    ['a person\'s operation', s.call('POST', '/api/approve', { body: { id: 1 } }), 403, /^Only a person can approve/],
    ['a hidden list', s.call('GET', '/api/show?list=Hidden'), 403, /no list "Hidden" you can see/],
    ['an absent list', s.call('GET', '/api/show?list=Nowhere'), 403, /no list "Nowhere" you can see/],
    ['unknown operation', s.call('POST', '/api/frobnicate', { body: {} }), 404, /no operation "frobnicate"/],
    ['GET of a change', s.call('GET', '/api/add?list=Batches&title=x'), 405, /add changes the binder: POST it/],
  ];
  for (const [what, pending, status, text] of cases) {
    const r = await pending;
    assert.equal(r.status, status, `${what}: ${r.json.text}`);
    assert.equal(r.json.ok, false, what);
    assert.match(r.json.text, text, what);
    assert.equal(r.json.data, null, what);
  }
  assert.equal((await s.call('GET', '/api/lists', { token: null })).headers.get('www-authenticate'), 'Bearer realm="binder"');
  assert.equal(s.store.db.prepare('SELECT count(*) FROM log').pluck().get(), before, 'nothing was done');

  // 409: the gate; a claim held by another agent.
  const codex = s.tokens.Codex!;
  assert.equal((await s.call('POST', '/api/add', { token: codex, body: { list: 'Batches', title: 'Gated' } })).status, 200);
  const gate = await s.call('POST', '/api/move', { token: codex, body: { id: 1, state: 'Doing' } });
  assert.equal(gate.status, 409, gate.json.text);
  assert.match(gate.json.text, /approved/);

  // 413: a body of 2 MiB, refused before it is read whole.
  const big = await s.call('POST', '/api/note', { token: codex, body: { id: 1, text: 'x'.repeat(2 * 1024 * 1024) } });
  assert.equal(big.status, 413, big.json.text);
  assert.match(big.json.text, /at most 1 MiB/);

  // 429: a token's rate (bursts of 20 here) is its own; Codex's is untouched.
  const many = await Promise.all(Array.from({ length: 30 }, () => s.call('GET', '/api/lists', { token: s.tokens.Rusher! })));
  const limited = many.filter((r) => r.status === 429);
  assert.ok(limited.length >= 1, many.map((r) => r.status).join(' '));
  assert.match(limited[0]!.json.text, /Too many requests with this token/);
  assert.match(limited[0]!.headers.get('retry-after') ?? '', /^\d+$/);
  assert.equal((await s.call('GET', '/api/lists', { token: codex })).status, 200);
});

test('a revoked or expired token is refused and says so; revoking takes effect at the next request', async (t) => {
  const s = await served(t);
  assert.equal((await s.call('GET', '/api/lists')).status, 200);
  await s.store.revokeTokens('Claude', ann);
  const revoked = await s.call('GET', '/api/lists');
  assert.equal(revoked.status, 401);
  assert.match(revoked.json.text, /^This token \(binder_[\w-]{8}\) was revoked on \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  const soon = (await s.store.addToken('Claude', { expiresMs: 1 }, ann)).token;
  const expired = await until(async () => {
    const r = await s.call('GET', '/api/lists', { token: soon });
    return r.status === 401 ? r : null;
  }, 2_000, 'the token to expire');
  assert.match(expired!.json.text, /expired on/);
});

test('nothing a request says of who it is is believed: a forged as, who or kind is dropped', async (t) => {
  const s = await served(t);
  const lie = { as: 'Ann', who: { id: 'person:Ann', kind: 'person', name: 'Ann' }, kind: 'person', by: 'person:Ann' };
  const r = await s.call('POST', '/api/add', { body: { list: 'Batches', title: 'Forged', state: 'Approved', ...lie }, headers: { 'x-binder-as': 'Ann' } });
  assert.equal(r.status, 409, 'not past the gate: the asker is an agent');
  const added = await s.call('POST', '/api/add', { body: { list: 'Batches', title: 'Forged', ...lie } });
  assert.equal(added.status, 200);
  const view = await s.store.get((added.json.data as { id: number }).id, ann);
  assert.equal(view.history[0]!.by.id, 'agent:claude');
  assert.equal(view.record.approved, null);
  const approve = await s.call('POST', '/api/approve', { body: { id: view.record.id, ...lie } });
  assert.equal(approve.status, 403);
});

test('a token in the URL is refused, and a known one is revoked as leaked', async (t) => {
  const s = await served(t);
  const token = s.tokens.Claude!;
  const r = await s.call('GET', `/api/lists?access_token=${token}`, { token: null });
  assert.equal(r.status, 400);
  assert.match(r.json.text, /counts as leaked and is revoked now \(binder_[\w-]{8}\)/);
  assert.ok(!r.json.text.includes(token), 'the token is not said back');
  assert.equal((await s.call('GET', '/api/lists')).status, 401, 'revoked');
  assert.match((await s.store.tokens(ann))[0]!.revoked ?? '', /^\d{4}-/);
  const other = await s.call('GET', '/api/show?list=Batches&token=whatever');
  assert.equal(other.status, 400);
  assert.match(other.json.text, /A token never goes in a URL/);
  assert.ok(s.logs.some((line) => /revoked: binder_[\w-]{8}$/.test(line)));
  assert.ok(!s.logs.some((line) => line.includes(token)));
});

test('the host and origin guard: another host is 421, a foreign origin 403, the server\'s own origin passes', async (t) => {
  const s = await served(t);
  const evil = await s.call('GET', '/api/lists', { headers: { host: 'evil.example' } });
  assert.equal(evil.status, 421);
  assert.match(evil.json.text, /does not answer to the host "evil.example"/);
  assert.equal((await s.call('GET', '/api/lists', { headers: { host: 'evil.example:4180' } })).status, 421);
  assert.equal((await s.call('GET', '/api/lists', { headers: { host: '127.0.0.1:4180' } })).status, 200);
  const foreign = await s.call('POST', '/api/add', { body: { list: 'Batches', title: 'x' }, headers: { origin: 'https://evil.example' } });
  assert.equal(foreign.status, 403);
  assert.match(foreign.json.text, /foreign Origin/);
  assert.equal((await s.call('GET', '/api/lists', { headers: { origin: 'null' } })).status, 403);
  assert.equal((await s.call('GET', '/api/lists', { headers: { origin: 'http://localhost:4180' } })).status, 200);
  assert.equal((await s.store.search('x', ann)).length, 0, 'nothing was added');
});

test('behind a proxy, the proxy\'s X-Forwarded-Host and -Proto say what the client asked for; without --behind-proxy they are not believed', async (t) => {
  const proxied = await served(t, { app: { behindProxy: true, hosts: ['127.0.0.1', 'binder.example.org'] } });
  const via = { 'x-forwarded-host': 'binder.example.org', 'x-forwarded-proto': 'https' };
  assert.equal((await proxied.call('GET', '/api/lists', { headers: { host: '127.0.0.1:4180', ...via } })).status, 200);
  assert.equal((await proxied.call('GET', '/api/lists', { headers: { host: '127.0.0.1:4180', 'x-forwarded-host': 'evil.example' } })).status, 421);
  assert.equal((await proxied.call('GET', '/api/lists', { headers: { host: '127.0.0.1:4180', ...via, origin: 'https://binder.example.org' } })).status, 200);
  assert.equal((await proxied.call('GET', '/api/lists', { headers: { host: '127.0.0.1:4180', ...via, origin: 'http://binder.example.org' } })).status, 403);
  const direct = await served(t);
  assert.equal((await direct.call('GET', '/api/lists', { headers: { host: 'evil.example', 'x-forwarded-host': 'localhost' } })).status, 421);
});

test('/healthz is a plain 200 with the uptime, without a token', async (t) => {
  const s = await served(t);
  const r = await s.http.app.request('/healthz', { headers: { host: '10.0.0.7:4180' } });
  assert.equal(r.status, 200);
  const text = await r.text();
  assert.match(text, /^ok\nup \d+ s\n$/);
});

test('exactly once: a change asked again with its Idempotency-Key is answered from the ledger, never done twice', async (t) => {
  const s = await served(t);
  const key = randomUUID();
  const body = { list: 'Batches', title: 'Once' };
  const first = await s.call('POST', '/api/add', { body, headers: { 'idempotency-key': key } });
  const again = await Promise.all([1, 2, 3].map(() => s.call('POST', '/api/add', { body, headers: { 'idempotency-key': key } })));
  assert.equal(first.status, 200);
  for (const r of again) {
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, first.json);
    assert.equal(r.headers.get('idempotent-replayed'), 'true');
  }
  assert.equal((await s.store.search('Once', ann)).length, 1, 'added once');
  const other = await s.call('POST', '/api/add', { body: { list: 'Batches', title: 'Another' }, headers: { 'idempotency-key': key } });
  assert.equal(other.status, 409);
  assert.match(other.json.text, /given with another ask: nothing was done/);
  assert.equal((await s.store.search('Another', ann)).length, 0);
  // The same key from another agent is another ask: keys are each agent's own.
  const codexToken = (await s.store.addToken('Codex', {}, ann)).token;
  await s.store.grant('batches', 'Codex', 'write', ann);
  const codex = await s.call('POST', '/api/add', { token: codexToken, body, headers: { 'idempotency-key': key } });
  assert.equal(codex.status, 200);
  assert.equal(codex.headers.get('idempotent-replayed'), null);
  assert.equal((await s.store.search('Once', ann)).length, 2);
});

test('GET /api lists the operations an agent may call, with their methods and schemas', async (t) => {
  const s = await served(t);
  const r = await s.call('GET', '/api');
  assert.equal(r.status, 200);
  const ops = r.json.data as { name: string; method: string; schema: { type: string; properties: Record<string, unknown> } }[];
  assert.deepEqual(ops.map((op) => op.name), AGENT_OPERATIONS.map((op) => op.name));
  assert.equal(ops.find((op) => op.name === 'show')!.method, 'GET');
  assert.equal(ops.find((op) => op.name === 'add')!.method, 'POST');
  assert.deepEqual(Object.keys(ops.find((op) => op.name === 'add')!.schema.properties).sort(), ['due', 'fields', 'label', 'list', 'note', 'owners', 'parent', 'state', 'title']);
  assert.equal((await s.call('GET', '/api', { token: null })).status, 401);
  // Each request takes one of its token's rate, whatever its path.
  const counted = await served(t, { app: { rate: { perSecond: 1, burst: 2 } } });
  assert.deepEqual([(await counted.call('GET', '/api')).status, (await counted.call('GET', '/api')).status, (await counted.call('GET', '/api')).status], [200, 200, 429]);
});

test('an ask whose arguments nest too deeply to be read is refused alone: the other agents\' asks of its batch are done', async (t) => {
  const s = await served(t, { agents: ['Claude', 'Codex'] });
  // Under the size bound (1 MiB), too deep for JSON.stringify's stack.
  const deep = `{"list":"Batches","title":"x","fields":${'['.repeat(400_000)}${']'.repeat(400_000)}}`;
  const [bad, ...good] = await Promise.all([
    s.call('POST', '/api/add', { token: s.tokens.Claude!, body: deep, headers: { 'idempotency-key': 'deep-1' } }),
    ...[1, 2, 3, 4, 5].map((i) => s.call('POST', '/api/add', { token: s.tokens.Codex!, body: { list: 'Batches', title: `good ${i}` }, headers: { 'idempotency-key': `good-${i}` } })),
  ]);
  assert.equal(bad!.status, 400, bad!.json.text);
  assert.match(bad!.json.text, /nested too deeply/);
  assert.deepEqual(good.map((r) => r.status), [200, 200, 200, 200, 200], good.map((r) => r.json.text).join(' | '));
  assert.equal((await s.store.show('batches', ann)).records.length, 5, 'the five done, nothing of the deep one');
});

test('a HEAD is a read: of an operation that changes the binder it is refused (405), never done', async (t) => {
  const s = await served(t);
  const added = await s.call('POST', '/api/add', { body: { list: 'Batches', title: 'Claimed by nobody' } });
  const id = (added.json.data as { id: number }).id;
  for (const path of [`/api/take?id=${id}`, '/api/add?list=Batches&title=Headed', `/api/note?id=${id}&text=headed`]) {
    const res = await s.call('HEAD', path);
    assert.equal(res.status, 405, path);
  }
  const record = await s.store.get(id, ann);
  assert.equal(record.record.lease, undefined, 'not taken');
  assert.equal(record.counts.notes, 0, 'no note');
  assert.equal((await s.store.show('batches', ann)).records.length, 1, 'nothing added');
});

test('an edit says what it changed: a field named __proto__ is refused, a value given as it was is no change, and nothing is written', async (t) => {
  const s = await served(t);
  assert.equal((await s.call('POST', '/api/add', { body: { list: 'Batches', title: 'Kept' } })).status, 200);
  const history = async (): Promise<number> => (await s.store.get(1, ann)).history.length;
  const before = await history();
  const hostile = await s.call('POST', '/api/edit', { body: '{"id": 1, "fields": {"__proto__": {"Priority": "High"}}}' });
  assert.equal(hostile.status, 400, hostile.json.text);
  assert.match(hostile.json.text, /fields given is not understood/);
  const same = await s.call('POST', '/api/edit', { body: { id: 1, title: 'Kept' } });
  assert.equal(same.status, 200);
  assert.equal(same.json.text, 'Nothing changed on #1: what was given is what it holds.');
  assert.deepEqual((same.json.data as { changed: string[] }).changed, []);
  assert.equal(await history(), before, 'no history row for what did not change');
  const real = await s.call('POST', '/api/edit', { body: { id: 1, title: 'Renamed', due: '2026-12-24' } });
  assert.equal(real.json.text, 'Changed #1: title, due.');
  assert.equal(await history(), before + 1);
});
