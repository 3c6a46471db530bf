/**
 * `binder sandbox` through the real bubblewrap, against the ways out an agent would try beyond
 * the store's usual place: pushing keys into the terminal it shares with the person, a keeper
 * that opened another store than the one `binder sandbox` would name, and a writable folder that
 * holds the store or the person's home. Each is shown to work without the sandbox, then to fail in it.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BINDER, ROOT, serveKeeper, runCommand, type Ran } from '../helpers/processes.js';

const HAS_BWRAP = spawnSync('bwrap', ['--ro-bind', '/', '/', 'true']).status === 0;


function home(t: TestContext): { home: string; env: NodeJS.ProcessEnv; site: string } {
  const home = mkdtempSync('/var/tmp/binder-holes-');
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`, HOME: home, LANG: 'C.UTF-8', BINDER_WAIT_MS: '10000' };
  const site = join(home, 'work', 'site');
  mkdirSync(site, { recursive: true });
  return { home, env, site };
}

const run = runCommand;

/** A command in a terminal of its own (script(1) makes a pseudo-terminal its controlling one). */
const inTerminal = (line: string, cwd: string, env: NodeJS.ProcessEnv) => run('script', ['-q', '-e', '-c', line, '/dev/null'], cwd, env);

const PUSH = 'my $c = "#"; print ioctl(STDIN, 0x5412, $c) ? "pushed\\n" : "refused: $!\\n"';

test('the agent cannot push keys into the terminal it shares with the person (TIOCSTI), and keeps the terminal', { skip: !HAS_BWRAP && 'bwrap is not installed', timeout: 60_000 }, async (t) => {
  const at = home(t);
  writeFileSync(join(at.site, 'push.pl'), PUSH);
  const outside = await inTerminal('perl push.pl', at.site, at.env);
  const legacy = spawnSync('sysctl', ['-n', 'dev.tty.legacy_tiocsti'], { encoding: 'utf8' }).stdout.trim();
  if (legacy !== '0') assert.match(outside.out, /pushed/, 'outside the sandbox this kernel lets a process push keys');
  const inside = await inTerminal(`node ${BINDER} sandbox -- perl push.pl`, at.site, at.env);
  assert.match(inside.out, /refused: Operation not permitted/, inside.out + inside.err);
  assert.doesNotMatch(inside.out, /pushed/);
  // The terminal is still the agent's to read and set (TCGETS), as an interactive agent needs.
  const kept = await inTerminal(`node ${BINDER} sandbox -- perl -e 'print ioctl(STDIN, 0x5401, $x = "\\0" x 64) ? "a terminal\\n" : "none\\n"'`, at.site, at.env);
  assert.match(kept.out, /a terminal/, kept.out + kept.err);
});

const binder = (args: string[], cwd: string, env: NodeJS.ProcessEnv) => run(process.execPath, [BINDER, ...args], cwd, env);

async function ok(ran: Promise<Ran>): Promise<string> {
  const r = await ran;
  assert.equal(r.code, 0, r.err);
  return r.out;
}

/** The agent drops the sandbox's mark and names the store itself, as a person's command would. */
const AS_PERSON = `
try() { name=$1; shift; if "$@" >/dev/null 2>&1; then echo "$name yes"; else echo "$name no"; fi; }
try approve env -u BINDER_SANDBOX BINDER_STORE="$STORE" node "$BINDER" admin approve 2
try cat sh -c '[ -s "$STORE/binder.db" ] && cat "$STORE/binder.db"'
try write touch "$STORE/planted"
`;

