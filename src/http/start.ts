/**
 * `--http` and its companions for `binder serve` and `binder tui`: the options, and starting the
 * HTTP face beside a keeper that runs. Light: the face itself (Hono, the MCP SDK's server) is
 * loaded only when asked for. The address is said once, even when nothing else is.
 */
import type { Command } from 'commander';
import type { Keeper } from '../keeper/keeper-types.js';
import type { StoreSpec } from '../store/index.js';
import { flagsOf, HTTP_FLAGS, type HttpFlag } from './flags.js';
import { loadHttp } from './load.js';
import { httpPlan, type HttpFlags, type HttpPlan } from './plan.js';
import { sayServing } from './serving.js';

/** Adds --http and its companions (TLS, proxy, hosts, public address, rate, provider) to a command. */
export function addHttpOptions(command: Command): Command {
  for (const flag of HTTP_FLAGS as readonly HttpFlag[]) {
    if (flag.repeatable) command.option(flagsOf(flag), flag.help, (v: string, all: string[] | undefined) => [...(all ?? []), v]);
    else command.option(flagsOf(flag), flag.help);
  }
  return command;
}

export { httpPlan, type HttpFlags, type HttpPlan };

export interface HttpStarted {
  url: string;
  /** The identity provider people sign in with (its host); none: login links. */
  provider?: string;
  /** A one-time login link to the page (10 minutes) for the person of that name. */
  loginLink(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** The page's address that signs a browser in with a link's key: the key stays in the browser (a fragment is never sent). */
export const loginUrl = (url: string, key: string): string => `${url}/#login=${key}`;

/** The line that gives the person a login link at start. */
export const loginLine = (link: string, lang: 'en' | 'fr'): string => (lang === 'fr'
  ? `La page, pour vous : ${link} (un seul usage, dans les 10 minutes ; binder admin login-link en donne un autre)`
  : `Your page: ${link} (one use, within 10 minutes; binder admin login-link gives another)`);

/**
 * Said at start instead of a login link where the output is no terminal (a journal, a log file,
 * another process): a link is a key to the page, never left where others read.
 */
export const noLinkLine = (lang: 'en' | 'fr'): string => (lang === 'fr'
  ? 'Pas de lien de connexion ici (la sortie n\'est pas un terminal) : binder admin login-link en donne un, à qui le demande.'
  : 'No login link here (this output is no terminal): binder admin login-link gives one to whoever asks for it.');

/** Where people sign in, said at start instead of a login link. */
export const providerLine = (url: string, provider: string, lang: 'en' | 'fr'): string => (lang === 'fr'
  ? `La page : ${url}/ (on s'y connecte avec ${provider} ; pas de lien de connexion)`
  : `The page: ${url}/ (people sign in with ${provider} there; no login links)`);

/** The line said at start, even with --quiet. */
export const listeningLine = (url: string, lang: 'en' | 'fr'): string => (lang === 'fr'
  ? `Répond aussi sur ${url} (MCP : ${url}/mcp, REST : ${url}/api)`
  : `Answering on ${url} too (MCP at ${url}/mcp, REST at ${url}/api)`);

/**
 * Starts the HTTP face: `log` hears what goes wrong, `told` (if given) a line per ask answered.
 * A sentence, thrown as an Error named Refused, if it cannot listen.
 */
export async function startHttpFor(keeper: Keeper, plan: HttpPlan, log: (line: string) => void, told?: (line: string) => void, spec?: StoreSpec): Promise<HttpStarted> {
  const { startHttp } = await loadHttp();
  const serving = await startHttp(keeper, plan, { log, ...(told ? { told } : {}), ...(spec ? { spec } : {}) });
  // Behind a proxy, the address said, written for login-link and put in links is the one people reach.
  const url = plan.publicUrl ?? serving.url;
  // Where it answers, for binder admin login-link; taken back when it stops. A database server
  // has no folder to say it in: there, login-link is given the address with --url.
  const unsay = keeper.store.inAFile ? sayServing(keeper.store.path, url) : () => {};
  return {
    url,
    ...(serving.provider ? { provider: serving.provider } : {}),
    async loginLink(name) {
      const made = await keeper.store.addLoginLink(name, { id: `person:${name}`, kind: 'person', name });
      return loginUrl(url, made.key);
    },
    async stop() {
      unsay();
      await serving.close();
    },
  };
}
