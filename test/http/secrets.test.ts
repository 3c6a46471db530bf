/**
 * Secrets stay where they were shown: a token made over REST never reaches the keeper's log (its
 * prefix does), nor the ask ledger (a replay says it was made, by its prefix), nor the database's
 * files; a token anywhere in a URL is refused and revoked as leaked; `/healthz` says nothing of
 * the store. The one scrubber of log lines is tried on each shape of secret.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { logLine, scrubSecrets } from '../../src/keeper/log-line.js';
import { keptLine } from '../../src/keeper/kept-answers.js';
import { HOST, ann, served } from './kit.js';
import { signedInService } from './oidc-kit.js';

const person = { sub: 'u-bea', name: 'Bea Ray', email: 'bea@acme.test', email_verified: true };
const TOKEN = /binder_[A-Za-z0-9_-]{43}/;

test('the scrubber: an agent\'s token is its prefix, a key, a cookie, a page key or a provider\'s token is gone, words stay', () => {
  const token = `binder_Y3Ip7P37${'qihJdLDu5x'.repeat(3)}Ab3_-`;
  assert.equal(token.length, 50);
  assert.equal(scrubSecrets(`made ${token} for Claude`), 'made binder_Y3Ip7P37… for Claude');
  assert.equal(scrubSecrets(`/api/${token.slice(0, 40)}`), '/api/binder_Y3Ip7P37…', 'a token cut short is still one');
  const key = 'kq3L8dY0mZ2pW9xV4rT6uB1nC5sE7gH2jK0lM3oQ8aS';
  assert.equal(scrubSecrets(`http://127.0.0.1:4180/#login=${key} (one use)`), 'http://127.0.0.1:4180/#login=… (one use)');
  assert.equal(scrubSecrets('cookie: binder_session_0123456789ab=Zr8QmX2vK9pL4nB7cD1eF0; binder-page-key: aG5hJ3kL8mN2pQ6rS9tU1'),
    'cookie: …; binder-page-key: …');
  assert.equal(scrubSecrets(`a session's secret ${key} alone`), 'a session\'s secret … alone');
  assert.equal(scrubSecrets('Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1LWFubiIsImV4cCI6MTc2fQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg'), 'Authorization: Bearer …');
  assert.equal(scrubSecrets('a token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1LWFubiJ9.c2lnbmF0dXJl refused'), 'a token … refused');
  assert.equal(scrubSecrets('postgres://binder@db/binder?password=Hunter2Hunter2&sslmode=require'), 'postgres://binder@db/binder?password=…&sslmode=require');
  for (const kept of ['binder_Y3Ip7P37', 'postgres://binder@db/binder_production_2026', 'sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    '#12 a-very-long-slug-of-a-list-title-here moved', 'ERR_HTTP_HEADERS_ALREADY_SENT', '6f1c2a4e-8d3b-4c5a-9e7f-0a1b2c3d4e5f',
    '/tmp/binder-hostile-AbC1eF/agent0/.binder: 1 ask line skipped', '/home/ann/Projects/MyVeryLongProjectName/.binder', 'a session opened for Ann; exit code: 2',
    'Revoked binder_Y3Ip7P37 (Claude, agent:claude)']) {
    assert.equal(scrubSecrets(kept), kept, kept);
  }
  assert.equal(logLine(`\u001b[31mred ${token}\u001b[0m`), 'red binder_Y3Ip7P37…', 'made terminal-safe too');
});

test('a token a person makes over REST with their provider\'s token: the log has its prefix, never the token', async (t) => {
  const s = await signedInService(t);
  const access = await s.idp.token(person);
  const made = await s.call('POST', '/api/token-add', { token: access, body: { name: 'Robot' } });
  assert.equal(made.status, 200, made.json.text);
  const token = TOKEN.exec(made.json.text)?.[0] ?? '';
  assert.ok(token, 'the answer shows the token, once');
  const log = s.logs.join('\n');
  assert.match(log, new RegExp(`Bea Ray token-add done over REST \\([^)]*\\): ${token.slice(0, 15)}…`));
  assert.ok(!log.includes(token.slice(15, 35)), 'no part of the token past its prefix reaches the log');
  assert.ok(!log.includes(access.split('.')[1]!.slice(0, 20)), 'nor the provider\'s token');
});

test('the ledger never keeps a token made: a replay says it was made, by its prefix; the database files hold none of it', async (t) => {
  const s = await signedInService(t);
  const access = await s.idp.token(person);
  const key = randomUUID();
  const made = await s.call('POST', '/api/token-add', { token: access, body: { name: 'Robot' }, headers: { 'idempotency-key': key } });
  assert.equal(made.status, 200, made.json.text);
  const token = TOKEN.exec(made.json.text)?.[0] ?? '';
  assert.ok(token);
  const again = await s.call('POST', '/api/token-add', { token: access, body: { name: 'Robot' }, headers: { 'idempotency-key': key } });
  assert.equal(again.status, 200);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.match(again.json.text, new RegExp(`the token ${token.slice(0, 15)} \\(Robot's\\) was made then and shown once.*revoke it \\(binder admin token revoke ${token.slice(0, 15)}\\) and make another`));
  assert.ok(!JSON.stringify(again.json).includes(token.slice(15)), 'the replay holds no more than the prefix');
  assert.equal((await s.store.tokens(ann)).filter((x) => x.name === 'Robot').length, 1, 'made once');
  // Every byte the store wrote: the database, its write-ahead log, anything beside them.
  for (const name of readdirSync(s.storeDir)) {
    const bytes = readFileSync(join(s.storeDir, name));
    assert.ok(!bytes.includes(token.slice(15)), `${name} holds the token`);
  }
});

test('what the ledger keeps: a shown-once answer without its secret, any other answer\'s token as its prefix', () => {
  const token = `binder_AbCdEfGh${'x1Y2z3W4v5'.repeat(3)}Q6r7S`;
  const made = keptLine('token-add', { ok: true, text: `${token}\nThe token above is Robot's`, data: { token, prefix: token.slice(0, 15), name: 'Robot' } });
  assert.ok(!made.includes(token.slice(15)));
  assert.deepEqual(JSON.parse(made).data, { prefix: token.slice(0, 15), name: 'Robot' });
  const note = JSON.parse(keptLine('note', { ok: true, text: `Noted on #1: ${token}`, data: { fields: { key: 'kept', token: 'kept too' } } }, 'what'));
  assert.equal(note.text, 'Noted on #1: binder_AbCdEfGh…');
  assert.deepEqual(note.data, { fields: { key: 'kept', token: 'kept too' } }, 'a record\'s own field named key is no secret');
  assert.equal(note.asked, 'what');
  // A refusal that names what was given: its sentence (the text with its steps as data) names it too.
  const refused = keptLine('add', {
    ok: false, text: `There is no list "${token}" you can see: binder lists shows yours.`, refusal: 'access',
    sentence: [`There is no list "${token}" you can see: `, { op: 'lists', args: {} }, ' shows yours.'],
  });
  assert.ok(!refused.includes(token.slice(15)), `the ledger keeps no token: ${refused}`);
  assert.deepEqual(JSON.parse(refused).sentence[0], 'There is no list "binder_AbCdEfGh…" you can see: ');
  assert.equal(JSON.parse(refused).refusal, 'access');
});

test('a token anywhere in a URL — its path, escaped or not, on any route — is refused and revoked as leaked; the log has its prefix', async (t) => {
  const s = await served(t, { agents: ['Claude', 'Codex', 'Gemini', 'Aider'] });
  const [inPath, escaped, onPage, withOwn] = ['Claude', 'Codex', 'Gemini', 'Aider'].map((name) => s.tokens[name]!) as [string, string, string, string];
  const tries: [string, string, string | null][] = [
    [inPath, `/api/${inPath}`, null],
    [escaped, `/api/lists/${encodeURIComponent(escaped).replace('b', '%62')}`, null],
    [onPage, `/page/${onPage}`, null],
    [withOwn, `/mcp/${withOwn}`, withOwn],
  ];
  for (const [token, path, bearer] of tries) {
    const r = await s.call('GET', path, { token: bearer });
    assert.equal(r.status, 400, `${path}: ${r.json.text}`);
    assert.match(r.json.text, /counts as leaked and is revoked now/);
    assert.equal((await s.call('GET', '/api/lists', { token })).status, 401, `${path}: revoked`);
  }
  const log = s.logs.join('\n');
  for (const token of Object.values(s.tokens)) {
    assert.ok(log.includes(token.slice(0, 15)), 'the log names the prefix');
    assert.ok(!log.includes(token.slice(15, 30)), 'never more of it');
  }
});

test('/healthz says ok and the uptime, nothing of where the store is, to any Host', async (t) => {
  const s = await served(t);
  for (const host of ['10.0.0.7:4180', 'rebound.evil.example', HOST]) {
    const r = await s.http.app.request('/healthz', { headers: { host } });
    assert.equal(r.status, 200);
    const text = await r.text();
    assert.match(text, /^ok\nup \d+ s\n$/);
    assert.ok(!text.includes(s.storeDir) && !text.includes('binder.db'));
  }
});
