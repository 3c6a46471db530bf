/**
 * What the survival tests share: a binder with a list and agents' folders made by a person,
 * `binder serve --no-tui` as a real process that can be killed and started again, raw ask lines,
 * the answers a folder holds, and a process's resident memory. Usable outside node:test (the soak).
 * It must never touch anything outside the temporary folders it is given.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';
import { openStore, type Store } from '../../src/store/index.js';
import { personWho } from '../../src/keeper/keeper.js';
import { ANSWERS_FILE, ASKS_FILE } from '../../src/keeper/protocol.js';
import { BINDER } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';
import { dbOf } from '../helpers/sqlite-db.js';

export const ann = personWho('Ann');

/** Every keeper and agent process started here and not gone yet. */
const running = new Set<ChildProcess>();

/** Counts `child` among the processes killed when a test ends. */
export function track<C extends ChildProcess>(child: C): C {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** SIGKILL to every process started here that is still running; resolves once they are gone. */
export async function killAll(): Promise<void> {
  await Promise.all([...running].map((child) => new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGKILL');
  })));
}

/**
 * A temporary folder for one test. When the test ends, however it ends, every process started
 * here is killed first (a keeper still running would make folders again as they are removed,
 * and keep the test's process alive), then the folder is removed.
 */
export function survivalDir(t: TestContext, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(async () => {
    await killAll();
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

export interface Made {
  storeDir: string;
  store: Store;
  /** The agents' folders, registered as Agent 0, Agent 1…, each granted `tasks` to write. */
  dirs: string[];
}

/** A store in `root`/store (or `storeDir`) with the Tasks list (no gate) and `agents` folders registered and granted. */
export async function makeBinder(root: string, agents: number, storeDir = join(root, 'store')): Promise<Made> {
  const store = openStore(storeDir);
  await store.createList({ template: 'tasks' }, ann);
  const dirs: string[] = [];
  for (let i = 0; i < agents; i++) {
    const dir = join(root, `agent${i}`, '.binder');
    mkdirSync(dir, { recursive: true });
    await store.addSide(dir, `Agent ${i}`, ann);
    await store.grant('tasks', `Agent ${i}`, 'write', ann);
    dirs.push(dir);
  }
  return { storeDir, store, dirs };
}

export interface Keeping {
  child: ChildProcess;
  pid: number;
  out(): string;
  err(): string;
  /** Resolves with the exit code, or the signal's name. */
  exit: Promise<number | string>;
  exited(): boolean;
  /** SIGKILL, and wait until it is gone. */
  kill(): Promise<number | string>;
  /** SIGTERM (a clean stop), and wait. */
  stop(): Promise<number | string>;
}

/**
 * `binder serve --no-tui --store DIR …` (--quiet unless other arguments are given), started and
 * waited for until it keeps the binder. It runs beside its store, or (a server's store) in a
 * temporary folder: a keeper of a store with no folder keeps `.binder` where it runs.
 */
export async function startKeeper(storeDir: string, args: string[] = ['--quiet'], env: NodeJS.ProcessEnv = {}, ready = true): Promise<Keeping> {
  const made = existsSync(storeDir) ? null : mkdtempSync(join(tmpdir(), 'binder-keeper-'));
  const child = track(spawn(process.execPath, [BINDER, 'serve', '--no-tui', '--store', storeDir, ...args], {
    cwd: made ?? dirname(storeDir),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  if (made) child.on('exit', () => rmSync(made, { recursive: true, force: true }));
  let out = '';
  let err = '';
  let gone = false;
  child.stdout!.on('data', (c) => { out += c; });
  child.stderr!.on('data', (c) => { err += c; });
  const exit = new Promise<number | string>((done) => child.on('exit', (code, signal) => { gone = true; done(code ?? signal ?? -1); }));
  const keeping: Keeping = {
    child, pid: child.pid!, out: () => out, err: () => err, exit, exited: () => gone,
    kill: () => { if (!gone) child.kill('SIGKILL'); return exit; },
    stop: () => { if (!gone) child.kill('SIGTERM'); return exit; },
  };
  if (ready) {
    await until(() => out.includes('Stop with Ctrl-C') || gone, 20_000, 'the keeper to start');
    if (gone && !out.includes('Stop with Ctrl-C')) throw new Error(`the keeper stopped at start: ${err}`);
  }
  return keeping;
}

/** One raw ask line, as any client of the protocol writes it. */
export function askLine(id: string, op: string, args: Record<string, unknown>, at = Date.now()): string {
  return `${JSON.stringify({ id, at: new Date(at).toISOString(), op, args })}\n`;
}

export function appendAsk(dir: string, id: string, op: string, args: Record<string, unknown>): void {
  appendFileSync(join(dir, ASKS_FILE), askLine(id, op, args));
}

export interface AnswerSeen { ask: string; ok: boolean; text: string }

/**
 * Every complete answer line in the folder's answers file (none when there is no file). A line
 * that is no JSON, left unfinished by a keeper killed while writing it, is no answer: skipped, as
 * `binder` skips it.
 */
export function answersIn(dir: string): AnswerSeen[] {
  const path = join(dir, ANSWERS_FILE);
  if (!existsSync(path)) return [];
  // Only complete lines: the keeper may be writing the last one now.
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.pop();
  return lines.filter(Boolean).flatMap((line) => {
    try {
      return [JSON.parse(line) as AnswerSeen];
    } catch {
      return [];
    }
  });
}

/** Ids answered more than once in the folder's answers file. */
export function answeredTwice(dir: string): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const { ask } of answersIn(dir)) {
    if (seen.has(ask)) twice.push(ask);
    seen.add(ask);
  }
  return twice;
}

/** The answer to `id` once it is in the folder. */
export async function answerTo(dir: string, id: string, ms = 15_000): Promise<AnswerSeen> {
  return (await until(() => answersIn(dir).find((a) => a.ask === id), ms, `the answer to ${id}`))!;
}

/** A process's resident memory in bytes (Linux), or null where it cannot be read. */
export function residentBytes(pid: number): number | null {
  try {
    const found = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return found ? Number(found[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** `PRAGMA integrity_check` of the store, through the store's own connection. */
export function integrity(store: Store): string {
  return (dbOf(store).pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
}

/** Counts the rows of a query on the store's connection. */
export function count(store: Store, sql: string, ...params: unknown[]): number {
  return dbOf(store).prepare(sql).pluck().get(...params) as number;
}