test('a keeper that opened a store elsewhere (BINDER_STORE in its own shell): the sandbox finds it and hides it', { skip: !HAS_BWRAP && 'bwrap is not installed', timeout: 120_000 }, async (t) => {
  const at = home(t);
  const store = join(at.home, 'elsewhere', 'store');
  const kept = { ...at.env, BINDER_STORE: store };
  await ok(binder(['admin', 'create-list', 'Batches', '--template', 'batches'], at.site, kept));
  await ok(binder(['admin', 'side', 'add', join(at.site, '.binder'), 'Claude'], at.site, kept));
  await ok(binder(['admin', 'grant', 'batches', 'Claude', 'write'], at.site, kept));
  const keeper = await serveKeeper(t, [], kept);
  await ok(binder(['add', 'Batches', 'One'], at.site, at.env));
  await ok(binder(['add', 'Batches', 'Two'], at.site, at.env));
  const script = join(at.home, 'as-person.sh');
  writeFileSync(script, AS_PERSON);
  const env = { ...at.env, BINDER, STORE: store, NODE_PATH: join(ROOT, 'node_modules') };

  // The person's shell that runs the sandbox does not name the store: only the keeper's did.
  const dry = await ok(binder(['sandbox'], at.site, at.env));
  assert.match(dry, new RegExp(`hidden: ${store} \\(the store, open in a keeper\\)`));
  const inside = await binder(['sandbox', '--', 'bash', script], at.site, env);
  assert.equal(inside.code, 0, inside.err);
  assert.deepEqual(inside.out.trim().split('\n'), ['approve no', 'cat no', 'write no']);
  assert.equal(existsSync(join(store, 'planted')), false);
  assert.doesNotMatch(await ok(binder(['admin', 'get', '2'], at.site, kept)), /approved by/i);
  const doctor = await binder(['sandbox', '--', 'node', BINDER, 'doctor'], at.site, at.env);
  assert.equal(doctor.code, 0, doctor.out + doctor.err);

  const seen = await binder(['doctor'], at.site, at.env);
  assert.equal(seen.code, 1, seen.out);
  assert.match(seen.out, new RegExp(`^HOLE  the store: ${store}/binder\\.db — you can read and write it`, 'm'), 'outside, binder doctor names the store the keeper holds');
  const outside = await run('bash', [script], at.site, env);
  assert.deepEqual(outside.out.trim().split('\n'), ['approve yes', 'cat yes', 'write yes'], outside.err);
  // Stopped before its store is removed, so that no sandbox started meanwhile hides a folder going away.
  await keeper.stop();
});

test('a writable folder that holds the store, or the home, is refused: the agent could swap the store or change what the shell runs', { skip: !HAS_BWRAP && 'bwrap is not installed', timeout: 60_000 }, async (t) => {
  const at = home(t);
  const store = join(at.site, 'data', 'store');
  const env = { ...at.env, BINDER_STORE: store };
  await ok(binder(['admin', 'create-list', 'Batches', '--template', 'batches'], at.site, env));
  // Hidden inside its work folder, the store could still be moved aside and replaced by the agent's.
  const swap = await binder(['sandbox', '--', 'sh', '-c', 'mv data data.old && mkdir -p data/store && echo planted > data/store/binder.db'], at.site, env);
  assert.equal(swap.code, 2, swap.out + swap.err);
  assert.match(swap.err, new RegExp(`^${at.site} holds the store \\(${store}\\): an agent that could write there could put a store of its own in its place`));
  assert.equal(swap.err.trim().split('\n').length, 1, swap.err);
  assert.ok(existsSync(join(store, 'binder.db')) && !existsSync(join(at.site, 'data.old')), 'the store is where it was');

  const bashrc = await binder(['sandbox', '--dir', at.home, '--', 'sh', '-c', 'echo "binder admin approve 2" >> .bashrc'], at.site, at.env);
  assert.equal(bashrc.code, 2, bashrc.out + bashrc.err);
  assert.match(bashrc.err, /holds your home folder: an agent that could write there could change what your shell runs/);
  assert.equal(existsSync(join(at.home, '.bashrc')), false, 'nothing ran');
});

test("a .binder the agent turned into a link to another agent's folder: its next run is refused, and writes nothing there", { skip: !HAS_BWRAP && 'bwrap is not installed', timeout: 60_000 }, async (t) => {
  const at = home(t);
  const other = join(at.home, 'work', 'other');
  mkdirSync(other);
  await ok(binder(['admin', 'create-list', 'Batches', '--template', 'batches'], at.site, at.env));
  await ok(binder(['admin', 'side', 'add', join(at.site, '.binder'), 'Claude'], at.site, at.env));
  await ok(binder(['admin', 'side', 'add', join(other, '.binder'), 'Other'], at.site, at.env));
  const before = readdirSync(join(other, '.binder')).sort();
  // The first run: its own folder is in its work folder, so it can put a link in its place.
  const plant = await binder(['sandbox', '--', 'sh', '-c', 'mv .binder .binder.old && ln -s ../other/.binder .binder'], at.site, at.env);
  assert.equal(plant.code, 0, plant.err);
  const next = await binder(['sandbox', '--', 'sh', '-c', 'touch .binder/planted'], at.site, at.env);
  assert.equal(next.code, 2, next.out + next.err);
  assert.match(next.err, /\.binder is a link to .*\/other\/\.binder: an agent could have made it to write in another agent's folder/);
  assert.deepEqual(readdirSync(join(other, '.binder')).sort(), before, "nothing written in Other's folder");
});
