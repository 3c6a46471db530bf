/**
 * `binder serve --no-tui`: the keeper alone, headless. Says where the store is and which folders
 * it reads, one line per ask answered (unless --quiet), a line when a record falls due; exits
 * cleanly on SIGINT/SIGTERM. A store it cannot open: one sentence, exit 2. Every line is made
 * terminal-safe wherever it goes, and each piece of someone's text stays on its line. With
 * --http it answers over HTTP too (src/http), and says where, even with --quiet; with --workers N
 * as well, this process minds N keepers that run this same command (serve-workers.ts).
 */
import cluster from 'node:cluster';
import { Command, CommanderError } from 'commander';
import { addHttpOptions, httpPlan, listeningLine, loginLine, noLinkLine, providerLine, startHttpFor, type HttpFlags, type HttpStarted } from '../http/start.js';
import { openAnyStore, Refused } from '../store/index.js';
import { FOLDS_ASCII_ALONE, foldsCase } from '../keeper/locale-advice.js';
import { createKeeper } from '../keeper/keeper.js';
import { defaultSide, person, sideOption, whereStore } from '../keeper/places.js';
import { handsChanges, inWorker, saysStart, serveInWorkers, writesForOthers, type WorkersWords } from '../keeper/serve-workers.js';
import { handingKeeper, takeHandedAsks, type Channel } from '../keeper/one-writer.js';
import { logLine, toStderr } from '../keeper/log-line.js';
import { safeAnswer, safeSentence, terminalSafe } from '../keeper/terminal-safe.js';
import type { SideConfig } from '../keeper/keeper-types.js';
import { applyServeDefaults, ConfigProblem, personDefaults } from './config.js';

const DUE_CHECK_MS = 5_000;
/** More keeper processes than this on one machine is a typing mistake. */
const WORKERS_MAX = 64;

/** The keeper's own lines, in the language asked for; agents' answers stay as the catalog words them. */
const WORDS = {
  en: { kept: 'Binder kept in', reading: 'Reading', as: 'as', stop: 'Stop with Ctrl-C.', done: 'done', refused: 'refused', due: 'due', for: 'for', ended: 'Binder no longer kept.' },
  fr: { kept: 'Binder tenu dans', reading: 'Lit', as: 'pour', stop: 'Arrêt : Ctrl-C.', done: 'fait', refused: 'refusé', due: 'échéance', for: 'pour', ended: 'Binder n’est plus tenu.' },
} as const;

export async function serve(argv: string[]): Promise<number> {
  const code = await keep(argv);
  // A worker's channel to its minder would keep it alive: let go of it (as asked, so that it ends
  // with its own code). A worker whose minder is gone ends at once (node:cluster's doing).
  if (inWorker()) cluster.worker?.disconnect();
  return code;
}

/** The command line of `binder serve`, also read by the shell's completion. */
export function serveProgram(): Command {
  const program = new Command('binder serve')
    .description('Keep the binder: answer the agents\' asks from their folders.')
    .option('--no-tui', 'without the screen (the keeper alone)')
    .option('--store <DIR|URL>', 'the store: a folder (SQLite), or postgres://USER@HOST/DB')
    .option('--side <folder=name>', 'an agent\'s folder and its name (repeatable)', (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--lang <lang>', 'en or fr', 'en')
    .option('--quiet', 'no line per ask')
    .option('--as <name>', 'with --http: the person the login link printed at start signs in (else your OS user name)')
    .option('--workers <n>', 'with --http: N keeper processes answer on the one address (for N cores)', '1')
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(safeAnswer(s)), writeErr: (s) => process.stderr.write(safeAnswer(s)) });
  return addHttpOptions(program);
}

