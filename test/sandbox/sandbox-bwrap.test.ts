/**
 * `binder sandbox` through the real bubblewrap: a keeper runs as the test's user; one attack
 * script, run inside the sandbox and then outside it, tries what an agent would to act as the
 * person — `binder admin approve`, the store through SQLite, `cat` and writing in its folder,
 * another agent's folder, the keeper's process, a PostgreSQL password file. Inside, each fails
 * and the binder is unchanged while the agent's own verbs work; outside, each succeeds: the
 * difference is the sandbox's. Also `binder doctor` inside (0) and out (1), `binder-mcp` and
 * `binder --url` inside, and a missing bubblewrap.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BINDER, BINDER_MCP, ROOT, serveKeeper, runCommand, type Ran } from '../helpers/processes.js';

const HAS_BWRAP = spawnSync('bwrap', ['--ro-bind', '/', '/', 'true']).status === 0;


/** A person's home outside /tmp (the sandbox's /tmp is its own): the store in its default place. */
function home(t: TestContext): { home: string; env: NodeJS.ProcessEnv; site: string; other: string; store: string } {
  const home = mkdtempSync('/var/tmp/binder-sandbox-');
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`, HOME: home, LANG: 'C.UTF-8', BINDER_WAIT_MS: '10000' };
  const site = join(home, 'work', 'site');
  const other = join(home, 'work', 'other');
  mkdirSync(site, { recursive: true });
  mkdirSync(other, { recursive: true });
  return { home, env, site, other, store: join(home, '.local', 'share', 'binder') };
}

const run = runCommand;

const binder = (args: string[], cwd: string, env: NodeJS.ProcessEnv) => run(process.execPath, [BINDER, ...args], cwd, env);
const sandboxed = (command: string[], cwd: string, env: NodeJS.ProcessEnv) => binder(['sandbox', '--', ...command], cwd, env);

async function ok(ran: Promise<Ran>): Promise<string> {
  const r = await ran;
  assert.equal(r.code, 0, r.err);
  return r.out;
}

/** A binder with a gated list, Claude's and Other's folders, a keeper serving them, and #1 approved, #2 not. */
async function binderKept(t: TestContext, http?: number) {
  const at = home(t);
  const { env, site, other } = at;
  await ok(binder(['admin', 'create-list', 'Batches', '--template', 'batches'], site, env));
  await ok(binder(['admin', 'side', 'add', join(site, '.binder'), 'Claude'], site, env));
  await ok(binder(['admin', 'side', 'add', join(other, '.binder'), 'Other'], site, env));
  await ok(binder(['admin', 'grant', 'batches', 'Claude', 'write'], site, env));
  await ok(binder(['admin', 'grant', 'batches', 'Other', 'write'], site, env));
  writeFileSync(join(at.home, '.pgpass'), 'db.example:5432:*:ann:s3cret-pg\n', { mode: 0o600 });
  const keeper = await serveKeeper(t, http ? ['--http', `127.0.0.1:${http}`] : [], env);
  await ok(binder(['add', 'Batches', 'Dark mode'], site, env));
  await ok(binder(['add', 'Batches', 'Not yet approved'], site, env));
  await ok(binder(['admin', 'approve', '1'], site, env));
  return { ...at, keeper };
}

/** Each attack prints "NAME yes" when it got through, "NAME no" when it did not. */
const ATTACKS = `
try() { name=$1; shift; if "$@" >/dev/null 2>&1; then echo "$name yes"; else echo "$name no"; fi; }
try approve node "$BINDER" admin approve 2
try approve-as-ann node "$BINDER" admin --as Ann approve 2
try sqlite node -e 'const db = require("better-sqlite3")(process.env.STORE + "/binder.db", { fileMustExist: true }); db.prepare("update records set title = title").run()'
try cat sh -c '[ -s "$STORE/binder.db" ] && cat "$STORE/binder.db"'
try write-store touch "$STORE/planted"
try write-other touch "$OTHER/.binder/planted"
try list-store sh -c 'ls -A "$HOME/.local/share/binder" | grep -q binder.db'
try kill kill -0 "$KEEPER_PID"
try proc grep -q serve "/proc/$KEEPER_PID/cmdline"
try pgpass grep -q s3cret-pg "$HOME/.pgpass"
`;

test('inside binder sandbox every attack fails and nothing changes; the agent works; outside the same attacks succeed', { skip: !HAS_BWRAP && 'bwrap is not installed', timeout: 120_000 }, async (t) => {
  const b = await binderKept(t);
  const script = join(b.home, 'attack.sh');
  writeFileSync(script, ATTACKS);
  const env = { ...b.env, BINDER, STORE: b.store, OTHER: b.other, KEEPER_PID: String(b.keeper.child.pid), NODE_PATH: join(ROOT, 'node_modules') };
  const before = await ok(binder(['admin', 'export', '--format', 'markdown'], b.site, b.env));

  const inside = await sandboxed(['bash', script], b.site, env);
  assert.equal(inside.code, 0, inside.err);
  const names = ['approve', 'approve-as-ann', 'sqlite', 'cat', 'write-store', 'write-other', 'list-store', 'kill', 'proc', 'pgpass'];
  assert.deepEqual(inside.out.trim().split('\n'), names.map((name) => `${name} no`));
  assert.equal(await ok(binder(['admin', 'export', '--format', 'markdown'], b.site, b.env)), before, 'nothing changed in the binder');
  assert.ok(!existsSync(join(b.store, 'planted')) && !existsSync(join(b.other, '.binder', 'planted')));

  // The person's commands say in one sentence whose process this is.
  for (const verb of [['tui'], ['serve', '--no-tui'], ['admin', 'approve', '2']]) {
    const r = await sandboxed(['node', BINDER, ...verb], b.site, env);
    assert.equal(r.code, 2, verb.join(' '));
    assert.equal(r.out, '');
    assert.match(r.err, /^binder \w+ is a person's command, and this process is an agent's: it runs in binder sandbox, where the binder is out of its reach/);
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
  }

  // The agent's own verbs work through its folder.
  const work = await sandboxed(['sh', '-c', 'node "$BINDER" add Batches "From inside" && node "$BINDER" take --next Batches && node "$BINDER" note 1 "done inside"'], b.site, env);
  assert.equal(work.code, 0, work.err);
  assert.match(work.out, /Added #3 to batches/);
  assert.match(work.out, /#1/);
  assert.match(work.out, /Noted on #1/);

  const outside = await run('bash', [script], b.site, env);
  assert.deepEqual(outside.out.trim().split('\n'), names.map((name) => `${name} yes`), outside.err);
  assert.match(await ok(binder(['admin', 'get', '2'], b.site, b.env)), /approved/i, 'outside, the approval went through');
});

test('binder doctor: contained inside the sandbox (0), not outside (1, naming the store and the keeper)', { skip: !HAS_BWRAP && 'bwrap is not installed', timeout: 60_000 }, async (t) => {
  const b = await binderKept(t);
  const inside = await sandboxed(['node', BINDER, 'doctor'], b.site, b.env);
  assert.equal(inside.code, 0, inside.out + inside.err);
  assert.match(inside.out, /^ok {4}your folder: .*\.binder, writable/m);
  assert.match(inside.out, /^Contained \(in binder sandbox\)/m);
  assert.doesNotMatch(inside.out, /HOLE/);

  const outside = await binder(['doctor'], b.site, b.env);
  assert.equal(outside.code, 1, outside.out + outside.err);
  assert.match(outside.out, new RegExp(`^HOLE  the store: ${join(b.store, 'binder.db').replace(/[.]/g, '\\.')} — you can read and write it`, 'm'));
  assert.match(outside.out, new RegExp(`^HOLE  a person's file: ${b.home}/\\.pgpass`, 'm'));
  assert.match(outside.out, new RegExp(`the keeper's processes: .*${b.keeper.child.pid}`));
  assert.match(outside.out, /what to do: run the agent in `binder sandbox -- COMMAND`/);
  assert.match(outside.out, /^Not contained/m);
});

