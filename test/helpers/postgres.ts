/**
 * A real PostgreSQL server for the tests: a cluster made with initdb in a temporary folder,
 * listening on a Unix socket only, removed when the process ends. One cluster serves a whole
 * run when scripts/test.mjs started it (its socket folder in BINDER_TEST_PGHOST); a test file run
 * alone starts its own. Each test gets a database of its own. It never touches a server it did
 * not start, and never listens on a network address.
 */
import { spawnSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** The folder of PostgreSQL's programs (initdb, postgres, pg_ctl), or null when it is not installed. */
export function postgresBin(): string | null {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) {
    const real = spawnSync('readlink', ['-f', onPath], { encoding: 'utf8' }).stdout.trim() || onPath;
    return join(real, '..');
  }
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return null;
  const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(debian, v, 'bin', 'initdb'))) return join(debian, v, 'bin');
  return null;
}

/** Why the PostgreSQL tests cannot run here, or null when they can. */
export function postgresMissing(): string | null {
  if (process.env.BINDER_TEST_PGHOST) return null;
  if (!postgresBin()) return 'PostgreSQL is not installed (Debian: apt-get install postgresql); .ci/run installs it';
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) {
    return 'running as root without a postgres user to run the server as (initdb refuses root)';
  }
  return null;
}

export interface Cluster {
  /** The socket folder: `postgres://binder@localhost/DB?host=<socket>` reaches it. */
  host: string;
  user: string;
  /** Makes an empty database and returns its URL. */
  database(name?: string): string;
  /** Runs SQL through psql on `db` and returns its output (tuples only, unaligned). */
  psql(db: string, sql: string): string;
  /** Stops the server (fast: connections are cut) and starts it again on the same socket. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** The cluster's data folder (for tests that read the relation files), or null when shared. */
  dataDir: string | null;
  /** The server's log file (for tests that read what it logged), or null when shared. */
  logFile: string | null;
}

/** A cluster of a test's own: its server's settings (`log_statement=all`), and pg_hba.conf lines read before the trust of the rest. */
export interface ClusterOptions { durable?: boolean; settings?: string[]; hba?: string[] }

const USER = 'binder';

/** Runs a program as the server's OS user when this process is root (initdb and postgres refuse root). */
function asServerUser(bin: string, args: string[]): { command: string; args: string[] } {
  if (process.getuid?.() === 0) return { command: 'runuser', args: ['-u', 'postgres', '--', bin, ...args] };
  return { command: bin, args };
}

function psqlRun(host: string, db: string, sql: string, timeout?: number): string {
  const r = spawnSync('psql', ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-h', host, '-U', USER, '-d', db, '-c', sql], { encoding: 'utf8', ...(timeout ? { timeout } : {}) });
  if (r.status !== 0) throw new Error(`psql failed on ${db}: ${r.stderr.trim()}`);
  return r.stdout;
}

async function waitReady(host: string, server: ChildProcess | null, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const r = spawnSync('psql', ['-X', '-At', '-h', host, '-U', USER, '-d', 'postgres', '-c', 'SELECT 1'], { encoding: 'utf8' });
    if (r.status === 0) return;
    if (server && server.exitCode !== null) throw new Error(`postgres stopped at start (exit ${server.exitCode})`);
    if (Date.now() > end) throw new Error(`postgres did not accept connections on ${host}: ${r.stderr.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function clusterOn(host: string, control: { restart(): Promise<void>; stop(): Promise<void>; start(): Promise<void> }, dataDir: string | null): Cluster {
  return {
    host,
    user: USER,
    dataDir,
    logFile: dataDir ? join(host, 'server.log') : null,
    database(name = `t_${randomBytes(6).toString('hex')}`) {
      psqlRun(host, 'postgres', `CREATE DATABASE ${name}`);
      return `postgres://${USER}@localhost/${name}?host=${encodeURIComponent(host)}`;
    },
    psql: (db, sql) => psqlRun(host, db, sql),
    ...control,
  };
}

let own: Promise<Cluster> | null = null;

/** Something to signal the server itself with: its pid from postmaster.pid, else the child we started. */
function postmasterPid(data: string, child: ChildProcess): { kill(signal: NodeJS.Signals): void } {
  try {
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (Number.isInteger(pid) && pid > 0) return { kill: (signal) => { try { process.kill(pid, signal); } catch { /* gone */ } } };
  } catch {
    // Not written yet, or gone.
  }
  return { kill: (signal) => { child.kill(signal); } };
}

