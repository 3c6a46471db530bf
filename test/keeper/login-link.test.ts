/**
 * `binder admin login-link` and `binder admin sessions` against a running `binder serve --http`:
 * the server prints a link at start to a terminal alone (tmux; to a pipe it says how to make one,
 * and makes none), and says where it answers beside the store (serving.json,
 * its owner's alone); a link made by admin opens a session once; sessions are listed and
 * revoked; with no server, the command says so (exit 3) and makes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { binder, serveKeeper } from '../helpers/processes.js';
import { hasTmux, NO_TMUX, startScreen } from '../tui/tmux-screen.js';
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
  // Its output is a pipe, not a terminal: no link is made nor printed there, and it says how to get one.
  assert.match(keeper.out(), /^No login link here \(this output is no terminal\): binder admin login-link gives one/m);
  assert.doesNotMatch(keeper.out(), /#login=/);
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

test('a link is printed to a terminal (tmux), where the person is; a pipe, even --quiet, gets none and no link is made', { timeout: 60_000 }, async (t) => {
  if (!hasTmux) return t.skip(NO_TMUX);
  const root = tempDir(t);
  const store = join(root, 'store');
  assert.equal(binder(['admin', '--store', store, 'create-list', 'Batches', '--template', 'batches']).code, 0);
  const piped = await serveKeeper(t, ['--store', store, '--http', '127.0.0.1:0', '--quiet', '--as', 'Ann']);
  const url = /Answering on (http:\/\/[^ ]+) too/.exec(piped.out())?.[1] ?? '';
  assert.ok(url, piped.out());
  assert.doesNotMatch(piped.out() + piped.err(), /#login=/);
  assert.match(piped.out(), /binder admin login-link/);
  assert.equal(await piped.stop(), 0);
  const db = new Database(join(store, 'binder.db'), { readonly: true });
  assert.equal((db.prepare('SELECT count(*) AS n FROM login_links').get() as { n: number }).n, 0, 'no link was made for nobody to see');
  db.close();
  const term = await startScreen(t, { run: ['serve', '--no-tui', '--store', '{store}', '--http', '127.0.0.1:0', '--quiet', '--as', 'Ann'], size: [200, 20],
    prepare: (s) => s.createList({ template: 'tasks' }, { id: 'person:Ann', kind: 'person', name: 'Ann' }) });
  const shown = await term.until((s) => /Your page: http:\/\/127\.0\.0\.1:\d+\/#login=[A-Za-z0-9_-]{43} \(one use/.test(s), 'the login link on the terminal', 20_000);
  const link = /http:\/\/127\.0\.0\.1:\d+\/#login=[A-Za-z0-9_-]{43}/.exec(shown)![0];
  const at = link.slice(0, link.indexOf('/#'));
  const opened = await fetch(`${at}/page/login`, { method: 'POST', headers: { origin: at, 'content-type': 'application/json' }, body: JSON.stringify({ key: keyOf(link) }) });
  assert.equal(opened.status, 200, 'the link printed opens the page');
  term.keys('C-c');
  await term.until(() => term.exitCode() !== null, 'the keeper to stop');
});
