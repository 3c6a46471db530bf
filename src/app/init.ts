/**
 * `binder init`: a project set up in one step, by the person, in the project's directory — the
 * list made if the binder has none of that title, `./.binder` made and registered as the agent
 * (the directory's name by default), the list granted to it, the folder's `.gitignore`, and the
 * three ways to connect an agent printed. Run again, it says what is there and changes nothing.
 * Every change goes through the catalog's operations, so the store's rules and words hold; it
 * never acts on a signed-in service's store (there, a binder is an organisation's).
 */
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { findTemplate, openAnyStore, Refused, slug, type Store } from '../store/index.js';
import { agentWho } from '../keeper/keeper.js';
import { createPerform } from '../keeper/perform.js';
import { person, whereStore } from '../keeper/places.js';
import { FOLDER_NAME } from '../keeper/protocol.js';
import { toStderr } from '../keeper/log-line.js';
import { safeAnswer, safeSentence } from '../keeper/terminal-safe.js';
import { ConfigProblem, personDefaults, type PersonDefaults } from './config.js';

/** An operation refused on the way: its sentence, and nothing after it is done. */
class NotDone extends Error {}

interface InitFlags { template: string; agent?: string; list?: string; store?: string; as?: string; lang?: string }

/** What the folder's .gitignore says: nothing in it is the project's. */
const GITIGNORE = '# The agent\'s folder for Binder: its asks and the keeper\'s answers, never the project\'s.\n*\n';

/** The command line of `binder init`, also read by the shell's completion. */
export function program(chosen: (flags: InitFlags) => void): Command {
  return new Command('binder init')
    .description(`Set this directory up for an agent: a list, ./${FOLDER_NAME} registered as the agent and granted the list.`)
    .option('--template <T>', 'the list\'s template when it is made: batches, tasks, customers, people, roadmap or blank', 'batches')
    .option('--agent <NAME>', 'the agent\'s name (else this directory\'s name)')
    .option('--list <TITLE>', 'the list to grant, made if the binder has none of that title (else the template\'s title)')
    .option('--store <DIR|URL>', 'the store: a folder (SQLite), or postgres://USER@HOST/DB')
    .option('--as <NAME>', 'who you are (else your OS user name)')
    .option('--lang <LANG>', 'the template\'s language: en or fr')
    .helpOption('-h, --help', 'show this help')
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(safeAnswer(s)), writeErr: (s) => process.stderr.write(safeAnswer(s)) })
    .addHelpText('after', '\nExamples:\n  binder init\n  binder init --template tasks --list "Site work" --agent Claude')
    .action((flags: InitFlags) => chosen(flags));
}

/** `argv`: the words after `init`. Resolves with the exit code. */
export async function init(argv: readonly string[], cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let flags: InitFlags | undefined;
  try {
    await program((f) => { flags = f; }).parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 64;
    throw error;
  }
  if (!flags) return 64;
  let defaults: PersonDefaults;
  try {
    defaults = personDefaults(env);
  } catch (error) {
    if (error instanceof ConfigProblem) { toStderr(safeSentence(error.message)); return 64; }
    throw error;
  }
  const lang = flags.lang ?? defaults.lang.value ?? 'en';
  if (lang !== 'en' && lang !== 'fr') { toStderr('binder init: --lang takes en or fr.'); return 64; }
  const template = findTemplate(flags.template, lang);
  if (!template) { toStderr(safeSentence(`binder init: no template "${flags.template}": batches, tasks, customers, people, roadmap or blank.`)); return 64; }
  const title = (flags.list ?? defaults.list.value ?? template.title).trim();
  const here = resolve(cwd);
  const agentName = (flags.agent ?? basename(here)).trim();
  if (!title || !agentName || !slug(agentName)) { toStderr('binder init: the list and the agent each need a name with a letter or a digit (--list, --agent).'); return 64; }

  let store: Store;
  try {
    store = await openAnyStore(whereStore(flags.store ?? defaults.store.value, env), { log: toStderr });
  } catch (error) {
    if (error instanceof Refused) { toStderr(safeSentence(error.message)); return 2; }
    throw error;
  }
  try {
    if ((await store.signInIssuer()) !== null || (await store.orgs()).length > 0) {
      toStderr(safeSentence(`Not done: this store is a signed-in service's, whose binders are its organisations': set a project up there with binder admin --org ORGANISATION create-list, side add and grant.`));
      return 1;
    }
    const said = await setUp(store, { here, title, templateId: template.id, lang, agentName, as: flags.as });
    process.stdout.write(`${safeAnswer(said.join('\n'))}\n`);
    return 0;
  } catch (error) {
    if (error instanceof Refused || error instanceof NotDone) { toStderr(safeSentence(`Not done: ${error.message}`)); return 1; }
    throw error;
  } finally {
    await store.close();
  }
}