test('binder-mcp (its doctor tool too) and binder --url work inside the sandbox', { skip: !HAS_BWRAP && 'bwrap is not installed', timeout: 60_000 }, async (t) => {
  const port = await new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
  const b = await binderKept(t, port);
  const transport = new StdioClientTransport({ command: process.execPath, args: [BINDER, 'sandbox', '--', process.execPath, BINDER_MCP], cwd: b.site, env: b.env as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'sandbox-test', version: '0' });
  await client.connect(transport);
  t.after(() => client.close());
  const listed = await client.callTool({ name: 'show', arguments: { list: 'Batches' } });
  assert.notEqual(listed.isError, true, JSON.stringify(listed));
  assert.match(JSON.stringify(listed.content), /Dark mode/);
  const doctor = await client.callTool({ name: 'doctor', arguments: {} });
  assert.match((doctor.content as { text: string }[])[0]!.text, /^Contained \(in binder sandbox\)/m, 'the doctor tool examines binder-mcp\'s own process');

  const made = await ok(binder(['admin', 'token', 'add', 'Claude', '--expires', '1d'], b.site, b.env));
  const token = /binder_[A-Za-z0-9_-]+/.exec(made)?.[0];
  assert.ok(token, made);
  const nowhere = join(b.home, 'nowhere');
  mkdirSync(nowhere);
  const over = await sandboxed(['node', BINDER, 'show', 'Batches'], nowhere, { ...b.env, BINDER_URL: `http://127.0.0.1:${port}`, BINDER_TOKEN: token });
  assert.equal(over.code, 0, over.err);
  assert.match(over.out, /Dark mode/);
});

