/**
 * `binder admin login-link` and `binder admin sessions` against a running `binder serve --http`:
 * the server prints a link at start and says where it answers beside the store (serving.json,
 * its owner's alone); a link made by admin opens a session once; sessions are listed and
 * revoked; with no server, the command says so (exit 3) and makes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { binder, serveKeeper } from '../helpers/processes.js';
import { tempDir, until } from '../helpers/temp.js';

const keyOf = (link: string): string => /#login=([A-Za-z0-9_-]{43})/.exec(link)?.[1] ?? '';

test('login-link gives a link to the running server\'s page; it opens one session; sessions lists and revokes it', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const store = join(root, 'store');
  assert.equal(binder(['admin', '--store', store, 'create-list', 'Batches', '--template', 'batches']).code, 0);
  const none = binder(['admin', '--store', store, 'login-link', '--as', 'Ann']);
  assert.equal(none.code, 3);
  assert.match(none.err, /no server keeps this binder over HTTP/);
  const keeper = await serveKeeper(t, ['--store', store, '--side', `${join(root, '.binder')}=Claude`, '--http', '127.0.0.1:0', '--as', 'Ann']);
  const url = /Answering on (http:\/\/[^ ]+) too/.exec(keeper.out())?.[1] ?? '';
  assert.match(keeper.out(), new RegExp(`Your page: ${url}/#login=[A-Za-z0-9_-]{43} \\(one use`));
  await until(() => existsSync(join(store, 'serving.json')), 5000);
  assert.equal(statSync(join(store, 'serving.json')).mode & 0o777, 0o600);
  const made = binder(['admin', '--store', store, 'login-link', '--as', 'Bea']);
  assert.equal(made.code, 0, made.err);
  assert.ok(made.out.startsWith(`${url}/#login=`), made.out);
  const login = (key: string) => fetch(`${url}/page/login`, { method: 'POST', headers: { origin: url, 'content-type': 'application/json' }, body: JSON.stringify({ key }) });
  const first = await login(keyOf(made.out));
  assert.equal(first.status, 200);
  assert.equal((await login(keyOf(made.out))).status, 403);
  // The session's two halves: the cookie, and the page's own, which the page sends in a header.
  const cookie = { cookie: (first.headers.get('set-cookie') ?? '').split(';')[0]!, 'binder-page-key': ((await first.json()) as { data: { key: string } }).data.key };
  assert.equal((await fetch(`${url}/page/api/lists`, { headers: cookie })).status, 200);
  const listed = binder(['admin', '--store', store, 'sessions']);
  assert.match(listed.out, /^\S+ {2}Bea {2}signed in /);
  const revoked = binder(['admin', '--store', store, 'sessions', '--revoke', 'Bea']);
  assert.equal(revoked.code, 0, revoked.err);
  assert.equal((await fetch(`${url}/page/api/lists`, { headers: cookie })).status, 401);
  assert.equal(await keeper.stop(), 0);
  assert.ok(!existsSync(join(store, 'serving.json')), 'taken back when the server stops');
});

test('on PostgreSQL, login-link asks for the page\'s address (no keeper writes where it answers), and with --url gives a link', { timeout: 60_000 }, async (t) => {
  const { cluster, postgresMissing } = await import('../helpers/postgres.js');
  const missing = postgresMissing();
  if (missing) { t.skip(missing); return; }
  const url = (await cluster()).database();
  const none = binder(['admin', '--store', url, 'login-link', '--as', 'Ann']);
  assert.equal(none.code, 3);
  assert.match(none.err, /this binder is in PostgreSQL.*--url/);
  const made = binder(['admin', '--store', url, 'login-link', '--as', 'Ann', '--url', 'https://binder.example']);
  assert.equal(made.code, 0, made.err);
  assert.match(made.out, /^https:\/\/binder\.example\/#login=[A-Za-z0-9_-]{43}\n/);
});
