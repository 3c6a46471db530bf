/**
 * `binder admin`: a person's operations straight on the store, from a shell — every operation
 * of the catalog, generated from it, acting as `--as NAME` (else the OS user). Whoever can open
 * the store file is a person: the store must be kept where agents cannot write.
 * Exit codes as `binder`'s: 0 done, 1 refused, 2 no store, 64 not understood. What it prints
 * is made terminal-safe wherever it goes (`--json` is exact, its controls escaped).
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { cleanOrg, openAnyStore, type PostgresStore, Refused, type StoreSpec, type Who } from '../store/index.js';
import { FOLDS_ASCII_ALONE, foldsCase as asked } from '../keeper/locale-advice.js';
import { addOperation } from '../keeper/command-builder.js';
import { jsonDocument } from '../keeper/json-document.js';
import { OPERATIONS, adminWords, type OpSpec } from '../keeper/operations.js';
import { createPerform } from '../keeper/perform.js';
import { person, whereStore } from '../keeper/places.js';
import { toStderr } from '../keeper/log-line.js';
import { safeAnswer, safeSentence } from '../keeper/terminal-safe.js';
import { asWritten } from '../keeper/text-values.js';
import { waitHere } from '../keeper/wait-here.js';
import { addExchangeCommands, type ExchangeRun } from '../exchange/commands.js';
import { addSessionCommands } from './admin-sessions.js';
import { addHookCommands } from './admin-hooks.js';
import { withStore } from './admin-store.js';
import { deletionAgreed } from '../keeper/admin-delete.js';
import { openBinders, type Binders } from '../keeper/binders.js';
import { addConfigCommand } from './admin-config.js';
import { ConfigProblem, personDefaults } from './config.js';

interface Chosen { op?: OpSpec; args: Record<string, unknown>; exchange?: ExchangeRun; store?: string; as?: string; org?: string; json: boolean }

type Globals = { store?: string; as?: string; org?: string; json?: boolean };

const ABOUT = `A person's operations on the binder, straight on its store (no keeper needed).
The store: --store DIR or postgres://USER@HOST/DB, else $BINDER_STORE, else PostgreSQL when $PGHOST
or $PGDATABASE is set, else $XDG_DATA_HOME/binder, else ~/.local/share/binder.`;

/** The command line of `binder admin`, also read by the shell's completion. */
export function program(chosen: (c: Chosen) => void): Command {
  const admin = new Command('binder admin')
    .description(ABOUT)
    .option('--store <DIR|URL>', 'the store: a folder (SQLite), or postgres://USER@HOST/DB')
    .option('--as <NAME>', 'who you are (else your OS user name)')
    .option('--org <ORG>', 'the organisation whose binder to act on, when the store is a signed-in service\'s (binder admin orgs lists them)')
    .option('--json', "print the answer's data as one JSON document")
    .helpOption('-h, --help', 'show this help')
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(safeAnswer(s)), writeErr: (s) => process.stderr.write(safeAnswer(s)) })
    .addHelpText('after', `\nExamples:\n${OPERATIONS.filter((o) => !o.agents).map((o) => `  ${o.example}`).join('\n')}
  binder admin export --out binder.json
  binder admin import tasks.json --into Tasks
  binder admin backup ~/binder-backup.db
  binder admin login-link
  binder admin hook add https://chat.example/binder --events proposed
  binder admin --org acme.example people

The agents' verbs (add, move, note…) work here too, as you.`);
  const pick = (op: OpSpec) => (args: Record<string, unknown>, command: Command) => {
    const g = command.optsWithGlobals<Globals>();
    chosen({ op, args, store: g.store, as: g.as, org: g.org, json: g.json === true });
  };
  // Folder and token operations read as `side add`, `token list`…: `sides` stays beside them.
  const groups = new Map([
    ['side', admin.command('side').description('add or remove an agent\'s folder')],
    ['token', admin.command('token').description('make, list or revoke an agent\'s token for HTTP')],
  ]);
  for (const op of OPERATIONS) {
    const [first, second] = adminWords(op);
    const group = second !== undefined ? groups.get(first!) : undefined;
    if (group) addOperation(group, op, pick(op), second);
    else addOperation(admin, op, pick(op), first);
  }
  // `side list` beside `side add` and `side remove`: the same as `sides`.
  const sides = OPERATIONS.find((o) => o.name === 'sides');
  if (sides) addOperation(groups.get('side')!, sides, pick(sides), 'list');
  admin.command('migrate')
    .description('Bring the store to this Binder\'s schema, and say at which version it is (a keeper does it too when it starts).')
    .addHelpText('after', '\nExample:\n  binder admin migrate --store postgres://binder@db.example/binder')
    .action(() => {
      const g = admin.opts<Globals>();
      chosen({ exchange: (place) => migrateStore(place.store, place.json), args: {}, store: g.store, as: g.as, org: g.org, json: g.json === true });
    });
  const beside = (exchange: ExchangeRun): void => {
    const g = admin.opts<Globals>();
    chosen({ exchange, args: {}, store: g.store, as: g.as, org: g.org, json: g.json === true });
  };
  admin.command('orgs')
    .description('The organisations that have a binder in this signed-in service\'s store (their first person signed in).')
    .addHelpText('after', '\nExample:\n  binder admin orgs --store /srv/binder')
    .action(() => beside((place) => listOrgs(place.store, place.json)));
  addExchangeCommands(admin, beside);
  addSessionCommands(admin, beside);
  addHookCommands(admin, beside);
  addConfigCommand(admin, (run) => beside(run));
  return admin;
}