test('binder sandbox with no --: a dry run naming what it hides and allows; runs nothing', { skip: !HAS_BWRAP && 'bwrap is not installed', timeout: 60_000 }, async (t) => {
  const at = home(t);
  mkdirSync(at.store, { recursive: true });
  mkdirSync(join(at.site, '.binder'));
  const r = await binder(['sandbox'], at.site, at.env);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`writable: ${at.site} \\(the working directory\\)`));
  assert.match(r.out, new RegExp(`hidden: ${at.store} \\(the store\\)`));
  assert.match(r.out, /its own processes: it cannot see, signal or trace yours/);
  assert.match(r.out, /Run an agent in it: binder sandbox -- claude/);
});

test('without bubblewrap: one sentence naming the package, exit 2, nothing run', { timeout: 60_000 }, async (t) => {
  const at = home(t);
  const marker = join(at.home, 'ran');
  // A PATH that holds no bwrap (node is run by its full path).
  const empty = join(at.home, 'bin');
  mkdirSync(empty);
  const env = { ...at.env, PATH: empty };
  const r = await binder(['sandbox', '--', '/bin/sh', '-c', `echo > ${marker}`], at.site, env);
  assert.equal(r.code, 2);
  assert.equal(r.out, '');
  assert.match(r.err, /^bubblewrap is missing: install it \(apt install bubblewrap/);
  assert.equal(r.err.trim().split('\n').length, 1);
  assert.equal(existsSync(marker), false, 'nothing was run');
});

test("docs/agents.md's commands run as written (with binder doctor as the agent)", { skip: !HAS_BWRAP && 'bwrap is not installed', timeout: 60_000 }, async (t) => {
  const at = home(t);
  const bin = join(at.home, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'binder'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BINDER)} "$@"\n`, { mode: 0o755 });
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BINDER)} doctor\n`, { mode: 0o755 });
  const env = { ...at.env, PATH: `${bin}:${at.env.PATH}` };
  await ok(binder(['admin', 'create-list', 'Batches', '--template', 'batches'], at.site, env));
  await ok(binder(['admin', 'side', 'add', join(at.site, '.binder'), 'Claude'], at.site, env));
  const lines = readFileSync(join(ROOT, 'docs', 'agents.md'), 'utf8').split('\n')
    .filter((line) => line.startsWith('    binder ')).map((line) => line.slice(4));
  assert.deepEqual(lines, ['binder sandbox --dir ~/work/site -- claude', 'binder sandbox --dir ~/work/site']);
  const [contained, dry] = await Promise.all(lines.map((line) => run('/bin/sh', ['-c', line], at.home, env)));
  assert.equal(contained!.code, 0, contained!.out + contained!.err);
  assert.match(contained!.out, /^Contained \(in binder sandbox\)/m);
  assert.equal(dry!.code, 0, dry!.err);
  assert.match(dry!.out, new RegExp(`hidden: ${at.store} \\(the store\\)`));
});
