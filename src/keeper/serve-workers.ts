/**
 * `binder serve --no-tui --http … --workers N`: N keepers of one store answering on one address,
 * so that the HTTP face has N cores, not one. This process only minds them: node:cluster shares
 * the listening socket, each connection going to one of them in turn. Several keepers on one
 * store is what the store already allows (each ask done once whichever keeper reads it, claims
 * lapsing once, a change made through one waking the waits of all), so each worker is a whole
 * keeper, folders included.
 *
 * On SQLite one more, the writer, serves no address and makes every change the others are asked
 * (one-writer.ts): SQLite writes one transaction at a time, and keepers that all wrote waited for
 * each other's locks. The first says the start lines (and makes the login link), the others start
 * silent; this process says that they all answer, then the stop line. One that ends unasked is
 * started again (silent); ending again and again right after starting, it stops them all. A stop
 * asked (Ctrl-C reaches them all; SIGTERM is passed on) ends them all, then this process.
 */
import cluster, { type Worker } from 'node:cluster';
import { toStderr } from './log-line.js';
import { createWriterRelay } from './writer-relay.js';

/** The environment variable that tells a worker whether it says the start lines. */
const WORKER_START = 'BINDER_WORKER_START';
/** The environment variable that makes a worker the writer: no address, every worker's changes (one-writer.ts). */
const WORKER_WRITES = 'BINDER_WORKER_WRITES';
/** The environment variable that tells a worker to hand its changes to the writer. */
const WORKER_HANDS = 'BINDER_WORKER_HANDS';
/** A worker that ends within this of its start ended "at once". */
const QUICK_END_MS = 10_000;
/** So many quick ends in a row: something is wrong with every start, not with one process. */
const QUICK_ENDS_MAX = 5;
/** A worker that has not ended this long after being asked to is killed. */
const STOP_WAIT_MS = 20_000;

export interface WorkersWords {
  /** `N keeper processes answer on that address.`, and whether one more makes their changes. */
  together: (n: number, writer: boolean) => string;
  stop: string;
  ended: string;
  /** A worker ended unasked and another is started. */
  restarted: (pid: number, how: string) => string;
  /** Workers keep ending right after starting: all are stopped. */
  giving: (n: number) => string;
}

/** True in a worker started by `serveInWorkers`; it says the start lines only when asked to. */
export const inWorker = (): boolean => cluster.isWorker && process.env[WORKER_START] !== undefined;
export const saysStart = (): boolean => process.env[WORKER_START] === 'say';
/** True in the worker that serves no address and makes every worker's changes. */
export const writesForOthers = (): boolean => inWorker() && process.env[WORKER_WRITES] === '1';
/** True in a worker that hands its changes to the writer. */
export const handsChanges = (): boolean => inWorker() && process.env[WORKER_HANDS] === '1';

/**
 * `writer`: one more process makes every worker's changes — for SQLite, which writes one
 * transaction at a time; PostgreSQL takes the workers' changes at once, each on its connection.
 */
export async function serveInWorkers(n: number, words: WorkersWords, { writer }: { writer: boolean }): Promise<number> {
  // The same command, run again as each worker (its --workers is seen there and not obeyed).
  cluster.setupPrimary({ exec: process.argv[1]!, args: process.argv.slice(2) });
  const running = new Set<Worker>();
  const startedAt = new Map<Worker, number>();
  let stopping = false;
  /** All listen: from now on, one that ends unasked is started again. */
  let serving = false;
  let asked = false;
  let quickEnds = 0;
  let failed: number | null = null;
  let allEnded = (): void => {};
  const ended = new Promise<void>((resolve) => { allEnded = resolve; });

  const relay = createWriterRelay((id) => cluster.workers?.[id]);
  cluster.on('message', (worker, message) => relay.message(worker, message));
  const fork = (say: boolean, writes = false): Worker => {
    const worker = cluster.fork({
      [WORKER_START]: say ? 'say' : 'silent',
      ...(writes ? { [WORKER_WRITES]: '1' } : writer ? { [WORKER_HANDS]: '1' } : {}),
    });
    if (writes) relay.writerIs(worker);
    // A worker's channel failing (it was killed) is its own end, said by its 'exit': never the minder's.
    worker.on('error', () => undefined);
    running.add(worker);
    startedAt.set(worker, Date.now());
    return worker;
  };
  const stopAll = (): void => {
    if (stopping) return;
    stopping = true;
    for (const worker of running) {
      worker.process.kill('SIGTERM');
      setTimeout(() => { if (!worker.isDead()) worker.process.kill('SIGKILL'); }, STOP_WAIT_MS).unref();
    }
    if (running.size === 0) allEnded();
  };
  /** Resolves when `worker` listens (the writer: takes asks), or with its exit code if it ends first. */
  const listening = (worker: Worker): Promise<number | null> => new Promise((resolve) => {
    if (relay.isWriter(worker)) relay.onWriting(() => resolve(null));
    else worker.once('listening', () => resolve(null));
    worker.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

  cluster.on('exit', (worker, code, signal) => {
    running.delete(worker);
    const wrote = relay.isWriter(worker);
    relay.ended(worker);
    if (stopping || !serving) {
      if (stopping && running.size === 0) allEnded();
      return;
    }
    const quick = Date.now() - (startedAt.get(worker) ?? 0) < QUICK_END_MS;
    quickEnds = quick ? quickEnds + 1 : 0;
    if (quickEnds >= QUICK_ENDS_MAX) {
      toStderr(words.giving(quickEnds));
      failed = 1;
      stopAll();
      return;
    }
    toStderr(words.restarted(worker.process.pid ?? 0, signal ? `signal ${signal}` : `code ${code}`));
    fork(false, wrote);
  });
  const onStop = (): void => { asked = true; stopAll(); };
  process.once('SIGINT', onStop);
  process.once('SIGTERM', onStop);
  const end = async (code: number): Promise<number> => {
    stopAll();
    await ended;
    process.removeListener('SIGINT', onStop);
    process.removeListener('SIGTERM', onStop);
    if (code === 0) process.stdout.write(`${words.ended}\n`);
    return code;
  };

  // The first alone: a store or an address that cannot be had is said once, by it, and ends all.
  // Then the writer (until it takes asks, the others make their changes themselves), and the rest.
  const first = await listening(fork(true));
  if (first !== null) return end(asked ? 0 : first || 1);
  const rest = await Promise.all([...(writer ? [listening(fork(false, true))] : []), ...Array.from({ length: n - 1 }, () => listening(fork(false)))]);
  const refused = rest.find((code) => code !== null);
  if (refused != null) return end(asked ? 0 : refused || 1);
  if (asked) return end(0);
  serving = true;
  process.stdout.write(`${words.together(n, writer)}\n${words.stop}\n`);
  await ended;
  return end(failed ?? 0);
}