/** The organisations of a service store, one a line (or as JSON). */
function listOrgs(spec: StoreSpec, json: boolean): Promise<number> {
  return withStore(spec, async (store) => {
    const orgs = await store.orgs();
    if (json) process.stdout.write(`${jsonDocument(orgs)}\n`);
    else process.stdout.write(orgs.length ? `${orgs.map((o) => safeAnswer(`${o.name}  (${o.slug}, since ${o.created.slice(0, 10)})`)).join('\n')}\n`
      : 'No organisation has a binder in this store: the first sign-in of an organisation\'s person makes its binder.\n');
    return 0;
  });
}

/**
 * Where `--org` says to act: the organisation's binder beside the service store, if it has one
 * (a name mistyped must not make a binder). The binders are closed again: only their place is kept.
 */
interface OrgPlace {
  spec: StoreSpec;
  tokenMade: (hash: string) => Promise<void>;
  personRemoved: (id: string) => Promise<void>;
  /** Another organisation whose binder has the folder `dir` registered, or null. */
  folderElsewhere: (dir: string) => Promise<string | null>;
  done: () => Promise<void>;
}

/** A folder's path as a comparison needs it: its real path where it exists. */
const samePlace = (dir: string): string => {
  try {
    return realpathSync(resolve(dir));
  } catch {
    return resolve(dir);
  }
};

