/**
 * `binder doctor`: run where an agent runs, says what this process can reach — its folder, the
 * store, `binder admin`, a person's files, the keeper's processes, a PostgreSQL that trusts this
 * OS user — and what to do about each hole. Exit 0 when contained, 1 otherwise. It only looks:
 * it opens the store file for reading at most, writes nothing, and signals with signal 0 alone.
 */
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { findFolder } from '../agent/find-folder.js';
import { storeFolder, whereStore } from '../keeper/store-place.js';
import { lookOnDisk } from './run-sandbox.js';
import { storesInUse } from './stores-in-use.js';

export interface Finding { hole: boolean; what: string; fix?: string }

const can = (path: string, mode: number): boolean => {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
};

/** Whether a file can really be opened for reading (access() says yes to an empty hiding file too). */
const readable = (path: string): boolean => {
  try {
    return readFileSync(path).length > 0;
  } catch {
    return false;
  }
};

const SANDBOX = 'run the agent in `binder sandbox -- COMMAND` (or its tool\'s own sandbox, docs/agents.md)';

/** How this process asks: `--dir`, `--url` (else BINDER_URL), as `binder` would. */
export interface DoctorAsk { dir?: string | undefined; url?: string | undefined }

function folderFinding(env: NodeJS.ProcessEnv, cwd: string, ask: DoctorAsk): Finding {
  const url = ask.url ?? env.BINDER_URL;
  if (url) return { hole: false, what: `you ask over HTTP: ${url}, with the token you were given` };
  const found = findFolder({ dir: ask.dir, env, cwd });
  if (!found.found) return { hole: false, what: `your folder: none found (${found.why})`, fix: 'give --dir FOLDER, or ask a person to register one' };
  return can(found.folder, constants.W_OK)
    ? { hole: false, what: `your folder: ${found.folder}, writable (your asks go there)` }
    : { hole: false, what: `your folder: ${found.folder}, not writable here`, fix: 'the sandbox must allow writing it (--allow-write)' };
}

function storeFindings(env: NodeJS.ProcessEnv, home: string): Finding[] {
  const spec = whereStore(undefined, env);
  const dirs = new Set([storeFolder(undefined, { ...env, BINDER_STORE: undefined }), join(home, '.local', 'share', 'binder')]);
  if (spec.kind === 'sqlite') dirs.add(spec.dir);
  // A keeper this process can see may hold a store that this environment does not name.
  for (const dir of storesInUse()) dirs.add(dir);
  const findings: Finding[] = [];
  for (const dir of dirs) {
    const file = join(dir, 'binder.db');
    const read = readable(file);
    const write = can(dir, constants.W_OK) && lookOnDisk(dir) !== undefined;
    if (read || (write && lookOnDisk(file))) {
      findings.push({
        hole: true,
        what: `the store: ${file} — you can ${read && write ? 'read and write it' : read ? 'read it' : 'write beside it'}, so binder admin works here: you could approve, delete and grant as a person`,
        fix: `${SANDBOX}, or keep the store where this OS user cannot reach`,
      });
    }
  }
  if (!findings.length) findings.push({ hole: false, what: 'the store: not visible here, so binder admin, binder tui and binder serve are out of reach' });
  return findings;
}

const PERSON_FILES = ['.pgpass', '.pg_service.conf', '.postgresql/postgresql.key', '.mozilla/firefox', '.config/chromium', '.config/google-chrome'];

function personFileFindings(env: NodeJS.ProcessEnv, home: string): Finding[] {
  const files = [...PERSON_FILES.map((f) => join(home, f)), env.PGPASSFILE].filter((f): f is string => !!f);
  const seen = files.filter((file) => lookOnDisk(file)?.kind === 'dir' ? (() => { try { return readdirSync(file).length > 0; } catch { return false; } })() : readable(file));
  const secrets = Object.keys(env).filter((name) => name === 'PGPASSWORD' || /^postgres(ql)?:\/\/[^/]*:[^/]*@/i.test(env[name] ?? ''));
  const findings: Finding[] = seen.map((file) => ({ hole: true, what: `a person's file: ${file} is readable (a password, a key or a browser's signed-in sessions)`, fix: SANDBOX }));
  for (const name of secrets) findings.push({ hole: true, what: `your environment holds ${name}, a PostgreSQL password`, fix: SANDBOX });
  if (!findings.length) findings.push({ hole: false, what: "a person's files: no PostgreSQL password file, client key or browser profile readable" });
  return findings;
}

/** Keepers and person's commands this process can see in /proc. */
function keeperFindings(): Finding[] {
  const keepers: string[] = [];
  let names: string[] = [];
  try { names = readdirSync('/proc'); } catch { return [{ hole: false, what: "the keeper's processes: this system has no /proc to look in" }]; }
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let words: string[];
    try { words = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0'); } catch { continue; }
    const at = words.findIndex((w) => /binder(\.js)?$/.test(w));
    if (at >= 0 && ['serve', 'tui', 'admin'].includes(words[at + 1] ?? '')) keepers.push(name);
  }
  const reachable = keepers.filter((pid) => {
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch {
      return false;
    }
  });
  if (!keepers.length) return [{ hole: false, what: "the keeper's processes: none visible from here" }];
  return [{
    hole: true,
    what: `the keeper's processes: ${keepers.join(', ')} visible${reachable.length ? `, and you can signal ${reachable.join(', ')}` : ''}`,
    fix: SANDBOX,
  }];
}

