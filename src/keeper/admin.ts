/**
 * `binder admin`: a person's operations straight on the store, from a shell — every operation
 * of the catalog, generated from it, acting as `--as NAME` (else the OS user). Whoever can open
 * the store file is a person: the store must be kept where agents cannot write.
 * Exit codes as `binder`'s: 0 done, 1 refused, 2 no store, 64 not understood.
 */
import { Command, CommanderError } from 'commander';
import { openStore } from '../store/index.js';
import { Refused } from '../store/store.js';
import { jsonDocument } from '../agent/cli.js';
import { addOperation } from './command-builder.js';
import { OPERATIONS, type OpSpec } from './operations.js';
import { createPerform } from './perform.js';
import { person, storeFolder } from './places.js';
import { terminalSafe } from './terminal-safe.js';
import { waitHere } from './wait-here.js';

interface Chosen { op: OpSpec; args: Record<string, unknown>; store?: string; as?: string; json: boolean }

const ABOUT = `A person's operations on the binder, straight on its store (no keeper needed).
The store: --store DIR, else $BINDER_STORE, else $XDG_DATA_HOME/binder, else ~/.local/share/binder.`;

function program(chosen: (c: Chosen) => void): Command {
  const admin = new Command('binder admin')
    .description(ABOUT)
    .option('--store <DIR>', 'the store folder')
    .option('--as <NAME>', 'who you are (else your OS user name)')
    .option('--json', "print the answer's data as one JSON document")
    .helpOption('-h, --help', 'show this help')
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) })
    .addHelpText('after', `\nExamples:\n${OPERATIONS.filter((o) => !o.agents).map((o) => `  ${o.example}`).join('\n')}\n\nThe agents' verbs (add, move, note…) work here too, as you.`);
  const pick = (op: OpSpec) => (args: Record<string, unknown>, command: Command) => {
    const g = command.optsWithGlobals<{ store?: string; as?: string; json?: boolean }>();
    chosen({ op, args, store: g.store, as: g.as, json: g.json === true });
  };
  // Folder and token operations read as `side add`, `token list`…: `sides` stays beside them.
  const groups = new Map([
    ['side-', admin.command('side').description('add or remove an agent\'s folder')],
    ['token-', admin.command('token').description('make, list or revoke an agent\'s token for HTTP')],
  ]);
  for (const op of OPERATIONS) {
    const group = [...groups].find(([start]) => op.name.startsWith(start));
    if (group) addOperation(group[1], op, pick(op), op.name.slice(group[0].length));
    else addOperation(admin, op, pick(op));
  }
  return admin;
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
  let store;
  try {
    store = openStore(storeFolder(chosen.store));
  } catch (error) {
    if (error instanceof Refused) { process.stderr.write(`${error.message}\n`); return 2; }
    throw error;
  }
  try {
    const perform = createPerform({ store, log: (line) => process.stderr.write(`${line}\n`) });
    // A person's wait blocks here: this process has no keeper to hold it open.
    const answer = op.name === 'wait'
      ? await waitHere(store, perform, who, args, json ? 'json' : undefined)
      : perform(op.name, args, who, json ? 'json' : undefined);
    const safe = (text: string, tty: boolean | undefined) => (tty ? terminalSafe(text, { multiline: true }) : text);
    if (!answer.ok) {
      process.stderr.write(`Not done: ${safe(answer.text, process.stderr.isTTY)}\n`);
      return 1;
    }
    process.stdout.write(json ? `${jsonDocument(answer.data ?? { text: answer.text })}\n` : `${safe(answer.text, process.stdout.isTTY)}\n`);
    return 0;
  } finally {
    store.close();
  }
}