async function orgPlace(spec: StoreSpec, org: string): Promise<OrgPlace | number> {
  let binders: Binders;
  try {
    binders = await openBinders(spec, { start: false, log: toStderr });
  } catch (error) {
    if (error instanceof Refused) { process.stderr.write(`${safeSentence(error.message)}\n`); return 2; }
    throw error;
  }
  try {
    const name = cleanOrg(org);
    if (!(await binders.service.orgs()).some((o) => o.name === name)) {
      process.stderr.write(`${safeSentence(`No organisation "${name}" has a binder in this store: binder admin orgs lists those that do (an organisation's binder is made when its first person signs in).`)}\n`);
      await binders.close();
      return 1;
    }
    // One folder is one agent of one organisation: registered in two binders, two keepers would
    // each do its asks, one in each organisation's binder, and answer them twice.
    const folderElsewhere = async (dir: string): Promise<string | null> => {
      const wanted = samePlace(dir);
      for (const other of (await binders.service.orgs()).map((o) => o.name).filter((o) => o !== name)) {
        const store = await binders.storeOf(other);
        try {
          if ((await store.sides()).some((side) => samePlace(side.dir) === wanted)) return other;
        } finally {
          await store.close();
        }
      }
      return null;
    };
    return { spec: await binders.specOf(name), tokenMade: (hash) => binders.service.indexToken(hash, name),
      personRemoved: async (id) => { await binders.service.endSessionsOf([id], name); }, folderElsewhere, done: () => binders.close() };
  } catch (error) {
    await binders.close();
    if (error instanceof Refused) { process.stderr.write(`${safeSentence(error.message)}\n`); return 64; }
    throw error;
  }
}

/** Opens the store (which migrates it) and says the schema it is at. */
function migrateStore(spec: StoreSpec, json: boolean): Promise<number> {
  return withStore(spec, async (store) => {
    const { schema } = store as Partial<PostgresStore>;
    const foldsCase = await asked(store);
    const data = { store: store.path, dialect: store.dialect, ...(schema ? { from: schema.before, to: schema.now, foldsCase } : {}) };
    const text = (!schema ? `The store ${store.path} is at this Binder's schema.`
      : schema.before === schema.now ? `The database ${store.path} was at this Binder's schema (version ${schema.now}) already.`
      : `Brought the database ${store.path} from schema version ${schema.before} to ${schema.now}.`)
      + (foldsCase === false ? ` ${FOLDS_ASCII_ALONE}` : '');
    process.stdout.write(json ? `${jsonDocument(data)}\n` : `${asWritten(safeAnswer(text))}\n`);
    return 0;
  });
}

export async function admin(argv: readonly string[]): Promise<number> {
  let chosen: Chosen | undefined;
  try {
    await program((c) => { chosen = c; }).parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 64;
    throw error;
  }
  if (!chosen) return 64;
  const { op, args, json } = chosen;
  const who = person(chosen.as);
  let configured: string | undefined;
  try {
    configured = chosen.store ?? personDefaults().store.value;
  } catch (error) {
    if (!(error instanceof ConfigProblem)) throw error;
    process.stderr.write(`${safeSentence(error.message)}\n`);
    return 64;
  }
  let where = whereStore(configured);
  let org: OrgPlace | undefined;
  if (chosen.org !== undefined) {
    const found = await orgPlace(where, chosen.org);
    if (typeof found === 'number') return found;
    org = found;
    where = found.spec;
  }
  try {
    if (chosen.exchange) return await chosen.exchange({ store: where, who, json, ...(org ? { service: whereStore(configured), org: cleanOrg(chosen.org!) } : {}) });
    if (!op) return 64;
    const other = org && op.name === 'side-add' && typeof args.dir === 'string' ? await org.folderElsewhere(args.dir) : null;
    if (other !== null) {
      process.stderr.write(`${safeSentence(`Not done: the folder ${samePlace(String(args.dir))} is registered in the binder of ${other} already; a folder is one agent of one organisation (binder admin --org ${other} side remove NAME takes it out there first).`)}\n`);
      return 1;
    }
    return await runOperation(op, args, where, who, json, org, org ? cleanOrg(chosen.org!) : undefined);
  } finally {
    await org?.done();
  }
}

/** One operation of the catalog on the store, as `who`; an organisation's binder indexes its tokens. */
async function runOperation(op: OpSpec, args: Record<string, unknown>, where: StoreSpec, who: Who, json: boolean,
  org: Pick<OrgPlace, 'tokenMade' | 'personRemoved'> | undefined, orgName?: string): Promise<number> {
  // A hint names the next command as binder admin …: with --org, in that organisation's binder too.
  const inOrg = (text: string): string => (orgName === undefined ? text : text.replace(/\bbinder admin (?!--org )/g, `binder admin --org ${orgName} `));
  let store;
  try {
    store = await openAnyStore(where, {
      log: toStderr,
      ...(org ? { tokenMade: org.tokenMade, personRemoved: org.personRemoved, signedIn: true } : {}),
    });
  } catch (error) {
    if (error instanceof Refused) { process.stderr.write(`${safeSentence(error.message)}\n`); return 2; }
    throw error;
  }
  try {
    // A signed-in service's own store holds no binder of an organisation's: a change made there
    // (a token, a list, a folder) would be nobody's, and a token made there never accepted.
    if (!org && !op.readOnly && ((await store.signInIssuer()) !== null || (await store.orgs()).length > 0)) {
      process.stderr.write(`${safeSentence(`Not done: this store is a signed-in service's, whose binders are its organisations': name one with --org ORGANISATION (binder admin orgs lists them), e.g. binder admin --org acme.example ${adminWords(op).join(' ')} …`)}\n`);
      return 1;
    }
    if ((op.name === 'delete' || op.name === 'delete-list') && args.yes !== true && !(await deletionAgreed(store, op.name, args, who))) return 1;
    const perform = createPerform({ store, log: toStderr });
    // A person's wait blocks here: this process has no keeper to hold it open.
    const answer = op.name === 'wait'
      ? await waitHere(store, perform, who, args, json ? 'json' : undefined)
      : await perform(op.name, args, who, json ? 'json' : undefined);
    if (!answer.ok) {
      process.stderr.write(`${asWritten(safeSentence(`Not done: ${inOrg(answer.text)}`))}\n`);
      return 1;
    }
    process.stdout.write(json ? `${jsonDocument(answer.data ?? { text: answer.text })}\n` : `${asWritten(safeAnswer(inOrg(answer.text)))}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
