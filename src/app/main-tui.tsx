/**
 * `binder tui` (and `binder serve`): opens the store, keeps the agents' folders in the
 * background (the keeper, in this process; over HTTP too with --http), and runs the person's
 * screen until `q`. It only wires; importing it starts nothing. Exit codes: 0 quit, 2 no
 * terminal or no store, 64 not understood.
 */
import { render } from 'ink';
import { httpPlan, listeningLine, loginLine, providerLine, startHttpFor, type HttpStarted } from '../http/start.js';
import { createKeeper } from '../keeper/keeper.js';
import { scrubbed, toStderr } from '../keeper/log-line.js';
import { safeSentence } from '../keeper/terminal-safe.js';
import type { SideConfig } from '../keeper/keeper-types.js';
import { person, sideOption, whereStore } from '../keeper/places.js';
import { openAnyStore, Refused, type Store } from '../store/index.js';
import { App } from '../tui/components/App.js';
import { Binder, type BinderContext } from '../tui/context.js';
import { readOptions, USAGE } from './tui-options.js';
import { ConfigProblem, personDefaults, withTuiDefaults } from './config.js';
import { suspender } from '../tui/suspend.js';
import { holdTerminal } from '../tui/terminal-modes.js';
import { terminalNotifier } from '../tui/terminal-notify.js';
import { makeTheme } from '../tui/theme.js';
import { langFromEnv, wordsFor } from '../person/words.js';
import { WAIT_MS } from '../keeper/protocol.js';

export async function main(argv: string[]): Promise<number> {
  const read = readOptions(argv);
  if ('problem' in read) {
    process.stderr.write(`${read.problem}\n`);
    return 64;
  }
  if (read.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  let options;
  try {
    // The person's configuration file, under the BINDER_* variables and the flags, as binder serve reads it.
    options = withTuiDefaults(read, personDefaults());
  } catch (error) {
    if (!(error instanceof ConfigProblem)) throw error;
    process.stderr.write(`binder tui: ${safeSentence(error.message)}\n`);
    return 64;
  }
  const plan = httpPlan(options.http);
  if (plan && 'problem' in plan) {
    process.stderr.write(`binder tui: ${plan.problem}\n`);
    return 64;
  }
  if (!process.stdin.isTTY) {
    process.stderr.write('binder tui needs a terminal; use binder serve --no-tui to keep the binder without a screen\n');
    return 2;
  }

  let store: Store;
  let given: SideConfig[];
  const where = whereStore(options.store);
  try {
    given = options.sides.map((s) => sideOption(s));
    store = await openAnyStore(where);
  } catch (error) {
    // A refusal is already the sentence for a person; anything else is said with its reason.
    const why = error instanceof Error ? error.message.replace(/\s+/g, ' ').replace(/\.$/, '') : String(error);
    toStderr(error instanceof Refused ? `${why}.` : `binder tui cannot open the store in ${where.kind === 'sqlite' ? where.dir : 'PostgreSQL'}: ${why}.`);
    return 2;
  }

  // No folder is made nor read unasked: with none given nor registered, the screen says how to
  // register one (the keeper makes the folders it is given, 0700 with a .gitignore of *).
  const noFolder = !given.length && (await store.sides()).length === 0;
  const sides = (): SideConfig[] => given;

  const out = process.stdout;
  const held = out.isTTY ? holdTerminal(out.fd, { mouse: options.mouse }) : null;
  const listeners = new Set<(line: string) => void>();
  const heard = scrubbed((line: string) => { for (const l of listeners) l(line); });
  const keeper = createKeeper({ store, sides, log: heard });
  // Listening is said before the screen takes the terminal (and is there again when it leaves it).
  let http: HttpStarted | null = null;
  try {
    if (plan) http = await startHttpFor(keeper, plan, heard, undefined, where);
  } catch (error) {
    await keeper.close();
    await store.close();
    if ((error as Error)?.name !== 'Refused') throw error;
    toStderr((error as Error).message);
    return 2;
  }
  if (http) {
    process.stdout.write(`${listeningLine(http.url, options.lang ?? langFromEnv())}\n`);
    const lang = options.lang ?? langFromEnv();
    process.stdout.write(`${http.provider ? providerLine(http.url, http.provider, lang) : loginLine(await http.loginLink(person(options.as).name), lang)}\n`);
  }

  const served = http;
  const context: BinderContext = {
    keeper,
    person: person(options.as),
    words: wordsFor(options.lang ?? langFromEnv()),
    theme: makeTheme(),
    now: Date.now,
    firstSide: () => {
      const side = sides()[0];
      if (side) return side;
      const kept = keeper.folders()[0];
      return kept ? { dir: kept.dir, who: { id: kept.agent, kind: 'agent', name: kept.name } } : null;
    },
    pollMs: 500,
    dueMs: 3000,
    onDiagnostic: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    terminal: held ? suspender(held, process.stdin, wordsFor(options.lang ?? langFromEnv()).say.suspended(WAIT_MS / 1000)) : null,
    noFolder,
    // Written as the screen's frames are, in order with them: the sequence moves no cursor.
    notify: out.isTTY ? terminalNotifier(process.env, options.notify !== false, (sequence) => out.write(sequence)) : null,
    ...(served ? { loginLink: () => served.loginLink(person(options.as).name) } : {}),
  };

  held?.enter();
  try {
    // Ctrl-C is the screen's own key (it closes a form; at the top it quits), never Ink's.
    const screen = render(<Binder.Provider value={context}><App /></Binder.Provider>, { exitOnCtrlC: false, patchConsole: true });
    // Ink writes the first frame within render: the folders are kept from now on, not before.
    void keeper.start();
    // A closed SSH session (SIGHUP), a kill (SIGTERM) or an interrupt from outside (SIGINT) ends the screen as q does: the keeper says it stopped.
    const stop = () => screen.unmount();
    process.once('SIGHUP', stop);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    try {
      await screen.waitUntilExit();
    } finally {
      process.off('SIGHUP', stop);
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    }
  } finally {
    await http?.stop();
    await keeper.close();
    await store.close();
    held?.leave();
  }
  return 0;
}