/**
 * Starts a cluster of this process's own: initdb (fsync off: a test's data need not survive a
 * power loss; `durable` keeps it on), then `postgres` on a Unix socket in the same temporary folder.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const bin = postgresBin();
  if (!bin) throw new Error(postgresMissing() ?? 'PostgreSQL is not installed');
  const top = mkdtempSync(join(tmpdir(), 'binder-pg-'));
  chmodSync(top, 0o755);
  if (process.getuid?.() === 0) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(top, uid, gid);
  }
  const data = join(top, 'data');
  const init = asServerUser(join(bin, 'initdb'), ['-D', data, '-U', USER, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const made = spawnSync(init.command, init.args, { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`initdb failed: ${made.stderr.trim() || made.stdout.trim()}`);
  if (options.hba?.length) {
    const hba = join(data, 'pg_hba.conf');
    const write = asServerUser('sh', ['-c', `printf '%s\\n' "$@" "$(cat '${hba}')" > '${hba}.new' && mv '${hba}.new' '${hba}'`, 'sh', ...options.hba]);
    const written = spawnSync(write.command, write.args, { encoding: 'utf8' });
    if (written.status !== 0) throw new Error(`pg_hba.conf could not be written: ${written.stderr.trim()}`);
  }

  let server: ChildProcess | null = null;
  const start = async (): Promise<void> => {
    // Durable (for a benchmark of durable changes): fsync and full pages, as a server keeps them.
    const lax = options.durable ? [] : ['-c', 'fsync=off', '-c', 'full_page_writes=off'];
    const run = asServerUser(join(bin, 'postgres'), [
      '-D', data, '-k', top, '-c', "listen_addresses=", ...lax,
      '-c', 'max_connections=200', '-c', 'shared_buffers=32MB', ...(options.settings ?? []).flatMap((s) => ['-c', s]),
    ]);
    // Its log goes to a file beside its data, never to a pipe: the run's shared cluster belongs to
    // scripts/test.mjs, which waits for the tests without reading anything, and once a pipe's
    // 64 KB were full every backend that logged a line (a connection cut, a drop) stopped there.
    const log = openSync(join(top, 'server.log'), 'a');
    server = spawn(run.command, run.args, { stdio: ['ignore', 'ignore', log], detached: false });
    closeSync(log);
    // The server never keeps a test's process alive: it is stopped when the process exits.
    server.unref();
    await waitReady(top, server);
  };
  const stop = async (): Promise<void> => {
    const running = server;
    server = null;
    if (!running || running.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    // Waited for: its end keeps the process alive until it comes.
    running.ref();
    // SIGINT: PostgreSQL's fast shutdown (every connection cut, a clean stop), sent to the server
    // itself: runuser, between us and it, does not pass SIGINT on.
    postmasterPid(data, running).kill('SIGINT');
    await gone;
  };
  await start();
  process.once('exit', () => {
    try {
      if (server && server.exitCode === null) postmasterPid(data, server).kill('SIGQUIT');
      spawnSync('sh', ['-c', `sleep 0.2; rm -rf '${top}'`]);
    } catch {
      // Left in the system's temporary folder.
    }
  });
  return clusterOn(top, { restart: async () => { await stop(); await start(); }, stop, start }, data);
}

/**
 * The run's shared cluster when scripts/test.mjs started one, else this process's own (started
 * once, on first use).
 */
export async function cluster(): Promise<Cluster> {
  const shared = process.env.BINDER_TEST_PGHOST;
  if (shared) {
    const refuse = async (): Promise<void> => { throw new Error('the run\'s shared PostgreSQL is not restarted by a test: use startCluster()'); };
    return clusterOn(shared, { restart: refuse, stop: refuse, start: refuse }, null);
  }
  own ??= startCluster();
  return own;
}

/**
 * Removes a test's database (connections to it are cut first). Bounded: a process still connecting
 * to it again and again would keep the drop waiting, and with it this test's process (psql is run
 * synchronously); the database is then left to go with the cluster.
 */
export function dropDatabase(c: Cluster, url: string): void {
  const name = new URL(url).pathname.slice(1);
  try {
    psqlRun(c.host, 'postgres', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, 20_000);
  } catch {
    // The cluster goes with the process anyway.
  }
}

export const removeTree = (dir: string): void => rmSync(dir, { recursive: true, force: true });
