/**
 * `binder tui`, `binder serve`, `binder admin` and `binder init`: a person's commands, loaded from their own
 * bundles beside this one only when called, so the agent's path never pays for them.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { quietWhenReaderLeaves } from '../keeper/output.js';

/** The verbs of `binder sandbox` and `binder doctor`, loaded from their own bundle. */
export const SANDBOX_VERBS: ReadonlySet<string> = new Set(['sandbox', 'doctor']);

/** Runs `binder sandbox …` or `binder doctor` from the bundle beside `base`. */
export async function runSandboxSide(argv: string[], err: (text: string) => void, base: string, load: LoadBundle): Promise<number> {
  const url = new URL('./binder-sandbox.js', base);
  if (!existsSync(fileURLToPath(url))) {
    err(`This build has no binder ${argv[0]}: ${fileURLToPath(url)} is missing.\n`);
    return 2;
  }
  quietWhenReaderLeaves();
  const loaded = (await load(url)) as Partial<PersonModule>;
  const code = await loaded.main?.(argv);
  return typeof code === 'number' ? code : 0;
}

/** The first words that belong to a person's side. */
export const PERSON_VERBS: ReadonlySet<string> = new Set(['tui', 'serve', 'admin', 'init', 'completion']);

interface PersonModule {
  main(argv: string[]): number | void | Promise<number | void>;
}

/** How a bundle is loaded: by import() unless the caller has a better way (see main-binder). */
export type LoadBundle = (url: URL) => Promise<unknown>;

/** Runs a person's command from the bundle beside `base`; resolves with its exit code. */
export async function runPersonSide(
  argv: string[],
  err: (text: string) => void,
  base: string = import.meta.url,
  load: LoadBundle = (url) => import(url.href),
): Promise<number> {
  // Inside `binder sandbox` the store is hidden: say so, rather than fail on what is not there.
  if (process.env.BINDER_SANDBOX) {
    err(`binder ${argv[0]} is a person's command, and this process is an agent's: it runs in binder sandbox, where the binder is out of its reach (ask through your folder: binder --help).\n`);
    return 2;
  }
  const keeper = argv[0] === 'admin' || argv[0] === 'init' || argv[0] === 'completion' || (argv[0] === 'serve' && argv.includes('--no-tui'));
  const bundle = keeper
    ? { url: new URL('./binder-keeper.js', base), what: 'keeper' }
    : { url: new URL('./binder-tui.js', base), what: 'screen' };
  if (!existsSync(fileURLToPath(bundle.url))) {
    err(`This build has no ${bundle.what}: ${fileURLToPath(bundle.url)} is missing.\n`);
    return 2;
  }
  quietWhenReaderLeaves();
  const loaded = (await load(bundle.url)) as Partial<PersonModule>;
  if (typeof loaded.main !== 'function') {
    err(`This build has no ${bundle.what}: ${fileURLToPath(bundle.url)} has no main.\n`);
    return 2;
  }
  const code = await loaded.main(argv);
  return typeof code === 'number' ? code : 0;
}
