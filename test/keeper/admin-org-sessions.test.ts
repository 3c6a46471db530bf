/**
 * `binder admin --org ORG` on a signed-in service's store: the hints it prints keep `--org ORG`
 * (copied, they act on the same binder), `sessions` lists and ends that organisation's sessions
 * alone, and `login-link` is refused with the sentence the page gives (people sign in through the
 * provider there), with or without --org, before any address is sought.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openBinders } from '../../src/keeper/binders.js';
import type { Who } from '../../src/store/index.js';
import { binder } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const ann: Who = { id: 'person:idp.test/ann', kind: 'person', name: 'Ann Lee', email: 'ann@acme.test' };
const bea: Who = { id: 'person:idp.test/bea', kind: 'person', name: 'Bea Ho', email: 'bea@other.test' };

test('--org hints, an organisation\'s sessions, and no login link where a provider signs people in', async (t) => {
  const service = join(tempDir(t), 'service');
  const binders = await openBinders({ kind: 'sqlite', dir: service }, { start: false, log: () => {} });
  try {
    await binders.service.markSignIn('https://idp.test/realms/acme');
    await (await binders.of('acme.test')).store.signIn(ann);
    await (await binders.of('other.test')).store.signIn(bea);
    await binders.service.openSession(ann, 'acme.test', 'Firefox');
    await binders.service.openSession(bea, 'other.test', 'Chromium');
  } finally {
    await binders.close();
  }
  const admin = (...args: string[]) => binder(['admin', '--store', service, '--as', 'root', ...args]);

  const made = admin('--org', 'acme.test', 'create-list', 'Work', '--template', 'tasks');
  assert.equal(made.code, 0, made.err);
  const hint = /binder admin --org acme\.test grant \S+ AGENT write/.exec(made.out);
  assert.ok(hint, `the hint keeps --org: ${made.out}`);
  assert.doesNotMatch(made.out, /binder admin (?!--org acme\.test )/, 'every hint keeps it');

  const sessions = admin('--org', 'acme.test', 'sessions');
  assert.equal(sessions.code, 0, sessions.err);
  assert.match(sessions.out, /Ann Lee/);
  assert.doesNotMatch(sessions.out, /Bea Ho/);
  const ended = admin('--org', 'acme.test', 'sessions', '--revoke', 'all');
  assert.equal(ended.code, 0, ended.err);
  assert.match(ended.out, /^Ended one session: .+ \(Ann Lee\)\.$/m);
  assert.match(admin('sessions').out, /Bea Ho/, 'the other organisation\'s session is open still');
  assert.equal(admin('--org', 'acme.test', 'sessions').out, 'No session is open.\n');

  for (const args of [['login-link'], ['--org', 'acme.test', 'login-link'], ['--org', 'acme.test', 'login-link', '--url', 'https://binder.example']]) {
    const link = admin(...args);
    assert.equal(link.code, 1, args.join(' '));
    assert.match(link.err, /Not done: This binder signs people in through idp\.test: there are no login links\. Open the page and choose "Sign in with idp\.test"\./);
    assert.doesNotMatch(link.out, /login=/);
  }
});