async function keep(argv: string[]): Promise<number> {
  const program = serveProgram();
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 64;
    throw error;
  }
  try {
    applyServeDefaults(program, personDefaults());
  } catch (error) {
    if (error instanceof ConfigProblem) { process.stderr.write(`binder serve: ${safeSentence(error.message)}\n`); return 64; }
    throw error;
  }
  const o = program.opts<{ store?: string; side: string[]; lang: string; quiet?: boolean; as?: string; workers: string } & HttpFlags>();
  if (o.lang !== 'en' && o.lang !== 'fr') { process.stderr.write('--lang takes en or fr.\n'); return 64; }
  const plan = httpPlan(o);
  if (plan && 'problem' in plan) { process.stderr.write(`binder serve: ${plan.problem}\n`); return 64; }
  const w = WORDS[o.lang];
  const workers = /^\d{1,3}$/.test(o.workers) ? Number(o.workers) : 0;
  if (workers < 1 || workers > WORKERS_MAX) { process.stderr.write(`binder serve: --workers takes a number from 1 to ${WORKERS_MAX}.\n`); return 64; }
  if (workers > 1 && !plan) { process.stderr.write('binder serve: --workers shares an HTTP address among keepers: give --http too.\n'); return 64; }
  // This process minds the workers; each of them runs this command again as a keeper.
  if (workers > 1 && !inWorker()) return serveInWorkers(workers, workersWords(o.lang), { writer: whereStore(o.store).kind === 'sqlite' });
  /** A worker other than the first starts silent: the start lines are said once. */
  const silent = inWorker() && !saysStart();
  let store;
  let given: SideConfig[];
  try {
    given = o.side.map((s) => sideOption(s));
    store = await openAnyStore(whereStore(o.store), { log: toStderr });
  } catch (error) {
    if (error instanceof Refused) { toStderr(safeSentence(error.message)); return 2; }
    throw error;
  }
  // The folder beside you is a start for one machine; a server over HTTP has its agents come with
  // tokens, and must not make a .binder wherever it was started.
  if (given.length === 0 && !plan && (await store.sides()).length === 0) given = [defaultSide()];
  // Among workers on SQLite, the writer keeps the agents' folders too: a worker that hands its
  // changes over makes none of its own, a folder's included (it knows the folders, to say them,
  // and leaves them to the writer as a keeper on PostgreSQL leaves a folder another one holds).
  const keeping = handsChanges() ? { ...store, holdFolder: async () => false } : store;
  const keeper = createKeeper({ store: keeping, sides: given, log: toStderr });
  const say = (line: string) => { if (!o.quiet) process.stdout.write(`${logLine(line)}\n`); };
  const time = () => new Date().toTimeString().slice(0, 8);
  // Quiet, no line is made at all: the answers go by untouched.
  if (!o.quiet) {
    keeper.onAnswer((side, op, answer) => {
      say(`${time()} ${clip(side.who.name, 40)} ${clip(op, 40)} ${answer.ok ? w.done : w.refused}: ${clip(answer.text, 160)}`);
    });
  }
  // Heard from before the keeper starts: a stop asked while it starts (its first pass on a slow
  // disk) ends it cleanly once started, never kills it halfway.
  let asked = (): void => {};
  const stopAsked = new Promise<void>((resolve) => { asked = resolve; });
  const onStop = (): void => asked();
  process.once('SIGINT', onStop);
  process.once('SIGTERM', onStop);
  await keeper.start();
  // Among workers on SQLite, one serves no address and makes every change the others are asked (one-writer.ts).
  const channel = process as unknown as Channel;
  const writer = writesForOthers() ? takeHandedAsks(keeper, channel) : null;
  const served = handsChanges() ? handingKeeper(keeper, channel) : keeper;
  let http: HttpStarted | null = null;
  try {
    if (plan && !writer) http = await startHttpFor(served, plan, toStderr, o.quiet ? undefined : say, whereStore(o.store));
  } catch (error) {
    if ((error as Error)?.name !== 'Refused') throw error;
    process.removeListener('SIGINT', onStop);
    process.removeListener('SIGTERM', onStop);
    toStderr(safeSentence((error as Error).message));
    await keeper.close();
    await store.close();
    return 2;
  }
  if (!silent) {
    process.stdout.write(`${w.kept} ${clip(store.path, 4096)}\n`);
    if (await foldsCase(store) === false) process.stderr.write(`binder serve: ${FOLDS_ASCII_ALONE}\n`);
    if (http) {
      process.stdout.write(`${listeningLine(http.url, o.lang)}\n`);
      // A link is made, and printed, only for a person at a terminal: a journal or a log file keeps it for whoever reads it.
      const link = http.provider ? providerLine(http.url, http.provider, o.lang)
        : process.stdout.isTTY ? loginLine(await http.loginLink(person(o.as).name), o.lang) : noLinkLine(o.lang);
      process.stdout.write(`${link}\n`);
    }
    for (const f of keeper.folders()) process.stdout.write(`${w.reading} ${clip(f.dir, 4096)} ${w.as} ${clip(f.name, 200)} (${clip(f.agent, 200)})\n`);
    // Among workers, the minder says it once all of them answer.
    if (!inWorker()) process.stdout.write(`${w.stop}\n`);
  }
  writer?.writing();

  const dueTimer = setInterval(() => void keeper.due().then((due) => {
    for (const r of due) say(`${time()} ${w.due}: #${r.id} ${clip(r.title, 300)} (${clip(r.due, 40)})${r.owners.length ? ` ${w.for} ${clip(r.owners.join(', '), 300)}` : ''}`);
  }, (error: unknown) => toStderr(`binder keeper: the due scan failed: ${error instanceof Error ? error.message : String(error)}`)), DUE_CHECK_MS);

  await stopAsked;
  clearInterval(dueTimer);
  await http?.stop();
  await keeper.close();
  await store.close();
  if (!inWorker()) process.stdout.write(`${w.ended}\n`);
  return 0;
}

function workersWords(lang: 'en' | 'fr'): WorkersWords {
  const w = WORDS[lang];
  return lang === 'fr' ? {
    together: (n, writer) => `${n} processus gardiens répondent à cette adresse${writer ? ' ; un autre fait leurs changements' : ''}.`,
    stop: w.stop,
    ended: w.ended,
    restarted: (pid, how) => `binder serve : le processus gardien ${pid} s'est arrêté (${how}) ; un autre le remplace.`,
    giving: (n) => `binder serve : ${n} processus gardiens se sont arrêtés aussitôt lancés ; tous sont arrêtés (leurs lignes ci-dessus disent pourquoi).`,
  } : {
    together: (n, writer) => `${n} keeper processes answer on that address${writer ? '; one more makes their changes' : ''}.`,
    stop: w.stop,
    ended: w.ended,
    restarted: (pid, how) => `binder serve: keeper process ${pid} ended (${how}); another takes its place.`,
    giving: (n) => `binder serve: ${n} keeper processes ended as soon as they started; all are stopped (their lines above say why).`,
  };
}

/** One log line's piece: terminal-safe, on one line, at most `max` characters (whole ones), `…` when cut. */
export function clip(text: string, max: number): string {
  const chars = Array.from(terminalSafe(String(text).replace(/\r\n|[\r\n\u2028\u2029]/g, '⏎')));
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}
