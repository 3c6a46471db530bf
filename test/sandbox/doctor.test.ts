/**
 * `binder doctor` on what the bubblewrap test leaves aside: a PostgreSQL server that trusts its
 * user (a hole outside, hidden inside the sandbox) and an agent that asks over HTTP.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BINDER, runCommand, type Ran } from '../helpers/processes.js';
import { cluster, postgresMissing } from '../helpers/postgres.js';

const HAS_BWRAP = spawnSync('bwrap', ['--ro-bind', '/', '/', 'true']).status === 0;


const binder = (args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> => run(process.execPath, [BINDER, ...args], cwd, env);

const run = runCommand;

/** A home with a work folder holding the agent's folder (binder sandbox never makes a home writable). */
function home(t: { after: (fn: () => void) => void }): { home: string; work: string; env: NodeJS.ProcessEnv } {
  const home = mkdtempSync('/var/tmp/binder-doctor-');
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const work = join(home, 'work');
  mkdirSync(join(work, '.binder'), { recursive: true });
  return { home, work, env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: home } };
}

test('a PostgreSQL that trusts the user: a hole outside, named with what to do; hidden inside the sandbox', { skip: (!HAS_BWRAP && 'bwrap is not installed') || postgresMissing() || false, timeout: 60_000 }, async (t) => {
  const pg = await cluster();
  const at = home(t);
  const env = { ...at.env, PGHOST: pg.host, PGUSER: pg.user };
  const outside = await binder(['doctor'], at.work, env);
  assert.equal(outside.code, 1, outside.out + outside.err);
  assert.match(outside.out, /^HOLE {2}PostgreSQL at the PG\* environment let this process in as binder without a password\n {6}what to do: make the server ask a password of every connection \(scram-sha-256/m);

  const inside = await binder(['sandbox', '--', process.execPath, BINDER, 'doctor'], at.work, env);
  assert.doesNotMatch(inside.out, /HOLE {2}PostgreSQL/, inside.out);
  assert.match(inside.out, /^ok {4}PostgreSQL at the PG\* environment: this process was not let in/m);
  assert.equal(inside.code, 0, inside.out + inside.err);
});

test('an agent asking over HTTP: doctor says so, and finds it contained in the sandbox', { skip: !HAS_BWRAP && 'bwrap is not installed', timeout: 60_000 }, async (t) => {
  const at = home(t);
  const inside = await binder(['sandbox', '--', process.execPath, BINDER, '--url', 'http://127.0.0.1:9', 'doctor'], at.work, at.env);
  assert.equal(inside.code, 0, inside.out + inside.err);
  assert.match(inside.out, /^ok {4}you ask over HTTP: http:\/\/127\.0\.0\.1:9/m);
  assert.match(inside.out, /^Contained/m);
});

/** In a network namespace of its own (so no other test sees it): an X11 display on an abstract socket, and the sandboxed doctor. */
const WITH_DISPLAY = `
const { createServer } = require('node:net');
const { spawn } = require('node:child_process');
const [binder, work, name] = process.argv.slice(1);
const display = createServer(() => {}).listen('\\0' + name, () => {
  const child = spawn(process.execPath, [binder, 'sandbox', '--', process.execPath, binder, 'doctor'], { cwd: work, stdio: 'inherit' });
  child.on('exit', (code) => { display.close(); process.exitCode = code; });
});
`;

test('an X11 display on an abstract socket: binder doctor in the sandbox names it a hole, as the network is shared', { skip: (!HAS_BWRAP && 'bwrap is not installed') || (spawnSync('unshare', ['--net', 'true']).status !== 0 && 'unshare --net is not allowed here'), timeout: 60_000 }, async (t) => {
  const at = home(t);
  const name = '/tmp/.X11-unix/X0';
  const inside = await run('unshare', ['--net', process.execPath, '-e', WITH_DISPLAY, BINDER, at.work, name], at.work, at.env);
  assert.equal(inside.code, 1, inside.out + inside.err);
  assert.match(inside.out, /^HOLE {2}an X11 display listens on the abstract socket @\/tmp\/\.X11-unix\/X0: reachable from any sandbox that keeps the network, it can type into your terminal/m);
  assert.match(inside.out, /what to do: run the agent where no display or bus listens on an abstract socket/);
});