interface Plan { here: string; title: string; templateId: string; lang: 'en' | 'fr'; agentName: string; as: string | undefined }

/** The real path of a directory where it exists, else the path as given. */
const samePlace = (dir: string): string => {
  try { return realpathSync(dir); } catch { return resolve(dir); }
};

/** Does what is missing, one operation at a time; the lines say what was done or found. */
async function setUp(store: Store, plan: Plan): Promise<string[]> {
  const who = person(plan.as);
  const perform = createPerform({ store, log: toStderr });
  const act = async (op: string, args: Record<string, unknown>): Promise<string> => {
    const answer = await perform(op, args, who);
    if (!answer.ok) throw new NotDone(answer.text);
    // Its first line: the hint after it names a step this command takes next.
    return answer.text.split('\n')[0]!.replace(/ Grant it a list: .*$/, '');
  };
  const said: string[] = [];

  const wanted = slug(plan.title);
  let list = (await store.lists(who, { archived: true })).find((l) => l.id === wanted || l.title === plan.title);
  if (list?.archived) throw new NotDone(`the list ${list.id} is archived: binder admin archive-list ${list.id} --restore brings it back.`);
  if (list) said.push(`The list ${list.id} (${list.title}) is there already.`);
  else {
    said.push(await act('create-list', { title: plan.title, template: plan.templateId, lang: plan.lang }));
    list = (await store.lists(who)).find((l) => l.id === wanted || l.title === plan.title);
    if (!list) throw new Error(`the list "${plan.title}" was made but is not found`);
  }

  const folder = join(plan.here, FOLDER_NAME);
  const registered = (await store.sides()).find((s) => samePlace(s.dir) === samePlace(folder));
  let agent = plan.agentName;
  if (registered) {
    agent = registered.name;
    said.push(`The keeper reads ${registered.dir} as ${registered.name} (${registered.agent}) already.`);
  } else {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    said.push(await act('side-add', { dir: folder, name: agent }));
  }
  const ignore = join(folder, '.gitignore');
  if (!existsSync(ignore)) {
    writeFileSync(ignore, GITIGNORE, { mode: 0o644, flag: 'wx' });
    said.push(`Wrote ${ignore}: git leaves the folder out.`);
  }

  const access = (await store.lists(agentWho(agent))).find((l) => l.id === list.id)?.access;
  if (access === 'write') said.push(`${agent} may write ${list.id} already.`);
  else said.push(await act('grant', { list: list.id, agent, access: 'write' }));

  said.push('', 'Connect an agent, working in this directory:',
    `  binder                                   # the plain command: binder --help lists its verbs`,
    `  claude mcp add binder -- binder-mcp --dir "${folder}"`,
    `    or in mcp.json: { "mcpServers": { "binder": { "command": "binder-mcp", "args": ["--dir", ${JSON.stringify(folder)}] } } }`,
    `  binder sandbox -- claude                 # contained: the store out of its sight`,
    'and keep the binder while it works: binder tui (or binder serve --no-tui).');
  return said;
}