/**
 * Abstract Unix sockets of a display or a session bus: they have no file to hide and no
 * permissions, so any process in the same network namespace can connect — an X11 client can type
 * into the person's terminal, a bus can start programs as them.
 */
function abstractSocketFindings(table = '/proc/net/unix'): Finding[] {
  let lines: string[];
  try { lines = readFileSync(table, 'utf8').split('\n').slice(1); } catch { return []; }
  const names = new Set<string>();
  for (const line of lines) {
    // The kernel shows the name's NULs as @: a name padded to its full length ends in many.
    const path = line.trim().split(/\s+/)[7];
    if (path && /^@(\/tmp\/\.X11-unix\/|\/tmp\/dbus-|\/run\/user\/\d+\/bus)/.test(path)) names.add(path.replace(/(.)@+$/, '$1').replace(/[^\x20-\x7e]/g, '?'));
  }
  return [...names].map((name) => ({
    hole: true,
    what: `${name.includes('X11') ? 'an X11 display' : 'a session bus'} listens on the abstract socket ${name}: reachable from any sandbox that keeps the network, it can ${name.includes('X11') ? 'type into your terminal' : 'start programs as you'}`,
    fix: 'run the agent where no display or bus listens on an abstract socket (docs/agents.md), or as another OS user',
  }));
}

/** Whether something listens at host:port, asked once and briefly. */
const listening = (host: string, port: number): Promise<boolean> => new Promise((done) => {
  const socket = connect({ host, port });
  const end = (yes: boolean): void => { socket.destroy(); done(yes); };
  socket.setTimeout(500, () => end(false));
  socket.once('connect', () => end(true));
  socket.once('error', () => end(false));
});

/** Tries PostgreSQL with this process's rights: where it lets this OS user in without a password, the store is open. */
async function postgresFindings(env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const spec = whereStore(undefined, env);
  const targets: { host?: string; port?: number; connectionString?: string }[] = [];
  if (spec.kind === 'postgres') targets.push(spec.url ? { connectionString: spec.url } : {});
  for (const dir of ['/var/run/postgresql', '/run/postgresql', '/tmp']) {
    let names: string[] = [];
    try { names = readdirSync(dir); } catch { continue; }
    for (const name of names) {
      const port = /^\.s\.PGSQL\.(\d+)$/.exec(name)?.[1];
      if (port) targets.push({ host: dir, port: Number(port) });
    }
  }
  // A server on loopback is reachable from any sandbox that keeps the network.
  const port = Number(env.PGPORT) || 5432;
  if (!targets.length && await listening('127.0.0.1', port)) targets.push({ host: '127.0.0.1', port });
  if (!targets.length) return [];
  const { default: pg } = await import('pg');
  const findings: Finding[] = [];
  const user = env.PGUSER || (() => { try { return userInfo().username; } catch { return 'postgres'; } })();
  for (const target of targets) {
    const where = target.connectionString ? 'the store named in your environment' : target.host ? `${target.host}:${target.port}` : 'the PG* environment';
    const client = new pg.Client({ user, database: env.PGDATABASE || 'postgres', ...target, password: target.connectionString ? undefined : '', connectionTimeoutMillis: 3000 });
    client.on('error', () => {});
    try {
      await client.connect();
      findings.push({ hole: true, what: `PostgreSQL at ${where} let this process in as ${user} without a password`, fix: 'make the server ask a password of every connection (scram-sha-256 in pg_hba.conf, not peer or trust) and keep the password where the agent cannot read it' });
    } catch (error) {
      const code = (error as { code?: string }).code;
      // A database missing means the server let the user in: only the name was wrong.
      if (code === '3D000') findings.push({ hole: true, what: `PostgreSQL at ${where} accepts ${user} without a password`, fix: 'use scram-sha-256 in pg_hba.conf, not peer or trust' });
      else findings.push({ hole: false, what: `PostgreSQL at ${where}: this process was not let in (${code ?? 'no answer'})` });
    } finally {
      await client.end().catch(() => {});
    }
  }
  return findings;
}

/** The findings, in the order a person reads them. */
export async function examine(env: NodeJS.ProcessEnv, cwd: string, ask: DoctorAsk = {}): Promise<Finding[]> {
  const home = env.HOME || homedir();
  return [folderFinding(env, cwd, ask), ...storeFindings(env, home), ...personFileFindings(env, home), ...keeperFindings(), ...abstractSocketFindings(), ...await postgresFindings(env)];
}

export function doctorReport(findings: readonly Finding[], inSandbox: boolean): string {
  const lines = findings.map((f) => `${f.hole ? 'HOLE' : 'ok  '}  ${f.what}${f.fix ? `\n      what to do: ${f.fix}` : ''}`);
  const holes = findings.filter((f) => f.hole).length;
  lines.push(holes
    ? `Not contained: ${holes} ${holes === 1 ? 'hole' : 'holes'}. This process can act as a person, whatever Binder's rules say.`
    : `Contained${inSandbox ? ' (in binder sandbox)' : ''}: the binder is reachable only through your folder.`);
  return `${lines.join('\n')}\n`;
}

/** Runs `binder doctor`; 0 contained, 1 not. */
export async function runDoctor(ask: DoctorAsk, io: { out(text: string): void; env: NodeJS.ProcessEnv; cwd: string }): Promise<number> {
  const findings = await examine(io.env, io.cwd, ask);
  io.out(doctorReport(findings, !!io.env.BINDER_SANDBOX));
  return findings.some((f) => f.hole) ? 1 : 0;
}
