/** The sandbox's plan, its bubblewrap line and its Seatbelt profile, from a file system made up in the test. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bwrapArgs } from '../../src/sandbox/bwrap.js';
import { readSandboxLine } from '../../src/sandbox/run-sandbox.js';
import { planSandbox, sandboxEnv, SandboxRefusal, type LookAt } from '../../src/sandbox/sandbox-plan.js';
import { sbplString, seatbeltProfile } from '../../src/sandbox/seatbelt.js';

const DIRS = new Set(['/', '/home', '/home/ann', '/home/ann/.local', '/home/ann/work/site', '/home/ann/work/site/.binder', '/home/ann/.local/share/binder', '/home/ann/.mozilla',
  '/run/postgresql', '/home/ann/work/site/store', '/run/user/1000', '/home/ann/notes', '/tmp/clone', '/tmp/clone/store']);
const FILES = new Set(['/home/ann/.pgpass', '/home/ann/secret.pass']);
const look: LookAt = (path) => (DIRS.has(path) ? { kind: 'dir', real: path } : FILES.has(path) ? { kind: 'file', real: path } : undefined);
const where = (env: NodeJS.ProcessEnv = {}) => ({ cwd: '/home/ann/work/site', home: '/home/ann', uid: 1000, env: { HOME: '/home/ann', ...env } });
const ask = (over: Partial<{ dir: string; allowWrite: string[]; allowRead: string[] }> = {}) => ({ allowWrite: [], allowRead: [], ...over });

test('the plan: the work folder and the agent folder writable; the store, a password file, the sockets and a browser profile hidden', () => {
  const plan = planSandbox(ask(), where(), look);
  assert.equal(plan.work, '/home/ann/work/site');
  assert.equal(plan.folder, '/home/ann/work/site/.binder');
  assert.deepEqual(plan.writable.map((w) => w.path), ['/home/ann/work/site']);
  const hidden = Object.fromEntries(plan.hidden.map((h) => [h.path, h.kind]));
  assert.deepEqual(hidden, {
    '/home/ann/.local/share/binder': 'dir', '/home/ann/.pgpass': 'file', '/run/postgresql': 'dir', '/home/ann/.mozilla': 'dir', '/run/user/1000': 'dir',
  });
});

test('a store named in BINDER_STORE is hidden; what is hidden inside a writable path is hidden after it was bound', () => {
  const plan = planSandbox(ask({ allowWrite: ['/run/user/1000'] }), where({ BINDER_STORE: '/home/ann/notes', PGPASSFILE: '/home/ann/secret.pass' }), look);
  assert.ok(plan.hidden.some((h) => h.path === '/home/ann/notes' && h.why === 'the store'));
  assert.ok(plan.hidden.some((h) => h.path === '/home/ann/secret.pass'));
  const args = bwrapArgs(plan);
  const bound = args.indexOf('/run/user/1000');
  const hid = args.lastIndexOf('/run/user/1000');
  assert.ok(bound > 0 && hid > bound, 'the sockets are hidden after they are bound, so the hiding wins');
  assert.deepEqual(args.slice(0, 3), ['--ro-bind', '/', '/']);
  assert.ok(args.includes('--unshare-pid') && args.includes('--proc'));
  assert.equal(args.at(-1), '--');
});

test('Binder and Node under /tmp are shown again read-only over the private /tmp, and a store under them stays hidden', () => {
  const plan = planSandbox(ask(), where({ BINDER_STORE: '/tmp/clone/store' }), look);
  const args = bwrapArgs(plan, undefined, ['/tmp/clone', '/usr']);
  const tmp = args.indexOf('/tmp');
  const shown = args.findIndex((a, i) => a === '/tmp/clone' && args[i - 1] === '/tmp/clone' && args[i - 2] === '--ro-bind');
  assert.ok(shown > tmp, 'the clone is bound after the private /tmp');
  assert.ok(!args.includes('/usr'), 'a program outside /tmp is visible already');
  assert.ok(args.lastIndexOf('/tmp/clone/store') > shown, 'the store inside it is hidden after it');
});

test('an --allow-write into the store is refused; one of nothing is refused; --allow-read shows a hidden path again', () => {
  assert.throws(() => planSandbox(ask({ allowWrite: ['/home/ann/.local/share/binder'] }), where(), look), (e: Error) => e instanceof SandboxRefusal && /in the store/.test(e.message));
  assert.throws(() => planSandbox(ask({ allowWrite: ['/nowhere'] }), where(), look), /nothing at \/nowhere/);
  // Writable around the store: the agent could move it aside and put its own in its place.
  assert.throws(() => planSandbox(ask(), where({ BINDER_STORE: '/home/ann/work/site/store' }), look), /^Error: \/home\/ann\/work\/site holds the store \(\/home\/ann\/work\/site\/store\)/);
  assert.throws(() => planSandbox(ask({ allowWrite: ['/home/ann/.local'] }), where(), look), /holds the store/);
  // Writable home or above: the agent could change what the person's shell runs.
  for (const dir of ['/home/ann', '/home', '/']) {
    assert.throws(() => planSandbox(ask({ dir }), where({ BINDER_STORE: '/home/ann/notes' }), look), /holds your home folder: .* Run it in a project folder/);
  }
  assert.throws(() => planSandbox(ask({ dir: '/nowhere' }), where(), look), /no folder at \/nowhere/);
  const plan = planSandbox(ask({ allowWrite: ['../../notes'], allowRead: ['/home/ann/.mozilla'] }), where(), look);
  assert.deepEqual(plan.writable.at(-1), { path: '/home/ann/notes', why: 'allowed (--allow-write)' });
  const args = bwrapArgs(plan);
  assert.ok(args.lastIndexOf('/home/ann/.mozilla') > args.indexOf('--remount-ro'), 'read again after it was hidden');
  for (const allowRead of ['/home/ann/.local/share/binder', '/home/ann/.local']) {
    assert.throws(() => planSandbox(ask({ allowRead: [allowRead] }), where(), look), /reaches the store \(\/home\/ann\/\.local\/share\/binder\), which an agent never reads/);
  }
});

test("the agent's environment: no store, no PostgreSQL password or URL, and marked as inside", () => {
  const env = { HOME: '/home/ann', PATH: '/usr/bin', BINDER_STORE: 'postgres://ann:pw@db/binder', PGPASSWORD: 'pw', DATABASE_URL: 'postgresql://x:y@h/d', PGHOST: '/run/postgresql',
    PG_CONNINFO: 'host=db dbname=binder password=pw', BINDER_OIDC_CLIENT_SECRET: 'oidc' };
  const plan = planSandbox(ask(), where(env), look);
  const inside = sandboxEnv(plan, env);
  assert.deepEqual(inside, { HOME: '/home/ann', PATH: '/usr/bin', PGHOST: '/run/postgresql', BINDER_SANDBOX: '1' });
});

test('the command line: options before --, the command after; no -- is a dry run; anything else is said', () => {
  assert.deepEqual(readSandboxLine(['--dir', 'x', '--allow-write=y', '--allow-read', 'z', '--', 'claude', '--resume']),
    { ask: { dir: 'x', allowWrite: ['y'], allowRead: ['z'] }, command: ['claude', '--resume'] });
  assert.deepEqual(readSandboxLine([]), { ask: { dir: undefined, allowWrite: [], allowRead: [] }, command: undefined });
  assert.match((readSandboxLine(['claude']) as { problem: string }).problem, /comes after --/);
  assert.match((readSandboxLine(['--dir']) as { problem: string }).problem, /--dir needs a path/);
});

test('the Seatbelt profile: read-only but for the work folder, the folder and its TMPDIR; the hidden denied; others not signalled', () => {
  const plan = planSandbox(ask(), where({ BINDER_STORE: '/home/ann/notes' }), look);
  const profile = seatbeltProfile(plan, '/private/tmp/binder-sandbox-1');
  const lines = profile.split('\n');
  assert.equal(lines[0], '(version 1)');
  const denyWrite = lines.indexOf('(deny file-write*)');
  const allowWrite = lines.indexOf('(allow file-write*');
  const denyHidden = lines.indexOf('(deny file-read* file-write* network-outbound');
  assert.ok(denyWrite > 0 && allowWrite > denyWrite && denyHidden > allowWrite, 'later rules win: the hidden are denied after the writable are allowed');
  assert.match(profile, /\(subpath "\/home\/ann\/work\/site"\)/);
  assert.match(profile, /\(subpath "\/private\/tmp\/binder-sandbox-1"\)/);
  assert.match(profile, /\(subpath "\/home\/ann\/notes"\)/);
  assert.match(profile, /\(literal "\/home\/ann\/\.pgpass"\)/);
  assert.match(profile, /\(deny signal process-info\*\)\n\(allow signal process-info\* \(target same-sandbox\)\)/);
  // Parentheses balance: each rule is closed.
  let depth = 0;
  for (const c of profile.replace(/"(?:\\.|[^"\\])*"/g, '""')) depth += c === '(' ? 1 : c === ')' ? -1 : 0;
  assert.equal(depth, 0);
});

test('a path cannot break out of its string in the profile', () => {
  assert.equal(sbplString('/a "b"\\c'), '"/a \\"b\\"\\\\c"');
  assert.equal(sbplString('/a\n(allow default)'), '"/a\\x0a(allow default)"');
});
