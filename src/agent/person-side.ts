/**
 * `binder tui`, `binder serve`, `binder admin` and `binder init`: a person's commands, loaded from their own
 * bundles beside this one only when called, so the agent's path never pays for them.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { quietWhenReaderLeaves } from './output.js';

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
